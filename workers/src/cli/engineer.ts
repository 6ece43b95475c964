import { RUN_COMMAND_TOOL, type EngineerCommandDto, type EngineerNodeInput, type EngineerSessionStatus } from '@scriptorium/domain/protocol/engineer';
import { RUN_APPROVED, runNoteCode, type TrajectoryEvent } from '@scriptorium/domain/protocol/trajectories';

/** How often a live session asks the server for commands sent from the browser. */
export const POLL_MS = 1000;

export type Api = (path: string, init?: RequestInit) => Promise<Response>;
const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/**
 * Mirrors a CLI session into an AI-engineer session the browser watches live: each trajectory
 * event becomes a node (a question is a root, the answer and the commands it led to hang under it,
 * a command's output under the command). A proposed command is a pending `run_command` tool call
 * that leaves the session waiting for input; its answer hangs under it: the command that ran, or a
 * note that it was refused. Sends go one at a time in order; a server without the
 * feature or a lost connection costs a warning, never the session.
 */
export class EngineerRecorder {
  private chain: Promise<unknown>;
  private count = 0;
  private question: string | null = null;
  private command: string | null = null;
  /** The proposal waiting for an answer, then the approved one whose command is next to run. */
  private proposal: string | null = null;
  private approved: string | null = null;
  private warned = false;

  constructor(
    private readonly api: Api,
    readonly sessionId: string,
    readonly clientId: string,
    session: { title: string; task_description: string },
    /** Told why the session could not be synced, once: the caller words it in the user's language. */
    private readonly warn: (reason: string) => void,
  ) {
    this.chain = this.send('/sessions', json({ ...session, session_id: sessionId, source: 'cli' }));
  }

  private async send(path: string, init?: RequestInit): Promise<Response | null> {
    try {
      const response = await this.api(`/api/ai-engineer${path}`, init);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response;
    } catch (error) {
      if (!this.warned) this.warn(error instanceof Error ? error.message : String(error));
      this.warned = true;
      return null;
    }
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private append(nodes: EngineerNodeInput[], status?: EngineerSessionStatus): Promise<unknown> {
    return this.enqueue(() => this.send(`/sessions/${this.sessionId}/nodes`, json({ nodes, ...(status && { status }) })));
  }

  /**
   * The node a trajectory event becomes, if any; node ids count up, so a resent batch is recognised.
   * Nodes of one moment (an answer and the command it proposes) order by id, so ids are padded to sort as numbers.
   */
  record(event: TrajectoryEvent): Promise<unknown> {
    const id = `n${String(++this.count).padStart(6, '0')}`;
    const base = { id, timestamp: event.timestamp };
    switch (event.event_type) {
      case 'user_query':
        this.question = id;
        this.command = null;
        return this.append([{ ...base, node_type: 'message', payload: { role: 'user', text: event.query ?? '' } }]);
      case 'assistant_response':
        return this.append([{ ...base, node_type: 'message', parent_id: this.question, payload: { role: 'assistant', text: event.content ?? '' }, ...(event.tokens !== undefined && { tokens: event.tokens }) }]);
      case 'command': {
        this.command = id;
        const parent = this.approved ?? this.question;
        this.approved = null;
        return this.append([{ ...base, node_type: 'command', parent_id: parent, title: event.command, payload: { command: event.command ?? '', cwd: process.cwd() } }]);
      }
      case 'tool_call':
        this.proposal = id;
        return this.append(
          [{ ...base, node_type: 'tool_call', parent_id: this.question, status: 'pending', title: event.command, payload: { name: RUN_COMMAND_TOOL, arguments: { command: event.command ?? '' } } }],
          'waiting_input',
        );
      case 'tool_result': {
        const proposal = this.proposal;
        this.proposal = null;
        if (event.content?.startsWith(RUN_APPROVED)) {
          this.count--;
          this.approved = proposal;
          return this.append([], 'running');
        }
        const text = event.content ?? '';
        const code = runNoteCode(text);
        return this.append([{ ...base, node_type: 'message', parent_id: proposal, payload: { role: 'system', text, ...(code && { code }) } }], 'running');
      }
      case 'command_output':
        return this.append([
          { ...base, node_type: 'output', parent_id: this.command, status: event.exit_code === 0 ? 'completed' : 'failed', payload: { text: event.content ?? '', exit_code: event.exit_code ?? null } },
        ]);
      case 'error':
        return this.append([{ ...base, node_type: 'error', parent_id: this.question, status: 'failed', payload: { message: event.content ?? '' } }]);
      default:
        this.count--;
        return Promise.resolve();
    }
  }

  /** The id of the proposal waiting for an answer: what an `approve` or `reject` from the browser names. */
  get pendingProposal(): string | null {
    return this.proposal;
  }

  end(status: EngineerSessionStatus = 'completed'): Promise<unknown> {
    return this.append([], status);
  }

  /** Commands from the browser after `after`, each handed to this client once. */
  async commands(after: number): Promise<EngineerCommandDto[]> {
    const response = await this.enqueue(() => this.send(`/sessions/${this.sessionId}/commands?client_id=${encodeURIComponent(this.clientId)}&after=${after}`));
    return response ? ((await response.json()) as { commands: EngineerCommandDto[] }).commands : [];
  }

  result(commandId: string, outcome: { status: 'completed' | 'failed'; result: string; error_message: string | null }): Promise<unknown> {
    return this.enqueue(() => this.send(`/sessions/${this.sessionId}/commands/${commandId}/result`, json(outcome)));
  }

  /** Waits until everything queued has been sent. */
  flush(): Promise<unknown> {
    return this.chain;
  }
}

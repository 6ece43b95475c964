import { spawn } from 'node:child_process';
import { runNote, type RunAnswerer, type TrajectoryEvent } from '@scriptorium/domain/protocol/trajectories';
import type { ChatMessage, ModelProvider } from '@scriptorium/infra/model/port';
import { RUN_COMMAND_FUNCTION } from '@scriptorium/domain/engineer/proposals';
import { RUN_COMMAND_TOOL } from '@scriptorium/domain/protocol/engineer';
import { commandLine, type Command } from './command.ts';
import type { CliMessages } from './messages.ts';

/** Output kept per command: enough to see what happened, small enough to upload. */
export const MAX_OUTPUT_CHARS = 20_000;


export interface SessionIo {
  write(text: string): void;
  clock(): Date;
  /** Sees each event as it is recorded (the live engineer session). */
  recorded?(event: TrajectoryEvent): void;
}

/**
 * One recorded CLI session: what the user asked, what the assistant answered, which commands ran
 * and what they printed. `upload` may be called after every step; the server keeps one file per
 * session id, so each upload replaces the last.
 */
export class RecordedSession {
  readonly events: TrajectoryEvent[] = [];
  private readonly history: ChatMessage[] = [];

  constructor(
    private readonly io: SessionIo,
    private readonly model: ModelProvider,
    /** The user's language: what the terminal shows, and what the assistant is told. */
    private readonly texts: CliMessages,
  ) {
    this.record({ event_type: 'session_start' });
  }

  private record(event: Omit<TrajectoryEvent, 'timestamp'>): void {
    const recorded = { ...event, timestamp: this.io.clock().toISOString() };
    this.events.push(recorded);
    this.io.recorded?.(recorded);
  }

  get ended(): boolean {
    return this.events.at(-1)?.event_type === 'session_end';
  }

  /**
   * Streams the assistant's answer to the terminal as it comes. The assistant may propose a shell
   * command (the `run_command` tool); it is returned, recorded as a proposal, and never run here:
   * the caller asks a person first.
   */
  async ask(query: string, signal?: AbortSignal): Promise<string | null> {
    this.record({ event_type: 'user_query', query });
    this.history.push({ role: 'user', content: query });
    let answer = '';
    let proposal: string | null = null;
    try {
      const messages = [{ role: 'system' as const, content: this.texts.systemPrompt }, ...this.history];
      for await (const delta of this.model.stream({ messages, tools: [RUN_COMMAND_FUNCTION], ...(signal && { signal }) })) {
        if (delta.type === 'text') {
          answer += delta.text;
          this.io.write(delta.text);
        } else {
          proposal = proposedCommand(delta.toolCalls);
          if (!answer && proposal) answer = this.texts.proposedAnswer(proposal);
          this.record({ event_type: 'assistant_response', content: answer, model: delta.model, tokens: delta.promptTokens + delta.completionTokens });
        }
      }
      this.io.write('\n');
      this.history.push({ role: 'assistant', content: answer });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.record({ event_type: 'error', content: message });
      this.io.write(this.texts.errorNote(message));
      return null;
    }
    if (proposal) this.record({ event_type: 'tool_call', content: `${RUN_COMMAND_TOOL}(${proposal})`, command: proposal });
    return proposal;
  }

  /** Records how a proposal was answered; a refusal is told to the assistant, an approval is followed by `run`. */
  answer(command: string, approved: boolean, by: RunAnswerer): void {
    this.record({ event_type: 'tool_result', command, content: runNote(approved, by) });
    if (!approved) this.history.push({ role: 'user', content: this.texts.notRunForModel(command) });
  }

  /** Runs a command with its output shown live and recorded (clipped); it is recorded as the line a shell would run. */
  async run(command: Command): Promise<number> {
    const line = commandLine(command);
    this.record({ event_type: 'command', command: line });
    let output = '';
    const keep = (text: string) => {
      this.io.write(text);
      if (output.length < MAX_OUTPUT_CHARS) output += text;
    };
    const exitCode = await new Promise<number>((resolve) => {
      const stdio: ['ignore', 'pipe', 'pipe'] = ['ignore', 'pipe', 'pipe'];
      const child = typeof command === 'string' ? spawn(command, { shell: true, stdio }) : spawn(command[0], command.slice(1), { stdio });
      // Decoded per stream, so a character split between two chunks arrives whole.
      child.stdout.setEncoding('utf8').on('data', keep);
      child.stderr.setEncoding('utf8').on('data', keep);
      // With no shell to say "not found", the reason a program could not start is the only output there is.
      child.on('error', (error) => {
        keep(`${error.message}\n`);
        resolve(127);
      });
      child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
    });
    const clipped = output.length > MAX_OUTPUT_CHARS ? `${output.slice(0, MAX_OUTPUT_CHARS)}${this.texts.outputClipped}` : output;
    this.record({ event_type: 'command_output', content: clipped, exit_code: exitCode });
    if (exitCode !== 0) this.io.write(this.texts.exitNote(exitCode));
    this.history.push({ role: 'user', content: this.texts.ranForModel(line, exitCode, clipped.slice(-4000)) });
    return exitCode;
  }

  end(): void {
    if (!this.ended) this.record({ event_type: 'session_end' });
  }
}

/** The command of the first well-formed `run_command` call, if the model made one. */
function proposedCommand(calls: readonly { name: string; arguments: string }[] | undefined): string | null {
  for (const call of calls ?? []) {
    if (call.name !== RUN_COMMAND_TOOL) continue;
    try {
      const { command } = JSON.parse(call.arguments) as { command?: unknown };
      if (typeof command === 'string' && command.trim()) return command.trim();
    } catch {
      // A model that wrote broken JSON proposed nothing that could be shown for approval.
    }
  }
  return null;
}

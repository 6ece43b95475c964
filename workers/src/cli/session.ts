import { spawn } from 'node:child_process';
import type { TrajectoryEvent } from '@scriptorium/domain/protocol/trajectories';
import type { ChatMessage, ModelProvider } from '@scriptorium/infra/model/port';

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

  /** Streams the assistant's answer to the terminal as it comes. */
  async ask(query: string, signal?: AbortSignal): Promise<void> {
    this.record({ event_type: 'user_query', query });
    this.history.push({ role: 'user', content: query });
    let answer = '';
    try {
      for await (const delta of this.model.stream({ messages: [{ role: 'system', content: CLI_SYSTEM_PROMPT }, ...this.history], ...(signal && { signal }) })) {
        if (delta.type === 'text') {
          answer += delta.text;
          this.io.write(delta.text);
        } else {
          this.record({ event_type: 'assistant_response', content: answer, model: delta.model, tokens: delta.promptTokens + delta.completionTokens });
        }
      }
      this.io.write('\n');
      this.history.push({ role: 'assistant', content: answer });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.record({ event_type: 'error', content: message });
      this.io.write(`\n[错误] ${message}\n`);
    }
  }

  /** Runs a shell command with its output shown live and recorded (clipped). */
  async run(command: string): Promise<number> {
    this.record({ event_type: 'command', command });
    let output = '';
    const keep = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      this.io.write(text);
      if (output.length < MAX_OUTPUT_CHARS) output += text;
    };
    const exitCode = await new Promise<number>((resolve) => {
      const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      child.on('error', (error) => {
        output += error.message;
        resolve(127);
      });
      child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
    });
    const clipped = output.length > MAX_OUTPUT_CHARS ? `${output.slice(0, MAX_OUTPUT_CHARS)}\n…（输出已截断）` : output;
    this.record({ event_type: 'command_output', content: clipped, exit_code: exitCode });
    if (exitCode !== 0) this.io.write(`[退出码 ${exitCode}]\n`);
    this.history.push({ role: 'user', content: `我运行了 \`${command}\`，退出码 ${exitCode}，输出：\n${clipped.slice(-4000)}` });
    return exitCode;
  }

  end(): void {
    if (!this.ended) this.record({ event_type: 'session_end' });
  }
}

export const CLI_SYSTEM_PROMPT =
  '你是 Scriptorium 命令行助手，帮助开发者理解代码、排查问题、给出可以直接运行的命令。回答简洁，命令放在代码块里，使用与用户相同的语言。';

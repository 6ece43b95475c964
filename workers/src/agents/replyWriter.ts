import { conversationStream, type ReplyOutcome } from '@scriptorium/domain/conversation/conversation';
import { conversationDecider, type RecordReplyItem, type ReplyItem } from '@scriptorium/domain/conversation/decide';
import type { AgentJobData } from '@scriptorium/domain/conversation/jobs';
import type { Usage } from '@scriptorium/infra/model/port';
import type { ChunkedType, OutputType, PayloadOf } from '@scriptorium/domain/protocol/content';
import { progressLevel, progressText, type Progress } from '@scriptorium/domain/protocol/progress';
import type { AgentDeps } from './deps.ts';

/**
 * At most one text event per this many ms while a reply streams (a frame at 60 Hz): text that comes
 * after a quiet spell goes out straight away, text that comes sooner waits for the rest of the interval and
 * for the append before it, so a fast model does not cost an append per token, nor queue appends
 * behind a slow disk…
 */
export const FLUSH_INTERVAL_MS = 16;
/** …unless this many characters are waiting, which go out at once to keep events small. */
export const FLUSH_CHARS = 256;

export interface ReplyWriterStart {
  /** The first seq this writer uses: a later job of the same reply goes on after what the log holds. */
  seq?: number;
  /** Token records the reply already has, so a later job's usage gets ids of its own. */
  tokens?: number;
}

/**
 * Writes one reply into the log. Every event gets the id `(replyId, seq)`, so a job that runs again
 * appends nothing twice; appends are chained so they land in the order they were made.
 */
export class ReplyWriter {
  private seq: number;
  private usageRecords: number;
  private pendingText = '';
  private pendingType: ChunkedType = 'content';
  private timer: NodeJS.Timeout | undefined;
  /** When text was last appended (performance.now()), for the interval between text events. */
  private lastFlush = Number.NEGATIVE_INFINITY;
  /** Appends chained and not yet settled: text that comes meanwhile is coalesced into the next event. */
  private appending = 0;
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown;

  constructor(
    private readonly deps: AgentDeps,
    private readonly job: Pick<AgentJobData, 'sessionId' | 'userId' | 'agent' | 'replyId'>,
    start: ReplyWriterStart = {},
  ) {
    this.seq = start.seq ?? 0;
    this.usageRecords = start.tokens ?? 0;
  }

  /** Streams text of one content type (chat_chunk, content, think…). */
  text(contentType: ChunkedType, text: string): void {
    this.raise();
    if (!text) return;
    if (this.pendingText && this.pendingType !== contentType) this.flushNow();
    this.pendingType = contentType;
    this.pendingText += text;
    if (this.pendingText.length >= FLUSH_CHARS) this.flushNow();
    else this.schedule();
  }

  /** A structured item; any text waiting goes first so the order is what the agent produced. */
  async output<T extends OutputType>(contentType: T, payload: PayloadOf<T>): Promise<void> {
    this.flushNow();
    const seq = this.seq++;
    this.append(`seq-${seq}`, { type: 'AgentOutputRecorded', data: { ...this.ids(), contentType, seq, payload } });
    await this.settled();
  }

  /** Progress as its code for the client to word, with the text that goes beside it. */
  progress(progress: Progress): Promise<void> {
    return this.output('info', { content: progressText(progress), level: progressLevel(progress.code), progress });
  }

  async tokens(usage: Usage): Promise<void> {
    this.flushNow();
    this.append(`tokens-${this.usageRecords++}`, {
      type: 'TokensConsumed',
      data: {
        userId: this.job.userId,
        sessionId: this.job.sessionId,
        messageId: this.job.replyId,
        prompt: usage.promptTokens,
        completion: usage.completionTokens,
        model: usage.model,
        at: this.deps.clock().toISOString(),
      },
    });
    await this.settled();
  }

  async complete(outcome: ReplyOutcome, error?: string): Promise<void> {
    this.flushNow();
    await this.settled();
    await this.deps.commands.handle(
      conversationDecider,
      conversationStream(this.job.sessionId),
      {
        type: 'CompleteReply',
        data: { messageId: this.job.replyId, outcome, ...(error !== undefined && { error }) },
        metadata: { now: this.deps.clock(), userId: this.job.userId, correlationId: this.job.replyId },
      },
      { commandId: `${this.job.replyId}:complete` },
    );
  }

  /** Appends any text still waiting and waits until it is in the log: what a command that must come after it needs. */
  async flush(): Promise<void> {
    this.flushNow();
    await this.settled();
  }

  /** Waits until everything written so far is in the log. */
  async settled(): Promise<void> {
    await this.chain;
    this.raise();
  }

  private flushNow(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pendingText) return;
    const text = this.pendingText;
    this.pendingText = '';
    this.lastFlush = performance.now();
    const seq = this.seq++;
    this.append(`seq-${seq}`, { type: 'MessageChunksAppended', data: { ...this.ids(), contentType: this.pendingType, seq, text } });
  }

  /** Sends the waiting text once the interval since the last text event has passed and no append is under way. */
  private schedule(): void {
    if (!this.pendingText || this.timer || this.appending > 0) return;
    // Even after a quiet spell it waits for the timer's turn: text the model sent in one read all
    // arrives before then and goes out as one event.
    const wait = this.lastFlush + FLUSH_INTERVAL_MS - performance.now();
    this.timer = setTimeout(() => this.flushNow(), Math.max(0, wait));
  }

  private ids() {
    return { sessionId: this.job.sessionId, messageId: this.job.replyId, agent: this.job.agent };
  }

  /**
   * Through the conversation's rules like every command; the command id `(replyId, key)` makes the
   * event's id deterministic, so a job that runs again appends nothing twice.
   */
  private append(key: string, item: ReplyItem): void {
    const command: RecordReplyItem = { type: 'RecordReplyItem', data: { item }, metadata: { now: this.deps.clock(), userId: this.job.userId, correlationId: this.job.replyId } };
    this.appending += 1;
    this.chain = this.chain.then(async () => {
      try {
        if (!this.failure) await this.deps.commands.handle(conversationDecider, conversationStream(this.job.sessionId), command, { commandId: `${this.job.replyId}:${key}` });
      } catch (error) {
        this.failure = error;
      } finally {
        this.appending -= 1;
        this.schedule();
      }
    });
  }

  private raise(): void {
    if (this.failure) throw this.failure;
  }
}

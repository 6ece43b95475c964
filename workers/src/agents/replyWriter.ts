import { deterministicId } from '@scriptorium/infra/eventsourcing/ids';
import type { NewEvent } from '@scriptorium/infra/eventstore/port';
import { conversationStream, type ConversationEvent, type ReplyOutcome } from '@scriptorium/backend/domain/conversation/conversation';
import { conversationDecider } from '@scriptorium/backend/domain/conversation/decide';
import type { AgentJobData } from '@scriptorium/backend/domain/conversation/jobs';
import type { Usage } from '../model/port.ts';
import type { AgentDeps } from './deps.ts';

/** Text is appended at least this often while streaming… */
export const FLUSH_INTERVAL_MS = 50;
/** …or as soon as this many characters are waiting. */
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
  private pendingType = '';
  private timer: NodeJS.Timeout | undefined;
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
  text(contentType: string, text: string): void {
    this.raise();
    if (!text) return;
    if (this.pendingText && this.pendingType !== contentType) this.flushNow();
    this.pendingType = contentType;
    this.pendingText += text;
    if (this.pendingText.length >= FLUSH_CHARS) this.flushNow();
    else this.timer ??= setTimeout(() => this.flushNow(), FLUSH_INTERVAL_MS);
  }

  /** A structured item; any text waiting goes first so the order is what the agent produced. */
  async output(contentType: string, payload: Record<string, unknown>): Promise<void> {
    this.flushNow();
    const seq = this.seq++;
    this.append(`seq-${seq}`, { type: 'AgentOutputRecorded', data: { ...this.ids(), contentType, seq, payload } });
    await this.settled();
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
    const seq = this.seq++;
    this.append(`seq-${seq}`, { type: 'MessageChunksAppended', data: { ...this.ids(), contentType: this.pendingType, seq, text } });
  }

  private ids() {
    return { sessionId: this.job.sessionId, messageId: this.job.replyId, agent: this.job.agent };
  }

  private append(key: string, event: ConversationEvent): void {
    const newEvent: NewEvent = {
      id: deterministicId(this.job.replyId, key),
      type: event.type,
      data: event.data,
      metadata: { at: this.deps.clock().toISOString(), userId: this.job.userId, correlationId: this.job.replyId, causationId: this.job.replyId },
    };
    this.chain = this.chain.then(async () => {
      if (this.failure) return;
      try {
        await this.deps.events.appendToStream(conversationStream(this.job.sessionId), [newEvent], { expectedRevision: 'any' });
      } catch (error) {
        this.failure = error;
      }
    });
  }

  private raise(): void {
    if (this.failure) throw this.failure;
  }
}

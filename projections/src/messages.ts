import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc, ReadStoreTx } from '@scriptorium/infra/readstore/port';
import type { ConversationEvent, ReplyOutcome } from '@scriptorium/domain/conversation/conversation';
import { toWire } from '@scriptorium/domain/conversation/wire';
import { isChunk, type WireContent } from '@scriptorium/domain/protocol/content';
import { DocumentBatch, type Projection } from './projection.ts';

/**
 * A message of a session with everything that was streamed into it, in order. Consecutive chunks
 * of one content type are joined into one item, so the history shows exactly the text the socket
 * delivered, without thousands of fragments.
 */
export interface MessageDoc extends Doc {
  session_id: string;
  role: 'user' | 'assistant';
  agent: string;
  reply_to: string | null;
  status: 'streaming' | ReplyOutcome;
  created_at: string;
  updated_at: string;
  /** Position of the event that opened the message: orders messages within a session. */
  order: number;
  last_position: number;
  contents: WireContent[];
}

export const MESSAGES = 'messages';

/**
 * Where each session's messages stand: the position of the newest event that changed any of them.
 * A page of the history is the same document for as long as this and the session's own position
 * are, so the api keys its cache of compressed pages by the two (backend/src/http/historyCache.ts).
 */
export interface MessageHeadDoc extends Doc {
  last_position: number;
}

export const MESSAGE_HEADS = 'message_heads';

export const messagesProjection: Projection = {
  name: 'messages',
  collections: [MESSAGES, MESSAGE_HEADS],
  handles: [
    'UserMessagePosted',
    'AgentReplyStarted',
    'MessageChunksAppended',
    'AgentOutputRecorded',
    'AgentReplyCompleted',
    'ClarificationAsked',
    'ClarificationAnswered',
    'PlanProposed',
    'PlanStepMarked',
    'PlanReviewOpened',
    'PlanEdited',
    'PlanStarted',
    'SearchResultsRecorded',
    'WritingStarted',
    'WritingVersionSaved',
    'WritingVersionDiscarded',
    'FeedbackRequested',
    'FeedbackGiven',
    'TargetedEditApplied',
    'CanvasEdited',
  ] satisfies ConversationEvent['type'][],
  async setup(store) {
    await store.collection(MESSAGES).ensureIndex({ fields: { session_id: 1, order: 1 } });
  },
  apply(recorded: RecordedEvent, tx) {
    return applyMessages([recorded], tx);
  },
  applyBatch: applyMessages,
};

/**
 * Applies a batch with each touched message read once and written once: a reply streams hundreds
 * of chunks, and rewriting its document per chunk would make a rebuild quadratic in reply length.
 */
async function applyMessages(batch: RecordedEvent[], tx: ReadStoreTx): Promise<void> {
  const messages = new HeadedMessages(tx);
  for (const recorded of batch) {
    const event = recorded as unknown as ConversationEvent;
    const at = recorded.metadata.at;
    // Most of a log is chunks that continue their message's last item: they join it in place,
    // without building the wire item they would be on their own.
    if (event.type === 'MessageChunksAppended') {
      const message = messages.peek(event.data.messageId) ?? (await messages.get(event.data.messageId));
      if (!message || recorded.position <= message.last_position) continue;
      const last = message.contents[message.contents.length - 1];
      if (last && isChunk(last) && last.content_type === event.data.contentType) {
        last.content += event.data.text;
        last.updated_at = at;
        message.updated_at = at;
        message.last_position = recorded.position;
        messages.set(message);
        continue;
      }
    }
    const wire = toWire(recorded);
    if (!wire || wire.type !== 'message') continue;
    if (event.type === 'UserMessagePosted' || event.type === 'AgentReplyStarted') {
      const isUser = event.type === 'UserMessagePosted';
      messages.set({
        _id: event.data.messageId,
        session_id: event.data.sessionId,
        role: isUser ? 'user' : 'assistant',
        agent: event.data.agent,
        reply_to: isUser ? null : event.data.replyTo,
        status: isUser ? 'completed' : 'streaming',
        created_at: at,
        updated_at: at,
        order: recorded.position,
        last_position: recorded.position,
        contents: isUser ? [wire.content] : [],
      });
      continue;
    }
    if (event.type === 'TokensConsumed') continue;
    // Targeted edits and hand-saved versions name their message on the wire only; the history keeps them too.
    // A hand save's wire id (canvas-<version>) repeats across sessions; its document is the session's own.
    const messageId = 'messageId' in event.data ? event.data.messageId : event.type === 'CanvasEdited' ? `${event.data.sessionId}:${wire.content.message_id}` : wire.content.message_id;
    const message = messages.peek(messageId) ?? (await messages.get(messageId));
    if ((event.type === 'CanvasEdited' || event.type === 'TargetedEditApplied') && !message) {
      messages.set({ _id: messageId, session_id: event.data.sessionId, role: 'assistant', agent: wire.content.agent, reply_to: null, status: 'completed', created_at: at, updated_at: at, order: recorded.position, last_position: recorded.position, contents: [wire.content] });
      continue;
    }
    if (!message || recorded.position <= message.last_position) continue;
    message.contents.push(wire.content);
    if (event.type === 'AgentReplyCompleted') message.status = event.data.outcome;
    message.updated_at = at;
    message.last_position = recorded.position;
    messages.set(message);
  }
  await messages.flush();
}

/** The batch's messages, and the head of each session whose messages it changed (written once per batch). */
class HeadedMessages extends DocumentBatch<MessageDoc> {
  private readonly heads = new Map<string, number>();

  constructor(private readonly tx: ReadStoreTx) {
    super(tx.collection<MessageDoc>(MESSAGES));
  }

  override set(doc: MessageDoc): void {
    super.set(doc);
    this.heads.set(doc.session_id, Math.max(this.heads.get(doc.session_id) ?? 0, doc.last_position));
  }

  override async flush(): Promise<void> {
    await super.flush();
    const heads = this.tx.collection<MessageHeadDoc>(MESSAGE_HEADS);
    for (const [sessionId, position] of this.heads) await heads.put({ _id: sessionId, last_position: position });
    this.heads.clear();
  }
}

/** The text a reply streamed as its main answer (chat chunks or research content). */
export const replyText = (message: Pick<MessageDoc, 'contents'>): string =>
  message.contents
    .flatMap((item) => (item.content_type === 'chat_chunk' || item.content_type === 'content' || item.content_type === 'user_input' ? [item.content] : []))
    .join('');

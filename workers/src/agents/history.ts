import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { ConversationEvent } from '@scriptorium/domain/conversation/conversation';
import type { ChatMessage } from '@scriptorium/infra/model/port';

const ANSWER_TYPES = new Set(['chat_chunk', 'content']);

export interface ReplyTrace {
  /** Events this reply already wrote: non-zero means an earlier run of the job got that far. */
  written: number;
  completed: boolean;
  text: string;
}

/**
 * The conversation as the model should see it, rebuilt from the log: user messages and the text of
 * every reply, newest last, trimmed from the oldest end to a character budget.
 */
export function conversationHistory(events: RecordedEvent[], options: { upTo: string; maxChars?: number }): ChatMessage[] {
  const maxChars = options.maxChars ?? 16_000;
  const messages: Array<ChatMessage & { id: string }> = [];
  const replies = new Map<string, ChatMessage & { id: string }>();
  for (const recorded of events) {
    const event = { type: recorded.type, data: recorded.data } as ConversationEvent;
    if (event.type === 'UserMessagePosted') {
      messages.push({ id: event.data.messageId, role: 'user', content: event.data.content });
      if (event.data.messageId === options.upTo) break;
    } else if (event.type === 'MessageChunksAppended' && ANSWER_TYPES.has(event.data.contentType)) {
      let reply = replies.get(event.data.messageId);
      if (!reply) {
        reply = { id: event.data.messageId, role: 'assistant', content: '' };
        replies.set(event.data.messageId, reply);
        messages.push(reply);
      }
      reply.content += event.data.text;
    } else if (event.type === 'AgentOutputRecorded' && event.data.contentType === 'artifact_complete') {
      const filename = String(event.data.payload.filename ?? '');
      messages.push({ id: `${event.data.messageId}:artifact`, role: 'assistant', content: `（已生成文件 ${filename}）` });
    }
  }
  const kept: ChatMessage[] = [];
  let total = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    const { role, content } = messages[index]!;
    if (!content.trim()) continue;
    if (total + content.length > maxChars && kept.length > 0) break;
    kept.unshift({ role, content: content.slice(-maxChars) });
    total += content.length;
  }
  return kept;
}

/** Where a new writer of a reply starts so that it reuses none of the ids the reply's earlier jobs used. */
export function writerStart(events: RecordedEvent[], replyId: string): { seq: number; tokens: number } {
  let seq = 0;
  let tokens = 0;
  for (const recorded of events) {
    const event = { type: recorded.type, data: recorded.data } as ConversationEvent;
    if ((event.type === 'MessageChunksAppended' || event.type === 'AgentOutputRecorded') && event.data.messageId === replyId) seq = Math.max(seq, event.data.seq + 1);
    else if (event.type === 'TokensConsumed' && event.data.messageId === replyId) tokens++;
  }
  return { seq, tokens };
}

/** What the log already holds of one reply. */
export function replyTrace(events: RecordedEvent[], replyId: string): ReplyTrace {
  const trace: ReplyTrace = { written: 0, completed: false, text: '' };
  for (const recorded of events) {
    const event = { type: recorded.type, data: recorded.data } as ConversationEvent;
    if (event.type === 'MessageChunksAppended' && event.data.messageId === replyId) {
      trace.written++;
      if (ANSWER_TYPES.has(event.data.contentType)) trace.text += event.data.text;
    } else if (event.type === 'AgentOutputRecorded' && event.data.messageId === replyId) {
      trace.written++;
    } else if (event.type === 'AgentReplyCompleted' && event.data.messageId === replyId) {
      trace.completed = true;
    }
  }
  return trace;
}

import { isChunk } from '@scriptorium/domain/protocol/chunks';
import type { WireContent } from '@scriptorium/domain/protocol/content';
import type { MetadataUpdateMessage, SessionMessage, SubscribedMessage } from '@scriptorium/domain/protocol/ws';
import type { History, HistoryMessage } from '@scriptorium/domain/protocol/http/conversation';

export type MessageStatus = HistoryMessage['status'];

export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  agent: string;
  replyTo: string | null;
  status: MessageStatus;
  createdAt: string;
  contents: WireContent[];
}

export interface Conversation {
  messages: ChatMessage[];
  /** The last log position applied: history and live events at or below it are already shown. */
  position: number;
  busy: boolean;
  /** The cursor of the exchanges before the first message shown (loaded on demand); null when the history is whole. */
  earlier: string | null;
}

/** How many exchanges a history page holds: the newest when a session opens, as many again per "load earlier". */
export const HISTORY_PAGE = 20;

export const emptyConversation = (): Conversation => ({ messages: [], position: 0, busy: false, earlier: null });

const fromHistoryMessage = (message: HistoryMessage): ChatMessage => ({
  id: message.message_id,
  role: message.role,
  agent: message.agent,
  replyTo: message.reply_to,
  status: message.status,
  createdAt: message.created_at,
  contents: message.contents,
});

export function fromHistory(history: History, busy: boolean): Conversation {
  return { position: history.position, busy, earlier: history.earlier ?? null, messages: history.messages.map(fromHistoryMessage) };
}

/**
 * Puts an earlier page before what is shown. A message already shown (one the live stream brought
 * while the page was read) keeps its shown copy, which the stream keeps current.
 */
export function prependEarlier(state: Conversation, page: History): Conversation {
  const shown = new Set(state.messages.map((message) => message.id));
  const earlier = page.messages.filter((message) => !shown.has(message.message_id)).map(fromHistoryMessage);
  return { ...state, earlier: page.earlier ?? null, messages: [...earlier, ...state.messages] };
}

/**
 * A newer read of the newest page in place of the shown one (a shared view read again): the earlier
 * pages the reader loaded stay above it, each message once.
 */
export function withNewestPage(state: Conversation, fresh: Conversation): Conversation {
  const fresher = new Set(fresh.messages.map((message) => message.id));
  const kept = state.messages.filter((message) => !fresher.has(message.id));
  if (kept.length === 0 || fresh.earlier === null) return fresh;
  return { ...fresh, earlier: state.earlier, messages: [...kept, ...fresh.messages] };
}

function appendContent(contents: WireContent[], content: WireContent): WireContent[] {
  const last = contents.at(-1);
  // Consecutive pieces of streamed text join into one item, as the history does.
  if (isChunk(content) && last?.content_type === content.content_type) {
    return [...contents.slice(0, -1), { ...last, content: `${last.content}${content.content}`, updated_at: content.updated_at }];
  }
  return [...contents, content];
}

/**
 * Folds one live message into the conversation. Anything at or below the applied position was
 * already shown (from history or before a reconnect), so it is dropped: a resumed stream can
 * neither lose nor double text.
 */
export function applyMessage(state: Conversation, message: SessionMessage): Conversation {
  if (message.position <= state.position) return state;
  const content = message.content;
  const position = message.position;
  if (content.content_type === 'status') {
    return { ...state, position, busy: content.status === 'processing' };
  }
  const index = state.messages.findIndex((candidate) => candidate.id === content.message_id);
  const messages = state.messages.slice();
  if (index === -1) {
    const isUser = content.content_type === 'user_input';
    messages.push({
      id: content.message_id,
      role: isUser ? 'user' : 'assistant',
      agent: isUser ? content.target_agent : content.agent,
      replyTo: content.content_type === 'message_start' ? content.reply_to : null,
      status: isUser ? 'completed' : 'streaming',
      createdAt: content.timestamp,
      contents: appendContent([], content),
    });
  } else {
    const current = messages[index]!;
    const outcome = content.content_type === 'message_end' ? content.outcome : current.status;
    messages[index] = { ...current, status: outcome, contents: appendContent(current.contents, content) };
  }
  let busy = state.busy;
  if (content.content_type === 'message_start') busy = true;
  if (content.content_type === 'message_end' && !messages.some((candidate) => candidate.role === 'assistant' && candidate.status === 'streaming')) busy = false;
  return { ...state, messages, position, busy };
}

/** After a subscribe the server has sent everything up to its position. */
export const applySubscribed = (state: Conversation, message: SubscribedMessage): Conversation => (message.position > state.position ? { ...state, position: message.position } : state);

export const applyMetadataPosition = (state: Conversation, message: MetadataUpdateMessage): Conversation =>
  message.position > state.position ? { ...state, position: message.position } : state;

/** The user's own text of a message, for titles and quoting. */
export const userText = (message: ChatMessage): string =>
  message.contents
    .flatMap((item) => (item.content_type === 'user_input' ? [item.content] : []))
    .join('');

/**
 * Whether a message sent now redirects the research a pause or a failure cut short (the server
 * continues it on its question, as the message says) rather than asking something new.
 */
export function redirectsResearch(state: Conversation): boolean {
  const last = state.messages.at(-1);
  return !state.busy && last?.role === 'assistant' && last.agent === 'deep_cognition' && (last.status === 'interrupted' || last.status === 'failed');
}

import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc, ReadStoreTx } from '@scriptorium/infra/readstore/port';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import type { Activity, CollaborationMode, ConversationEvent, LayoutPreset, Lifecycle } from '@scriptorium/domain/conversation/conversation';
import type { ClarificationQuestion } from '@scriptorium/domain/protocol/research';
import { DocumentBatch, type Projection } from './projection.ts';

/** One research session as its owner's history and the session endpoints show it. */
export interface ChatDoc extends Doc {
  user_id: string;
  name: string;
  title: string | null;
  /** The first question asked: what the cloud history lists under the title. */
  prompt: string | null;
  created_at: string;
  updated_at: string;
  collaboration_mode: CollaborationMode;
  search_enabled: boolean;
  layout_preset: LayoutPreset;
  lifecycle: Lifecycle;
  activity: Activity;
  active_reply: { message_id: string; agent: string; job_id: string } | null;
  message_count: number;
  last_position: number;
  pending_questions: ClarificationQuestion[];
  /** The canvas's newest version, 0 when the session has none. */
  canvas_version: number;
}

export const CHATS = 'chats';

export const chatsProjection: Projection = {
  name: 'chats',
  collections: [CHATS],
  handles: [
    'SessionCreated',
    'SessionRenamed',
    'SessionTitleChanged',
    'CollaborationModeSet',
    'SearchToggled',
    'SessionLifecycleChanged',
    'UserMessagePosted',
    'AgentReplyStarted',
    'AgentReplyCompleted',
    'ClarificationAsked',
    'ClarificationAnswered',
    'StageStarted',
    'ReplyDeferred',
    'PlanReviewOpened',
    'PlanStarted',
    'FeedbackRequested',
    'FeedbackGiven',
    'WritingVersionSaved',
    'TargetedEditApplied',
    'CanvasEdited',
  ] satisfies ConversationEvent['type'][],
  async setup(store) {
    await store.collection(CHATS).ensureIndex({ fields: { user_id: 1, created_at: -1 } });
  },
  apply(recorded: RecordedEvent, tx) {
    return applyChats([recorded], tx);
  },
  applyBatch: applyChats,
};

/**
 * Applies a batch with each touched session read once and written once: a reply's events all touch
 * its session, and reading, re-parsing and rewriting the document per event made `chats` one of the
 * slowest parts of a rebuild.
 */
async function applyChats(batch: RecordedEvent[], tx: ReadStoreTx): Promise<void> {
  const chats = new DocumentBatch<ChatDoc>(tx.collection<ChatDoc>(CHATS));
  for (const recorded of batch) {
    const event = recorded as unknown as ConversationEvent;
    if (event.type === 'TokensConsumed') continue;
    const id = event.data.sessionId;
    const chat = event.type === 'SessionCreated' ? (chats.peek(id) ?? null) : (chats.peek(id) ?? (await chats.get(id)));
    // A batch replayed after a crash (standalone Mongo) resumes where the session is, so no message is counted twice.
    if (event.type !== 'SessionCreated' && (!chat || recorded.position <= chat.last_position)) continue;
    const next = evolveChat(chat, event, recorded);
    if (next !== chat && next !== null) chats.set(next);
  }
  await chats.flush();
}

/** The session after one event; the same document when the event does not concern it. */
function evolveChat(chat: ChatDoc | null, event: Exclude<ConversationEvent, { type: 'TokensConsumed' }>, recorded: RecordedEvent): ChatDoc | null {
  if (event.type === 'SessionCreated') {
    const { sessionId, ownerId, name, collaborationMode, searchEnabled, layoutPreset, createdAt } = event.data;
    return {
      _id: sessionId,
      user_id: ownerId,
      name,
      title: null,
      prompt: null,
      created_at: createdAt,
      updated_at: createdAt,
      collaboration_mode: collaborationMode,
      search_enabled: searchEnabled,
      layout_preset: layoutPreset,
      lifecycle: 'active',
      activity: 'idle',
      active_reply: null,
      message_count: 0,
      last_position: recorded.position,
      pending_questions: [],
      canvas_version: 0,
    };
  }
  if (!chat) return chat;
  const touched = (changes: Partial<ChatDoc>): ChatDoc => ({ ...chat, ...changes, updated_at: recorded.metadata.at, last_position: recorded.position });
  switch (event.type) {
    case 'SessionRenamed':
      return touched({ name: event.data.name });
    case 'SessionTitleChanged':
      return touched({ title: event.data.title });
    case 'CollaborationModeSet':
      return touched({ collaboration_mode: event.data.mode });
    case 'SearchToggled':
      return touched({ search_enabled: event.data.enabled });
    case 'SessionLifecycleChanged':
      return touched({ lifecycle: event.data.lifecycle });
    case 'UserMessagePosted':
      return touched({ ...(chat.prompt === null && { prompt: event.data.content.slice(0, 500) }), message_count: chat.message_count + 1 });
    case 'AgentReplyStarted':
      return touched({ activity: 'processing', active_reply: { message_id: event.data.messageId, agent: event.data.agent, job_id: event.data.jobId } });
    case 'AgentReplyCompleted':
      return touched({ activity: event.data.outcome === 'interrupted' ? 'paused' : 'idle', active_reply: null, pending_questions: [], message_count: chat.message_count + 1 });
    case 'ClarificationAsked':
      return touched({ activity: 'waiting', pending_questions: event.data.questions });
    case 'ClarificationAnswered':
      return touched({ pending_questions: [] });
    case 'FeedbackRequested':
      return touched({ activity: 'waiting' });
    case 'StageStarted':
      return touched({ activity: 'processing', ...(chat.active_reply && { active_reply: { ...chat.active_reply, job_id: event.data.jobId } }) });
    case 'PlanReviewOpened':
      return touched({ activity: 'waiting', ...(chat.active_reply && { active_reply: { ...chat.active_reply, job_id: event.data.jobId } }) });
    case 'PlanStarted':
      return touched({ activity: 'processing', ...(chat.active_reply && { active_reply: { ...chat.active_reply, job_id: event.data.jobId } }) });
    case 'ReplyDeferred':
      return chat.active_reply ? touched({ active_reply: { ...chat.active_reply, job_id: event.data.jobId } }) : chat;
    case 'WritingVersionSaved':
    case 'TargetedEditApplied':
    case 'CanvasEdited':
      return touched({ canvas_version: event.data.version });
    case 'FeedbackGiven':
    case 'ReportRated':
    case 'MessageChunksAppended':
    case 'AgentOutputRecorded':
    case 'AgentStatusChanged':
    case 'PlanProposed':
    case 'PlanStepMarked':
    case 'PlanEdited':
    case 'PlanRevised':
    case 'SearchResultsRecorded':
    case 'PageRead':
    case 'SectionWritten':
    case 'CitationsChecked':
    case 'WritingStarted':
    case 'WritingVersionDiscarded':
    case 'TargetedEditRequested':
      return chat;
    default:
      return assertNever(event);
  }
}

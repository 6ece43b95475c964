import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import type { Activity, CollaborationMode, ConversationEvent, LayoutPreset, Lifecycle } from '@scriptorium/domain/conversation/conversation';
import type { ClarificationQuestion } from '@scriptorium/domain/protocol/research';
import type { Projection } from './projection.ts';

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
    'FeedbackRequested',
    'FeedbackGiven',
    'WritingVersionSaved',
    'TargetedEditApplied',
    'CanvasEdited',
  ] satisfies ConversationEvent['type'][],
  async setup(store) {
    await store.collection(CHATS).ensureIndex({ fields: { user_id: 1, created_at: -1 } });
  },
  async apply(recorded: RecordedEvent, tx) {
    const chats = tx.collection<ChatDoc>(CHATS);
    const event = { type: recorded.type, data: recorded.data } as ConversationEvent;
    const touch = { updated_at: recorded.metadata.at, last_position: recorded.position };
    const chat = event.type === 'SessionCreated' || event.type === 'TokensConsumed' ? null : await chats.get(event.data.sessionId);
    // A batch replayed after a crash (standalone Mongo) resumes where the session is, so no message is counted twice.
    if (chat && recorded.position <= chat.last_position) return;
    switch (event.type) {
      case 'SessionCreated': {
        const { sessionId, ownerId, name, collaborationMode, searchEnabled, layoutPreset, createdAt } = event.data;
        await chats.put({
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
        });
        return;
      }
      case 'SessionRenamed':
        await chats.update(event.data.sessionId, { $set: { name: event.data.name, ...touch } });
        return;
      case 'SessionTitleChanged':
        await chats.update(event.data.sessionId, { $set: { title: event.data.title, ...touch } });
        return;
      case 'CollaborationModeSet':
        await chats.update(event.data.sessionId, { $set: { collaboration_mode: event.data.mode, ...touch } });
        return;
      case 'SearchToggled':
        await chats.update(event.data.sessionId, { $set: { search_enabled: event.data.enabled, ...touch } });
        return;
      case 'SessionLifecycleChanged':
        await chats.update(event.data.sessionId, { $set: { lifecycle: event.data.lifecycle, ...touch } });
        return;
      case 'UserMessagePosted': {
        await chats.update(event.data.sessionId, {
          $set: { ...touch, ...(chat?.prompt === null && { prompt: event.data.content.slice(0, 500) }) },
          $inc: { message_count: 1 },
        });
        return;
      }
      case 'AgentReplyStarted':
        await chats.update(event.data.sessionId, {
          $set: { ...touch, activity: 'processing', active_reply: { message_id: event.data.messageId, agent: event.data.agent, job_id: event.data.jobId } },
        });
        return;
      case 'AgentReplyCompleted':
        await chats.update(event.data.sessionId, {
          $set: { ...touch, activity: event.data.outcome === 'interrupted' ? 'paused' : 'idle', active_reply: null, pending_questions: [] },
          $inc: { message_count: 1 },
        });
        return;
      case 'ClarificationAsked':
        await chats.update(event.data.sessionId, { $set: { ...touch, activity: 'waiting', pending_questions: event.data.questions } });
        return;
      case 'ClarificationAnswered':
        await chats.update(event.data.sessionId, { $set: { ...touch, pending_questions: [] } });
        return;
      case 'FeedbackRequested':
        await chats.update(event.data.sessionId, { $set: { ...touch, activity: 'waiting' } });
        return;
      case 'StageStarted': {
        await chats.update(event.data.sessionId, {
          $set: { ...touch, activity: 'processing', ...(chat?.active_reply && { active_reply: { ...chat.active_reply, job_id: event.data.jobId } }) },
        });
        return;
      }
      case 'WritingVersionSaved':
      case 'TargetedEditApplied':
      case 'CanvasEdited':
        await chats.update(event.data.sessionId, { $set: { ...touch, canvas_version: event.data.version } });
        return;
      case 'FeedbackGiven':
      case 'ReportRated':
      case 'MessageChunksAppended':
      case 'AgentOutputRecorded':
      case 'AgentStatusChanged':
      case 'TokensConsumed':
      case 'PlanProposed':
      case 'PlanStepMarked':
      case 'SearchResultsRecorded':
      case 'WritingStarted':
      case 'WritingVersionDiscarded':
      case 'TargetedEditRequested':
        return;
      default:
        assertNever(event);
    }
  },
};

import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';

/** Agents a session can address (spec §3). `none` only subscribes. */
export const AGENTS = ['poe_llm', 'deep_cognition', 'targeted_edit', 'direct_writing_agent'] as const;
export type AgentName = (typeof AGENTS)[number];

/** 0: the general chat agent; 1 (default): the deep-cognition research agent. */
export type CollaborationMode = 0 | 1;
export const agentForMode = (mode: CollaborationMode): AgentName => (mode === 0 ? 'poe_llm' : 'deep_cognition');

export type LayoutPreset = 'home-welcome' | 'chat-interface-only';
export type Activity = 'idle' | 'processing' | 'paused';
export type ReplyOutcome = 'completed' | 'interrupted' | 'failed';
export type Lifecycle = 'active' | 'archived';

export type SessionCreated = DomainEvent<
  'SessionCreated',
  { sessionId: string; ownerId: string; clientId: string; name: string; collaborationMode: CollaborationMode; searchEnabled: boolean; layoutPreset: LayoutPreset; createdAt: string }
>;
export type SessionRenamed = DomainEvent<'SessionRenamed', { sessionId: string; name: string; at: string }>;
export type SessionTitleChanged = DomainEvent<'SessionTitleChanged', { sessionId: string; title: string; source: 'user' | 'generated'; at: string }>;
export type CollaborationModeSet = DomainEvent<'CollaborationModeSet', { sessionId: string; mode: CollaborationMode; at: string }>;
export type SearchToggled = DomainEvent<'SearchToggled', { sessionId: string; enabled: boolean; at: string }>;
export type SessionLifecycleChanged = DomainEvent<'SessionLifecycleChanged', { sessionId: string; lifecycle: Lifecycle; at: string }>;
export type UserMessagePosted = DomainEvent<
  'UserMessagePosted',
  { sessionId: string; messageId: string; content: string; agent: AgentName; clientId?: string; at: string }
>;
export type AgentReplyStarted = DomainEvent<
  'AgentReplyStarted',
  { sessionId: string; messageId: string; agent: AgentName; replyTo: string; jobId: string; at: string; continues?: string }
>;
/** A batch of streamed text: appended by the worker with a deterministic id per batch. */
export type MessageChunksAppended = DomainEvent<
  'MessageChunksAppended',
  { sessionId: string; messageId: string; agent: AgentName; contentType: string; seq: number; text: string }
>;
/** A structured item an agent emitted (artifact, info, plan…), shown as its content_type. */
export type AgentOutputRecorded = DomainEvent<
  'AgentOutputRecorded',
  { sessionId: string; messageId: string; agent: AgentName; contentType: string; seq: number; payload: Record<string, unknown> }
>;
export type AgentReplyCompleted = DomainEvent<
  'AgentReplyCompleted',
  { sessionId: string; messageId: string; agent: AgentName; outcome: ReplyOutcome; error?: string; at: string }
>;
export type AgentStatusChanged = DomainEvent<'AgentStatusChanged', { sessionId: string; agent: AgentName; status: 'processing' | 'paused'; at: string }>;
/** Every model call's usage. Calls outside a session (query refinement) go to `usage-<userId>` with no session. */
export type TokensConsumed = DomainEvent<
  'TokensConsumed',
  { userId: string; sessionId: string | null; messageId: string | null; prompt: number; completion: number; model: string; at: string }
>;

export type ConversationEvent =
  | SessionCreated
  | SessionRenamed
  | SessionTitleChanged
  | CollaborationModeSet
  | SearchToggled
  | SessionLifecycleChanged
  | UserMessagePosted
  | AgentReplyStarted
  | MessageChunksAppended
  | AgentOutputRecorded
  | AgentReplyCompleted
  | AgentStatusChanged
  | TokensConsumed;

export interface ActiveReply {
  messageId: string;
  agent: AgentName;
  jobId: string;
  replyTo: string;
}

export interface OpenSession {
  status: 'open';
  sessionId: string;
  ownerId: string;
  name: string;
  title: string | null;
  collaborationMode: CollaborationMode;
  searchEnabled: boolean;
  layoutPreset: LayoutPreset;
  lifecycle: Lifecycle;
  activity: Activity;
  activeReply: ActiveReply | null;
  /** The last reply that a pause or crash cut short: what resume continues. */
  interruptedReply: ActiveReply | null;
  userMessages: number;
  agentReplies: number;
}

export type Conversation = { status: 'none' } | OpenSession;

export const initialState = (): Conversation => ({ status: 'none' });

export function evolve(state: Conversation, event: ConversationEvent): Conversation {
  if (event.type === 'SessionCreated') {
    const { sessionId, ownerId, name, collaborationMode, searchEnabled, layoutPreset } = event.data;
    return {
      status: 'open',
      sessionId,
      ownerId,
      name,
      title: null,
      collaborationMode,
      searchEnabled,
      layoutPreset,
      lifecycle: 'active',
      activity: 'idle',
      activeReply: null,
      interruptedReply: null,
      userMessages: 0,
      agentReplies: 0,
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'SessionRenamed':
      return { ...state, name: event.data.name };
    case 'SessionTitleChanged':
      return { ...state, title: event.data.title };
    case 'CollaborationModeSet':
      return { ...state, collaborationMode: event.data.mode };
    case 'SearchToggled':
      return { ...state, searchEnabled: event.data.enabled };
    case 'SessionLifecycleChanged':
      return { ...state, lifecycle: event.data.lifecycle };
    case 'UserMessagePosted':
      return { ...state, userMessages: state.userMessages + 1 };
    case 'AgentReplyStarted':
      return {
        ...state,
        activity: 'processing',
        activeReply: { messageId: event.data.messageId, agent: event.data.agent, jobId: event.data.jobId, replyTo: event.data.replyTo },
        interruptedReply: null,
      };
    case 'AgentReplyCompleted': {
      const ended = state.activeReply?.messageId === event.data.messageId ? state.activeReply : null;
      return {
        ...state,
        activity: event.data.outcome === 'interrupted' ? 'paused' : 'idle',
        activeReply: ended ? null : state.activeReply,
        interruptedReply: event.data.outcome === 'interrupted' ? ended : null,
        agentReplies: state.agentReplies + 1,
      };
    }
    case 'MessageChunksAppended':
    case 'AgentOutputRecorded':
    case 'AgentStatusChanged':
    case 'TokensConsumed':
      return state;
    default:
      return assertNever(event);
  }
}

export const conversationStream = (sessionId: string): string => `conversation-${sessionId}`;
export const CONVERSATION_PREFIX = 'conversation-';

import { assertNever, DomainError, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import {
  evolve,
  initialState,
  agentForMode,
  type AgentName,
  type CollaborationMode,
  type Conversation,
  type ConversationEvent,
  type LayoutPreset,
  type Lifecycle,
  type OpenSession,
  type ReplyOutcome,
} from './conversation.ts';

export const DEFAULT_SESSION_NAME = '未命名会话';
export const MAX_MESSAGE_LENGTH = 20_000;

type Owned<Data> = Data & { actorId: string };

export type CreateSession = Command<
  'CreateSession',
  { sessionId: string; ownerId: string; clientId: string; name?: string; collaborationMode?: CollaborationMode; searchEnabled?: boolean; layoutPreset?: LayoutPreset }
>;
export type RenameSession = Command<'RenameSession', Owned<{ name: string }>>;
export type SetTitle = Command<'SetTitle', Owned<{ title: string; source: 'user' | 'generated' }>>;
export type SetCollaborationMode = Command<'SetCollaborationMode', Owned<{ mode: CollaborationMode }>>;
export type SetSearchEnabled = Command<'SetSearchEnabled', Owned<{ enabled: boolean }>>;
export type SetLifecycle = Command<'SetLifecycle', Owned<{ lifecycle: Lifecycle }>>;
/** Posts the user's message and starts the agent's reply in one append, so no message is left unanswered by a crash in between. */
export type PostUserMessage = Command<
  'PostUserMessage',
  Owned<{ messageId: string; replyId: string; content: string; agent?: AgentName; clientId?: string }>
>;
export type CompleteReply = Command<'CompleteReply', { messageId: string; outcome: ReplyOutcome; error?: string }>;
export type ResumeReply = Command<'ResumeReply', Owned<{ replyId: string }>>;

export type ConversationCommand =
  | CreateSession
  | RenameSession
  | SetTitle
  | SetCollaborationMode
  | SetSearchEnabled
  | SetLifecycle
  | PostUserMessage
  | CompleteReply
  | ResumeReply;

/** Another user's session answers exactly like a missing one. */
function owned(state: Conversation, actorId: string): OpenSession {
  if (state.status === 'none' || state.ownerId !== actorId) throw new DomainError('not_found', '会话不存在');
  return state;
}

const at = (command: Command) => command.metadata.now.toISOString();

export const createSession = (command: CreateSession, state: Conversation): ConversationEvent[] => {
  if (state.status !== 'none') {
    if (state.ownerId === command.data.ownerId) return [];
    throw new DomainError('conflict', '会话已存在');
  }
  const { sessionId, ownerId, clientId, name, collaborationMode = 1, searchEnabled = true, layoutPreset = 'home-welcome' } = command.data;
  return [
    {
      type: 'SessionCreated',
      data: { sessionId, ownerId, clientId, name: name?.trim() || DEFAULT_SESSION_NAME, collaborationMode, searchEnabled, layoutPreset, createdAt: at(command) },
    },
  ];
};

export const renameSession = (command: RenameSession, state: Conversation): ConversationEvent[] => {
  const session = owned(state, command.data.actorId);
  const name = command.data.name.trim();
  if (!name) throw new DomainError('invalid', '会话名称不能为空', 'name');
  if (name === session.name) return [];
  return [{ type: 'SessionRenamed', data: { sessionId: session.sessionId, name, at: at(command) } }];
};

export const setTitle = (command: SetTitle, state: Conversation): ConversationEvent[] => {
  const session = owned(state, command.data.actorId);
  const title = command.data.title.trim();
  if (!title) throw new DomainError('invalid', '标题不能为空', 'title');
  if (title === session.title) return [];
  return [{ type: 'SessionTitleChanged', data: { sessionId: session.sessionId, title, source: command.data.source, at: at(command) } }];
};

export const setCollaborationMode = (command: SetCollaborationMode, state: Conversation): ConversationEvent[] => {
  const session = owned(state, command.data.actorId);
  if (session.collaborationMode === command.data.mode) return [];
  return [{ type: 'CollaborationModeSet', data: { sessionId: session.sessionId, mode: command.data.mode, at: at(command) } }];
};

export const setSearchEnabled = (command: SetSearchEnabled, state: Conversation): ConversationEvent[] => {
  const session = owned(state, command.data.actorId);
  if (session.searchEnabled === command.data.enabled) return [];
  return [{ type: 'SearchToggled', data: { sessionId: session.sessionId, enabled: command.data.enabled, at: at(command) } }];
};

export const setLifecycle = (command: SetLifecycle, state: Conversation): ConversationEvent[] => {
  const session = owned(state, command.data.actorId);
  if (session.lifecycle === command.data.lifecycle) return [];
  return [{ type: 'SessionLifecycleChanged', data: { sessionId: session.sessionId, lifecycle: command.data.lifecycle, at: at(command) } }];
};

export const postUserMessage = (command: PostUserMessage, state: Conversation): ConversationEvent[] => {
  const session = owned(state, command.data.actorId);
  const content = command.data.content.trim();
  if (!content) throw new DomainError('invalid', '消息不能为空', 'message');
  if (content.length > MAX_MESSAGE_LENGTH) throw new DomainError('invalid', `消息最长 ${MAX_MESSAGE_LENGTH} 个字符`, 'message');
  if (session.activity === 'processing') throw new DomainError('conflict', '正在处理上一条消息，请稍候或先暂停');
  const agent = command.data.agent ?? agentForMode(session.collaborationMode);
  const { sessionId } = session;
  const { messageId, replyId, clientId } = command.data;
  const now = at(command);
  return [
    { type: 'UserMessagePosted', data: { sessionId, messageId, content, agent, ...(clientId !== undefined && { clientId }), at: now } },
    { type: 'AgentReplyStarted', data: { sessionId, messageId: replyId, agent, replyTo: messageId, jobId: replyId, at: now } },
    { type: 'AgentStatusChanged', data: { sessionId, agent, status: 'processing', at: now } },
  ];
};

/** Ends the active reply; ending one that is already over records nothing (worker and api may both try). */
export const completeReply = (command: CompleteReply, state: Conversation): ConversationEvent[] => {
  if (state.status === 'none') throw new DomainError('not_found', '会话不存在');
  const reply = state.activeReply;
  if (!reply || reply.messageId !== command.data.messageId) return [];
  const { sessionId } = state;
  const now = at(command);
  return [
    {
      type: 'AgentReplyCompleted',
      data: { sessionId, messageId: reply.messageId, agent: reply.agent, outcome: command.data.outcome, ...(command.data.error !== undefined && { error: command.data.error }), at: now },
    },
    { type: 'AgentStatusChanged', data: { sessionId, agent: reply.agent, status: 'paused', at: now } },
  ];
};

export const resumeReply = (command: ResumeReply, state: Conversation): ConversationEvent[] => {
  const session = owned(state, command.data.actorId);
  const interrupted = session.interruptedReply;
  if (session.activity !== 'paused' || !interrupted) throw new DomainError('conflict', '没有可以继续的回复');
  const { sessionId } = session;
  const now = at(command);
  return [
    { type: 'AgentReplyStarted', data: { sessionId, messageId: command.data.replyId, agent: interrupted.agent, replyTo: interrupted.replyTo, jobId: command.data.replyId, at: now, continues: interrupted.messageId } },
    { type: 'AgentStatusChanged', data: { sessionId, agent: interrupted.agent, status: 'processing', at: now } },
  ];
};

export function decide(command: ConversationCommand, state: Conversation): ConversationEvent[] {
  switch (command.type) {
    case 'CreateSession':
      return createSession(command, state);
    case 'RenameSession':
      return renameSession(command, state);
    case 'SetTitle':
      return setTitle(command, state);
    case 'SetCollaborationMode':
      return setCollaborationMode(command, state);
    case 'SetSearchEnabled':
      return setSearchEnabled(command, state);
    case 'SetLifecycle':
      return setLifecycle(command, state);
    case 'PostUserMessage':
      return postUserMessage(command, state);
    case 'CompleteReply':
      return completeReply(command, state);
    case 'ResumeReply':
      return resumeReply(command, state);
    default:
      return assertNever(command);
  }
}

export const conversationDecider: Decider<Conversation, ConversationCommand, ConversationEvent> = { initialState, evolve, decide };

import type { AgentReplyCompleted, AgentReplyStarted, ReplyOutcome, SessionCreated, UserMessagePosted, WritingVersionSaved } from '@scriptorium/domain/conversation/conversation';
import type { TrajectoryUploaded } from '@scriptorium/domain/trajectories/trajectory';
import type { UserRegistered } from '@scriptorium/domain/user/user';
import type { GivenEvent } from './testing.ts';

/** Fixtures that more than one projection's spec reads. */

export const T1 = '2026-03-01T08:00:00.000Z';
export const T2 = '2026-03-02T09:30:00.000Z';
export const T3 = '2026-03-03T18:45:00.000Z';

export const registered = (userId: string, overrides: Partial<UserRegistered['data']> = {}): GivenEvent<UserRegistered> => {
  const data = { userId, username: `Reader_${userId}`, email: `${userId}@example.org`, nickname: `读者${userId}`, passwordHash: 'argon2id$hash', isAdmin: false, registeredAt: T1, ...overrides };
  return { type: 'UserRegistered', data, streamId: `user-${userId}`, metadata: { at: data.registeredAt } };
};

export const SESSION = 's1';
export const OWNER = 'u1';

export const sessionCreated = (sessionId = SESSION, createdAt = T1): GivenEvent<SessionCreated> => ({
  type: 'SessionCreated',
  data: { sessionId, ownerId: OWNER, clientId: 'client-1', name: '新的研究', collaborationMode: 1, searchEnabled: true, layoutPreset: 'home-welcome', createdAt },
  streamId: `session-${sessionId}`,
  metadata: { at: createdAt },
});

export const userMessage = (messageId: string, content: string, at = T1): GivenEvent<UserMessagePosted> => ({
  type: 'UserMessagePosted',
  data: { sessionId: SESSION, messageId, content, agent: 'deep_cognition', at },
  streamId: `session-${SESSION}`,
});

export const replyStarted = (messageId: string, replyTo: string, at = T1): GivenEvent<AgentReplyStarted> => ({
  type: 'AgentReplyStarted',
  data: { sessionId: SESSION, messageId, agent: 'deep_cognition', replyTo, jobId: `job-${messageId}`, at },
  streamId: `session-${SESSION}`,
});

export const replyCompleted = (messageId: string, outcome: ReplyOutcome = 'completed', at = T2): GivenEvent<AgentReplyCompleted> => ({
  type: 'AgentReplyCompleted',
  data: { sessionId: SESSION, messageId, agent: 'deep_cognition', outcome, at },
  streamId: `session-${SESSION}`,
});

export const versionSaved = (version: number, content: string, at = T2): GivenEvent<WritingVersionSaved> => ({
  type: 'WritingVersionSaved',
  data: { sessionId: SESSION, messageId: 'm2', agent: 'deep_cognition', artifactId: 'artifact-1', version, title: `报告 v${version}`, content, interrupted: false, at },
  streamId: `session-${SESSION}`,
});

export const uploaded = (fileId: string, overrides: Partial<TrajectoryUploaded['data']> = {}): TrajectoryUploaded => ({
  type: 'TrajectoryUploaded',
  data: {
    fileId,
    ownerId: OWNER,
    sessionId: `cli-${fileId}`,
    projectName: 'scriptorium',
    filename: `${fileId}.jsonl`,
    title: '修复登录',
    description: '一次 CLI 会话',
    blobKey: `trajectories/${OWNER}/${fileId}.jsonl`,
    size: 2048,
    eventCount: 10,
    preview: [{ event_type: 'user_query', query: '修复登录' }],
    active: false,
    revision: 1,
    at: T1,
    ...overrides,
  },
});

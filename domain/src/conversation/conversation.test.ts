import test from 'ava';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import type { ConversationEvent } from './conversation.ts';
import { conversationDecider, DEFAULT_SESSION_NAME } from './decide.ts';

const spec = deciderSpec(conversationDecider);
const T0 = '2026-03-01T08:00:00.000Z';
const T1 = '2026-03-01T08:01:00.000Z';
const meta = at(T1);

const created: ConversationEvent = {
  type: 'SessionCreated',
  data: { sessionId: 's1', ownerId: 'u1', clientId: 'client-1', name: DEFAULT_SESSION_NAME, collaborationMode: 1, searchEnabled: true, layoutPreset: 'home-welcome', createdAt: T0 },
};
const posted: ConversationEvent[] = [
  { type: 'UserMessagePosted', data: { sessionId: 's1', messageId: 'm1', content: '你好', agent: 'deep_cognition', at: T1 } },
  { type: 'AgentReplyStarted', data: { sessionId: 's1', messageId: 'r1', agent: 'deep_cognition', replyTo: 'm1', jobId: 'r1', at: T1 } },
  { type: 'AgentStatusChanged', data: { sessionId: 's1', agent: 'deep_cognition', status: 'processing', at: T1 } },
];

test('a new session defaults to the research agent with search on', (t) => {
  spec([])
    .when({ type: 'CreateSession', data: { sessionId: 's1', ownerId: 'u1', clientId: 'client-1' }, metadata: at(T0) })
    .then(t, [created]);
});

test('creating a session twice by its owner is a no-op, by someone else a conflict', (t) => {
  spec([created]).when({ type: 'CreateSession', data: { sessionId: 's1', ownerId: 'u1', clientId: 'c' }, metadata: meta }).then(t, []);
  spec([created]).when({ type: 'CreateSession', data: { sessionId: 's1', ownerId: 'u2', clientId: 'c' }, metadata: meta }).thenThrows(t, 'conflict');
});

test('another user sees a missing session', (t) => {
  spec([created]).when({ type: 'RenameSession', data: { actorId: 'u2', name: 'x' }, metadata: meta }).thenThrows(t, 'not_found', '会话不存在');
  spec([]).when({ type: 'RenameSession', data: { actorId: 'u1', name: 'x' }, metadata: meta }).thenThrows(t, 'not_found');
});

test('a blank rename is refused; an unchanged one records nothing', (t) => {
  spec([created]).when({ type: 'RenameSession', data: { actorId: 'u1', name: '   ' }, metadata: meta }).thenThrows(t, 'invalid');
  spec([created]).when({ type: 'RenameSession', data: { actorId: 'u1', name: DEFAULT_SESSION_NAME }, metadata: meta }).then(t, []);
  spec([created])
    .when({ type: 'RenameSession', data: { actorId: 'u1', name: ' 调研 ' }, metadata: meta })
    .then(t, [{ type: 'SessionRenamed', data: { sessionId: 's1', name: '调研', at: T1 } }]);
});

test('mode and search toggles record changes only', (t) => {
  spec([created])
    .when({ type: 'SetCollaborationMode', data: { actorId: 'u1', mode: 0 }, metadata: meta })
    .then(t, [{ type: 'CollaborationModeSet', data: { sessionId: 's1', mode: 0, at: T1 } }]);
  spec([created]).when({ type: 'SetCollaborationMode', data: { actorId: 'u1', mode: 1 }, metadata: meta }).then(t, []);
  spec([created])
    .when({ type: 'SetSearchEnabled', data: { actorId: 'u1', enabled: false }, metadata: meta })
    .then(t, [{ type: 'SearchToggled', data: { sessionId: 's1', enabled: false, at: T1 } }]);
});

test('posting a message starts the reply of the mode’s agent in the same append', (t) => {
  spec([created]).when({ type: 'PostUserMessage', data: { actorId: 'u1', messageId: 'm1', replyId: 'r1', content: ' 你好 ' }, metadata: meta }).then(t, posted);
});

test('a blank message is refused', (t) => {
  spec([created]).when({ type: 'PostUserMessage', data: { actorId: 'u1', messageId: 'm1', replyId: 'r1', content: ' \n\t ' }, metadata: meta }).thenThrows(t, 'invalid', '消息不能为空');
});

test('no second message while a chat reply is running', (t) => {
  const chatting: ConversationEvent[] = [
    { type: 'UserMessagePosted', data: { sessionId: 's1', messageId: 'm1', content: '你好', agent: 'poe_llm', at: T1 } },
    { type: 'AgentReplyStarted', data: { sessionId: 's1', messageId: 'r1', agent: 'poe_llm', replyTo: 'm1', jobId: 'r1', at: T1 } },
  ];
  spec([created, ...chatting])
    .when({ type: 'PostUserMessage', data: { actorId: 'u1', messageId: 'm2', replyId: 'r2', content: 'again', agent: 'poe_llm' }, metadata: meta })
    .thenThrows(t, 'conflict');
});

test('a message sent while a research works steers it: recorded for the running reply, no reply of its own', (t) => {
  spec([created, ...posted])
    .when({ type: 'PostUserMessage', data: { actorId: 'u1', messageId: 'm2', replyId: 'r2', content: '只看低温性能' }, metadata: meta })
    .then(t, [{ type: 'UserMessagePosted', data: { sessionId: 's1', messageId: 'm2', content: '只看低温性能', agent: 'deep_cognition', steers: 'r1', at: T1 } }]);
  spec([created, ...posted])
    .when({ type: 'PostUserMessage', data: { actorId: 'u1', messageId: 'm2', replyId: 'r2', content: '你好', agent: 'poe_llm' }, metadata: meta })
    .thenThrows(t, 'conflict');
});

test('after a pause, a message redirects the same research: it continues the paused reply on its question, with the instruction', (t) => {
  const paused: ConversationEvent[] = [
    { type: 'AgentReplyCompleted', data: { sessionId: 's1', messageId: 'r1', agent: 'deep_cognition', outcome: 'interrupted', at: T1 } },
    { type: 'AgentStatusChanged', data: { sessionId: 's1', agent: 'deep_cognition', status: 'paused', at: T1 } },
  ];
  spec([created, ...posted, ...paused])
    .when({ type: 'PostUserMessage', data: { actorId: 'u1', messageId: 'm2', replyId: 'r2', content: '只看低温性能，其他的不用管。' }, metadata: meta })
    .then(t, [
      { type: 'UserMessagePosted', data: { sessionId: 's1', messageId: 'm2', content: '只看低温性能，其他的不用管。', agent: 'deep_cognition', steers: 'r2', at: T1 } },
      { type: 'AgentReplyStarted', data: { sessionId: 's1', messageId: 'r2', agent: 'deep_cognition', replyTo: 'm1', jobId: 'r2', at: T1, continues: 'r1' } },
      { type: 'AgentStatusChanged', data: { sessionId: 's1', agent: 'deep_cognition', status: 'processing', at: T1 } },
    ]);
});

test('completing a reply clears the busy status; completing it again records nothing', (t) => {
  const completed: ConversationEvent[] = [
    { type: 'AgentReplyCompleted', data: { sessionId: 's1', messageId: 'r1', agent: 'deep_cognition', outcome: 'completed', at: T1 } },
    { type: 'AgentStatusChanged', data: { sessionId: 's1', agent: 'deep_cognition', status: 'paused', at: T1 } },
  ];
  spec([created, ...posted]).when({ type: 'CompleteReply', data: { messageId: 'r1', outcome: 'completed' }, metadata: meta }).then(t, completed);
  spec([created, ...posted, ...completed]).when({ type: 'CompleteReply', data: { messageId: 'r1', outcome: 'interrupted' }, metadata: meta }).then(t, []);
});

test('an interrupted reply can be resumed once, continuing the same question', (t) => {
  const interrupted: ConversationEvent[] = [
    { type: 'AgentReplyCompleted', data: { sessionId: 's1', messageId: 'r1', agent: 'deep_cognition', outcome: 'interrupted', at: T1 } },
    { type: 'AgentStatusChanged', data: { sessionId: 's1', agent: 'deep_cognition', status: 'paused', at: T1 } },
  ];
  const resumed: ConversationEvent[] = [
    { type: 'AgentReplyStarted', data: { sessionId: 's1', messageId: 'r2', agent: 'deep_cognition', replyTo: 'm1', jobId: 'r2', at: T1, continues: 'r1' } },
    { type: 'AgentStatusChanged', data: { sessionId: 's1', agent: 'deep_cognition', status: 'processing', at: T1 } },
  ];
  spec([created, ...posted, ...interrupted]).when({ type: 'ResumeReply', data: { actorId: 'u1', replyId: 'r2' }, metadata: meta }).then(t, resumed);
  spec([created, ...posted, ...interrupted, ...resumed]).when({ type: 'ResumeReply', data: { actorId: 'u1', replyId: 'r3' }, metadata: meta }).thenThrows(t, 'conflict');
  spec([created]).when({ type: 'ResumeReply', data: { actorId: 'u1', replyId: 'r3' }, metadata: meta }).thenThrows(t, 'conflict');
});

test('a failed reply can be retried from where it failed; a completed one cannot be resumed', (t) => {
  const ended = (outcome: 'failed' | 'completed'): ConversationEvent[] => [
    { type: 'AgentReplyCompleted', data: { sessionId: 's1', messageId: 'r1', agent: 'deep_cognition', outcome, error: 'x', at: T1 } },
    { type: 'AgentStatusChanged', data: { sessionId: 's1', agent: 'deep_cognition', status: 'paused', at: T1 } },
  ];
  spec([created, ...posted, ...ended('failed')])
    .when({ type: 'ResumeReply', data: { actorId: 'u1', replyId: 'r2' }, metadata: meta })
    .then(t, [
      { type: 'AgentReplyStarted', data: { sessionId: 's1', messageId: 'r2', agent: 'deep_cognition', replyTo: 'm1', jobId: 'r2', at: T1, continues: 'r1' } },
      { type: 'AgentStatusChanged', data: { sessionId: 's1', agent: 'deep_cognition', status: 'processing', at: T1 } },
    ]);
  spec([created, ...posted, ...ended('completed')]).when({ type: 'ResumeReply', data: { actorId: 'u1', replyId: 'r2' }, metadata: meta }).thenThrows(t, 'conflict');
  spec([created, ...posted, ...ended('failed')]).when({ type: 'ResumeReply', data: { actorId: 'u2', replyId: 'r2' }, metadata: meta }).thenThrows(t, 'not_found');
});

test('a reply the model service asked to wait goes on as a new job, once; the old job has nothing more to do', (t) => {
  const deferred: ConversationEvent = { type: 'ReplyDeferred', data: { sessionId: 's1', messageId: 'r1', jobId: 'r1:wait:1', until: '2026-03-01T08:02:00.000Z', at: T1 } };
  spec([created, ...posted]).when({ type: 'DeferReply', data: { messageId: 'r1', jobId: 'r1:wait:1', until: '2026-03-01T08:02:00.000Z' }, metadata: meta }).then(t, [deferred]);
  spec([created, ...posted, deferred]).when({ type: 'DeferReply', data: { messageId: 'r1', jobId: 'r1:wait:1', until: '2026-03-01T08:02:00.000Z' }, metadata: meta }).then(t, []);
  spec([created, ...posted]).when({ type: 'DeferReply', data: { messageId: 'r9', jobId: 'x', until: T1 }, metadata: meta }).thenThrows(t, 'conflict');
  let state = conversationDecider.initialState();
  for (const event of [created, ...posted, deferred]) state = conversationDecider.evolve(state, event);
  t.like(state, { activity: 'processing', activeReply: { messageId: 'r1', jobId: 'r1:wait:1', notBefore: '2026-03-01T08:02:00.000Z' } });
});

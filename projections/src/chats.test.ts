import test from 'ava';
import type { ConversationEvent } from '@scriptorium/domain/conversation/conversation';
import type { ClarificationQuestion } from '@scriptorium/domain/protocol/research';
import { CHATS, chatsProjection } from './chats.ts';
import { OWNER, replyCompleted, replyStarted, SESSION, sessionCreated, T1, T2, T3, userMessage, versionSaved } from './fixtures.ts';
import { projectionSpec } from './testing.ts';

const spec = projectionSpec<ConversationEvent>(chatsProjection);
const created = spec.given(sessionCreated());
const question: ClarificationQuestion = { id: 'q1', question_content: '关注哪个时期？', question_options: ['古代', '近代'], question_type: 'single', section_id: 'sec-1' };
const asked: ConversationEvent = { type: 'ClarificationAsked', data: { sessionId: SESSION, messageId: 'm2', questions: [question], at: T2 } };

test('a new session is idle, empty and untitled', async (t) => {
  await created.thenDoc(t, CHATS, SESSION, {
    user_id: OWNER,
    name: '新的研究',
    title: null,
    prompt: null,
    created_at: T1,
    updated_at: T1,
    collaboration_mode: 1,
    search_enabled: true,
    layout_preset: 'home-welcome',
    lifecycle: 'active',
    activity: 'idle',
    active_reply: null,
    message_count: 0,
    last_position: 1,
    pending_questions: [],
    canvas_version: 0,
  });
});

test('renaming, a title, the mode, search and archiving each set their field and move the session forward', async (t) => {
  await created
    .when(
      { type: 'SessionRenamed', data: { sessionId: SESSION, name: '宋代书院', at: T2 } },
      { type: 'SessionTitleChanged', data: { sessionId: SESSION, title: '宋代书院制度研究', source: 'generated', at: T2 } },
      { type: 'CollaborationModeSet', data: { sessionId: SESSION, mode: 0, at: T2 } },
      { type: 'SearchToggled', data: { sessionId: SESSION, enabled: false, at: T2 } },
      { type: 'SessionLifecycleChanged', data: { sessionId: SESSION, lifecycle: 'archived', at: T3 } },
    )
    .thenDoc(t, CHATS, SESSION, { name: '宋代书院', title: '宋代书院制度研究', collaboration_mode: 0, search_enabled: false, lifecycle: 'archived', updated_at: T3, last_position: 6 });
});

test('the first question is the prompt the history shows; every message and finished reply is counted', async (t) => {
  const replying = created.when(userMessage('m1', `宋代书院${'研究'.repeat(300)}`), replyStarted('m2', 'm1', T2));
  await replying.thenDoc(t, CHATS, SESSION, {
    prompt: `宋代书院${'研究'.repeat(300)}`.slice(0, 500),
    activity: 'processing',
    active_reply: { message_id: 'm2', agent: 'deep_cognition', job_id: 'job-m2' },
    message_count: 1,
    updated_at: T2,
  });
  await replying
    .when(replyCompleted('m2', 'completed', T3), userMessage('m3', '再详细些', T3))
    .thenDoc(t, CHATS, SESSION, { prompt: `宋代书院${'研究'.repeat(300)}`.slice(0, 500), activity: 'idle', active_reply: null, message_count: 3, last_position: 5 });
});

test('an interrupted reply leaves the session paused', async (t) => {
  await created.when(userMessage('m1', '问题'), replyStarted('m2', 'm1'), replyCompleted('m2', 'interrupted')).thenDoc(t, CHATS, SESSION, { activity: 'paused', active_reply: null });
});

test('a clarification waits for the user with its questions; the answer clears them and a new stage resumes the reply', async (t) => {
  const waiting = created.when(userMessage('m1', '问题'), replyStarted('m2', 'm1'), asked);
  await waiting.thenDoc(t, CHATS, SESSION, { activity: 'waiting', pending_questions: [question] });
  await waiting
    .when(
      { type: 'ClarificationAnswered', data: { sessionId: SESSION, messageId: 'm2', answers: [{ id: 'q1', question: '关注哪个时期？', selectedOptions: ['近代'], textInput: '', question_type: 'single' }], at: T3 } },
      { type: 'StageStarted', data: { sessionId: SESSION, messageId: 'm2', stage: 'research', jobId: 'job-2', at: T3 } },
    )
    .thenDoc(t, CHATS, SESSION, { activity: 'processing', pending_questions: [], active_reply: { message_id: 'm2', agent: 'deep_cognition', job_id: 'job-2' } });
  await waiting.when(replyCompleted('m2')).thenDoc(t, CHATS, SESSION, { activity: 'idle', pending_questions: [] });
});

test('a feedback request waits for the user', async (t) => {
  await created
    .when(userMessage('m1', '问题'), replyStarted('m2', 'm1'), { type: 'FeedbackRequested', data: { sessionId: SESSION, messageId: 'm2', artifactId: 'artifact-1', version: 1, at: T2 } })
    .thenDoc(t, CHATS, SESSION, { activity: 'waiting' });
});

test('the canvas version follows every saved, edited or hand-written version', async (t) => {
  const written = created.when(versionSaved(1, '初稿'));
  await written.thenDoc(t, CHATS, SESSION, { canvas_version: 1 });
  await written
    .when(
      { type: 'TargetedEditApplied', data: { sessionId: SESSION, requestId: 'r1', artifactId: 'artifact-1', fromVersion: 1, version: 2, title: '报告', instruction: '改短', originalSnippet: '初稿', editedSnippet: '稿', fullContent: '稿', at: T3 } },
      { type: 'CanvasEdited', data: { sessionId: SESSION, artifactId: 'artifact-1', fromVersion: 2, version: 3, title: '报告', content: '手改', at: T3 } },
    )
    .thenDoc(t, CHATS, SESSION, { canvas_version: 3, updated_at: T3 });
});

test("the history lists an owner's sessions newest first", async (t) => {
  await spec
    .given(sessionCreated('s1', T2), sessionCreated('s2', T3), sessionCreated('s3', T1))
    .then(t, CHATS, [{ _id: 's2' }, { _id: 's1' }, { _id: 's3' }], { filter: { user_id: OWNER }, sort: { created_at: -1 } });
});

test('replaying a batch counts each message once', async (t) => {
  await created
    .when(userMessage('m1', '问题'), replyStarted('m2', 'm1'), replyCompleted('m2'))
    .replayed()
    .thenDoc(t, CHATS, SESSION, { message_count: 2, last_position: 4 });
});

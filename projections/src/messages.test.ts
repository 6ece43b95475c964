import test from 'ava';
import type { ConversationEvent, MessageChunksAppended } from '@scriptorium/domain/conversation/conversation';
import { WRITING_DONE } from '@scriptorium/domain/conversation/wire';
import type { ChunkedType } from '@scriptorium/domain/protocol/content';
import { replyCompleted, replyStarted, SESSION, sessionCreated, T1, T2, userMessage, versionSaved } from './fixtures.ts';
import { MESSAGE_HEADS, MESSAGES, messagesProjection, replyText } from './messages.ts';
import { GIVEN_AT, projectionSpec } from './testing.ts';

const spec = projectionSpec<ConversationEvent>(messagesProjection);
const chunk = (seq: number, text: string, contentType: ChunkedType = 'content'): MessageChunksAppended => ({
  type: 'MessageChunksAppended',
  data: { sessionId: SESSION, messageId: 'm2', agent: 'deep_cognition', contentType, seq, text },
});
const inSession = { filter: { session_id: SESSION }, sort: { order: 1 } } as const;
const streamed = [userMessage('m1', '宋代书院有哪些？'), replyStarted('m2', 'm1'), chunk(0, '白鹿洞'), chunk(1, '、岳麓'), chunk(2, '想一想', 'think'), chunk(3, '书院'), replyCompleted('m2')];
const streamedDoc = {
  _id: 'm2',
  role: 'assistant',
  status: 'completed',
  reply_to: 'm1',
  order: 3,
  last_position: 8,
  contents: [
    { content_type: 'content', content: '白鹿洞、岳麓', seq: 0, timestamp: GIVEN_AT, updated_at: GIVEN_AT },
    { content_type: 'think', content: '想一想' },
    { content_type: 'content', content: '书院' },
    { content_type: 'message_end', outcome: 'completed' },
  ],
};

test("a user's message is complete at once, with what was asked", async (t) => {
  await spec.given(sessionCreated(), userMessage('m1', '宋代书院有哪些？')).thenDoc(t, MESSAGES, 'm1', {
    session_id: SESSION,
    role: 'user',
    agent: 'deep_cognition',
    reply_to: null,
    status: 'completed',
    created_at: T1,
    order: 2,
    contents: [{ content_type: 'user_input', content: '宋代书院有哪些？', target_agent: 'deep_cognition' }],
  });
});

test('a reply streams into one message: chunks of one kind in a row are joined, in log order', async (t) => {
  await spec.given(sessionCreated(), ...streamed).then(t, MESSAGES, [{ _id: 'm1' }, streamedDoc], inSession);
});

test('a reply applied event by event reads the same as one applied in a batch', async (t) => {
  const [first, ...rest] = streamed;
  const scenario = rest.reduce((applied, event) => applied.when(event), spec.given(sessionCreated(), first!));
  await scenario.then(t, MESSAGES, [{ _id: 'm1' }, streamedDoc], inSession);
});

test('a reply replayed after a crash is not streamed twice', async (t) => {
  await spec.given(sessionCreated(), ...streamed.slice(0, 4)).when(...streamed.slice(4)).replayed().thenDoc(t, MESSAGES, 'm2', streamedDoc);
  await spec.given(sessionCreated(), ...streamed).replayed().thenDoc(t, MESSAGES, 'm2', streamedDoc);
});

test('a reply in progress is streaming; an interrupted or failed one says so', async (t) => {
  const started = spec.given(sessionCreated(), userMessage('m1', '问题'), replyStarted('m2', 'm1'));
  await started.thenDoc(t, MESSAGES, 'm2', { status: 'streaming', contents: [] });
  await started.when(replyCompleted('m2', 'interrupted')).thenDoc(t, MESSAGES, 'm2', { status: 'interrupted', updated_at: T2 });
  await started
    .when({ ...replyCompleted('m2', 'failed'), data: { ...replyCompleted('m2', 'failed').data, error: '模型不可用' } })
    .thenDoc(t, MESSAGES, 'm2', { status: 'failed', contents: [{ content_type: 'message_end', error_message: '模型不可用' }] });
});

test('research steps are kept in the reply as the socket showed them', async (t) => {
  await spec
    .given(
      sessionCreated(),
      userMessage('m1', '问题'),
      replyStarted('m2', 'm1'),
      { type: 'ClarificationAsked', data: { sessionId: SESSION, messageId: 'm2', questions: [], at: T1 } },
      { type: 'PlanProposed', data: { sessionId: SESSION, messageId: 'm2', steps: ['检索', '写作'], at: T1 } },
      { type: 'PlanStepMarked', data: { sessionId: SESSION, messageId: 'm2', steps: ['检索', '写作'], index: 1, at: T1 } },
      { type: 'SearchResultsRecorded', data: { sessionId: SESSION, messageId: 'm2', queries: ['宋代书院'], results: [], at: T1 } },
      { type: 'AgentOutputRecorded', data: { sessionId: SESSION, messageId: 'm2', agent: 'deep_cognition', contentType: 'info', seq: 4, payload: { message: '检索完成' } } },
      { type: 'WritingStarted', data: { sessionId: SESSION, messageId: 'm2', agent: 'deep_cognition', artifactId: 'artifact-1', version: 1, title: '报告', at: T1 } },
      chunk(5, '正文', 'writing_content'),
      versionSaved(1, '正文'),
      { type: 'FeedbackRequested', data: { sessionId: SESSION, messageId: 'm2', artifactId: 'artifact-1', version: 1, at: T2 } },
      { type: 'FeedbackGiven', data: { sessionId: SESSION, messageId: 'm2', option: 'satisfied', at: T2 } },
    )
    .thenDoc(t, MESSAGES, 'm2', {
      contents: [
        { content_type: 'clarification', status: 'undone' },
        { content_type: 'plan', research_plan: [{ step: 1, status: 'not_started' }, { step: 2, status: 'not_started' }] },
        { content_type: 'mark_in_progress_plan_step', research_plan: [{ status: 'completed' }, { status: 'in_progress' }] },
        { content_type: 'web_search_results', queries: ['宋代书院'] },
        { content_type: 'info', message: '检索完成', seq: 4 },
        { content_type: 'writing_start', version: 1 },
        { content_type: 'writing_content', content: '正文' },
        { content_type: 'writing_end', saved: true, message: WRITING_DONE },
        { content_type: 'feedback_request', version: 1 },
        { content_type: 'feedback_response', option: 'satisfied' },
      ],
      updated_at: T2,
    });
});

test('events about a message that is not there change nothing', async (t) => {
  await spec.given(sessionCreated(), chunk(0, '孤儿'), replyCompleted('m2')).then(t, MESSAGES, []);
});

test('the reply text joins what was answered, not what was thought', (t) => {
  t.is(replyText({ contents: [{ content_type: 'think', content: '想' } as never, { content_type: 'content', content: '答' } as never, { content_type: 'chat_chunk', content: '案' } as never] }), '答案');
});

test("a plan's review is kept in the reply, so a reload shows the plan as edited and whether it still waits", async (t) => {
  await spec
    .given(
      sessionCreated(),
      userMessage('m1', '问题'),
      replyStarted('m2', 'm1'),
      { type: 'PlanProposed', data: { sessionId: SESSION, messageId: 'm2', steps: ['检索', '写作'], at: T1 } },
      { type: 'PlanReviewOpened', data: { sessionId: SESSION, messageId: 'm2', jobId: 'm2:plan', queries: [['检索'], ['写作']], startsAt: T2, at: T1 } },
      { type: 'PlanEdited', data: { sessionId: SESSION, messageId: 'm2', steps: ['写作'], queries: [['写作 方法']], headings: ['写作'], at: T1 } },
      { type: 'PlanStarted', data: { sessionId: SESSION, messageId: 'm2', jobId: 'j2', by: 'user', at: T2 } },
    )
    .thenDoc(t, MESSAGES, 'm2', {
      contents: [
        { content_type: 'plan', research_plan: [{ step: 1, status: 'not_started' }, { step: 2, status: 'not_started' }] },
        { content_type: 'plan_review', status: 'waiting', starts_at: T2, queries: [['检索'], ['写作']] },
        { content_type: 'plan_review', status: 'edited', research_plan: [{ step: 1, description: '写作', status: 'not_started' }], queries: [['写作 方法']] },
        { content_type: 'plan_review', status: 'started', by: 'user' },
      ],
    });
});

test("a session's head is the newest position that changed any of its messages, an earlier message's too", async (t) => {
  await spec.given(sessionCreated(), ...streamed).thenDoc(t, MESSAGE_HEADS, SESSION, { last_position: 8 });
  const [first, ...rest] = streamed;
  await rest.reduce((applied, event) => applied.when(event), spec.given(sessionCreated(), first!)).thenDoc(t, MESSAGE_HEADS, SESSION, { last_position: 8 });
  await spec.given(sessionCreated(), userMessage('m1', '问题'), replyStarted('m2', 'm1'), userMessage('m3', '又一问'), chunk(0, '迟到的答案')).thenDoc(t, MESSAGE_HEADS, SESSION, { last_position: 5 });
  await spec.given(sessionCreated()).thenDoc(t, MESSAGE_HEADS, SESSION, null);
});

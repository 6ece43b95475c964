import test, { type ExecutionContext } from 'ava';
import type { ContentType } from '@scriptorium/domain/protocol/content';
import { serverMessageSchema } from '@scriptorium/domain/protocol/ws';
import { BUDGET_EXHAUSTED } from '@scriptorium/domain/budget/guard';
import { Corpus, SOLID_STATE } from '@scriptorium/workers/agents/deep_cognition/harness';
import { JUDGE_PROMPT } from '@scriptorium/workers/agents/deep_cognition/prompts';
import { signUp, startTestApp, type TestApp } from '../support/app.ts';
import { startMockOpenAI } from '../support/mockOpenAI.ts';
import { straightResearch } from '../support/researchModel.ts';
import { openSocket, streamedText, type TestSocket } from '../support/socket.ts';

const VAGUE = '帮我研究一下固态电池';
const SPECIFIC = '对比2020年以来中国固态电池的技术路线和产业化进展，写一份决策参考报告';
const SENTENCE = '固态电池使用固态电解质取代液态电解液。';

const subscribe = (sessionId: string) => ({ session_id: sessionId, agent: 'none', payload: { content_type: 'subscribe' } });
const of = (socket: TestSocket, replyId: string, contentType?: ContentType) =>
  socket.received.filter((m) => m.type === 'message' && m.content.message_id === replyId && (!contentType || m.content.content_type === contentType)).map((m) => m.content);
const arrives = (replyId: string, contentType: ContentType, nth = 1) => {
  let seen = 0;
  return (m: any) => m.type === 'message' && m.content.message_id === replyId && m.content.content_type === contentType && ++seen === nth;
};

async function researchSession(app: TestApp, name: string) {
  const user = await signUp(app.url, name);
  const { body } = await user.request('POST', '/backend/conversation/sessions', { client_id: `client-${name}` });
  const socket = await openSocket(app.url, `client-${name}`, user.token);
  socket.send(subscribe(body.session_id));
  await socket.next((m) => m.type === 'subscribed');
  return { user, sessionId: body.session_id as string, socket };
}

test.serial('offline, one question: clarification, answers, a moving plan, searches and reading, a cited version, feedback, a revision and a targeted edit', async (t) => {
  const corpus = new Corpus([...SOLID_STATE]);
  const app = await startTestApp({}, { agents: { webSearch: corpus, localSearch: corpus, fetcher: corpus } });
  t.teardown(() => app.stop());
  const { user, sessionId, socket } = await researchSession(app, 'researcher');
  t.teardown(() => socket.close());

  const started = await user.request('POST', '/backend/conversation/research/start', { session_id: sessionId, message: VAGUE });
  t.is(started.status, 200);
  t.is(started.body.agent, 'deep_cognition');
  const replyId = started.body.reply_id;
  const clarification = (await socket.next(arrives(replyId, 'clarification'))).content;
  t.is(clarification.status, 'undone');
  const pending = await user.request('GET', `/backend/conversation/research/${sessionId}/pending_questions`);
  t.deepEqual(pending.body.questions, clarification.questions);
  t.deepEqual(
    of(socket, replyId).map((item) => item.content_type).filter((type) => type !== 'status'),
    ['message_start', 'think', 'think_end', 'status_and_goal', 'info', 'info', 'clarification'],
  );

  const answers = clarification.questions.map((question: any) => ({
    id: question.id,
    question: question.question_content,
    selectedOptions: question.question_options.slice(1, 2),
    textInput: '',
    question_type: question.question_type,
  }));
  t.is((await user.request('POST', `/backend/conversation/research/${sessionId}/clarification_answer`, { answers })).status, 200);
  await socket.next(arrives(replyId, 'feedback_request'));

  const types = of(socket, replyId).map((item) => item.content_type);
  const after = types.slice(types.indexOf('clarification_answer'));
  t.is(after.filter((type) => type === 'plan').length, 1);
  const plan = of(socket, replyId, 'plan')[0];
  t.is(plan.message, 'Plan Generated');
  t.true(plan.research_plan.every((step: any) => step.status === 'not_started'));
  const marks = of(socket, replyId, 'mark_in_progress_plan_step');
  t.is(marks.length, plan.research_plan.length + 1);
  t.deepEqual(marks[1].research_plan.map((step: any) => step.status).slice(0, 3), ['completed', 'in_progress', 'not_started']);
  t.true(marks.at(-1).research_plan.every((step: any) => step.status === 'completed'));
  t.regex(of(socket, replyId, 'web_search_results')[0].message, /^Have got \d+ Correlated Web Search Results$/);
  for (const type of ['web_search_queries', 'web_browsing_start', 'web_scraping_start', 'web_browsing_in_progress', 'web_scraping_end', 'web_browsing_result', 'web_browsing_llm_end']) {
    t.true(types.includes(type), type);
  }
  t.deepEqual(types.slice(types.indexOf('writing_start')).filter((type) => type !== 'writing_content' && type !== 'status'), [
    'writing_start',
    'writing_end',
    'edit_report',
    'cognition_recommendation',
    'feedback_request',
  ]);
  const end = of(socket, replyId, 'writing_end')[0];
  t.like(end, { message: '写作完成', saved: true, interrupted: false, artifact_id: 'dccanvas', version: 1 });

  const canvas = await user.request('GET', `/backend/conversation/research/${sessionId}/canvas`);
  t.is(canvas.body.currentVersion, 1);
  const first = canvas.body.versions[0].content as string;
  t.is(first, streamedText(socket.received, replyId, 'writing_content'), 'the canvas holds exactly what streamed');
  t.regex(first, /\[\[\d\]\]\(https:\/\/example\.test\/[\w-]+\)/);
  t.true(first.includes('## 参考来源'));
  const checks = canvas.body.versions[0].citations as Array<{ verdict: string; action: string; offset: number }>;
  t.true(checks.length > 0 && checks.every((check) => check.verdict === 'supported' && check.action === 'kept'), 'the offline engine quotes, so every citation checks out');
  t.true(checks.every((check) => check.offset < first.indexOf('## 参考来源')));

  t.is((await user.request('POST', `/backend/conversation/research/${sessionId}/feedback`, { option: 'manual_feedback', text: '补充固态电池成本方面的内容' })).status, 200);
  await socket.next(arrives(replyId, 'feedback_request', 2));
  const revised = await user.request('GET', `/backend/conversation/research/${sessionId}/canvas`);
  t.is(revised.body.currentVersion, 2);
  t.true(revised.body.versions[1].content.includes('## 根据反馈补充'));

  const second = revised.body.versions[1].content as string;
  t.true(second.includes(SENTENCE));
  const edit = await user.request('POST', `/backend/conversation/research/${sessionId}/edit_request`, { request_id: 'edit-1', text: '把“液态电解液”改为“传统液态电解液”', snippet: SENTENCE });
  t.like(edit.body, { request_id: 'edit-1', status: 'submitted', from_version: 2 });
  const result = (await socket.next(arrives('edit-1', 'targeted_edit_result'))).content;
  t.like(result, { request_id: 'edit-1', original_snippet: SENTENCE, edited_snippet: '固态电池使用固态电解质取代传统液态电解液。', version: 3 });
  t.is(result.full_content, second.replace(SENTENCE, '固态电池使用固态电解质取代传统液态电解液。'), 'only the selected sentence changed');
  const edited = await user.request('GET', `/backend/conversation/research/${sessionId}/canvas`);
  t.is(edited.body.currentVersion, 3);
  t.is(edited.body.versions[2].content, result.full_content);

  t.is((await user.request('POST', `/backend/conversation/research/${sessionId}/feedback`, { option: 'satisfied' })).status, 200);
  t.like((await socket.next(arrives(replyId, 'message_end'))).content, { outcome: 'completed' });
  const misfits = socket.received.filter((message) => !serverMessageSchema.safeParse(message).success);
  t.deepEqual(misfits, [], 'everything the agents appended fits the protocol');
});

/** A research by `name` on a model that writes slowly, once its report has begun to stream. */
async function writingSlowly(t: ExecutionContext, name: string) {
  const prose = `${'固态电池的能量密度更高[1]，但成本仍然偏高[2]。'.repeat(60)}`;
  const mock = await startMockOpenAI({
    scenario: 'slow',
    delayMs: 2,
    reply: straightResearch({ description: '技术路线', queries: ['固态电池 技术'] }, prose, { [JUDGE_PROMPT]: JSON.stringify({ useful: [1] }) }),
  });
  const corpus = new Corpus([...SOLID_STATE]);
  const app = await startTestApp({ LLM_BASE_URL: mock.url, LLM_MODEL: 'slow' }, { agents: { webSearch: corpus, fetcher: corpus } });
  t.teardown(async () => {
    await app.stop();
    await mock.close();
  });
  const { user, sessionId, socket } = await researchSession(app, name);
  t.teardown(() => socket.close());
  const started = await user.request('POST', '/backend/conversation/research/start', { session_id: sessionId, message: SPECIFIC });
  const replyId: string = started.body.reply_id;
  await socket.next(arrives(replyId, 'writing_content'));
  return { user, sessionId, socket, replyId, prose };
}

test.serial('a pause while the model writes: the partial version is kept with the interrupted message', async (t) => {
  const { user, sessionId, socket, replyId, prose } = await writingSlowly(t, 'pauser');
  t.like((await user.request('POST', `/backend/conversation/research/${sessionId}/pause`)).body, { paused: true });
  const end = (await socket.next(arrives(replyId, 'writing_end'))).content;
  t.like(end, { message: '写作过程中断，已保存部分内容', level: 'warning', interrupted: true, saved: true });
  t.like((await socket.next(arrives(replyId, 'message_end'))).content, { outcome: 'interrupted' });
  const canvas = await user.request('GET', `/backend/conversation/research/${sessionId}/canvas`);
  const [version] = canvas.body.versions;
  t.like(version, { version: 1, interrupted: true });
  t.is(version.content, streamedText(socket.received, replyId, 'writing_content'));
  t.true(version.content.length < prose.length, 'cut short');
  t.false(of(socket, replyId).some((item) => item.content_type === 'feedback_request'));
});

test.serial('a message sent while the research works is accepted as an instruction to it (2xx, not 409), echoed on the socket, and no reply of its own starts', async (t) => {
  const { user, sessionId, socket, replyId } = await writingSlowly(t, 'steerer');
  const sent = await user.request('POST', '/backend/conversation/api/v2/chat/send', { session_id: sessionId, message: '只看低温性能，其他的不用管。' });
  t.is(sent.status, 200);
  t.like(sent.body, { session_id: sessionId, reply_id: replyId, agent: 'deep_cognition' });
  const echo = await socket.next((m: any) => m.type === 'message' && m.content.content_type === 'user_input' && m.content.message_id === sent.body.message_id);
  t.is(echo.content.content, '只看低温性能，其他的不用管。');
  await user.request('POST', `/backend/conversation/research/${sessionId}/pause`);
  await socket.next(arrives(replyId, 'message_end'));
  const history = await user.request('GET', `/backend/conversation/sessions/${sessionId}/messages`);
  const assistants = history.body.messages.filter((message: any) => message.role === 'assistant');
  t.is(assistants.length, 1, 'the instruction started no reply of its own');
});

test.serial('a budget that runs out mid-report: a 402 error on the socket, the partial version kept, the reply failed', async (t) => {
  const corpus = new Corpus([...SOLID_STATE]);
  const app = await startTestApp({ TOKENS_PER_COIN: '1' }, { agents: { webSearch: corpus, fetcher: corpus } });
  t.teardown(() => app.stop());
  const { user, sessionId, socket } = await researchSession(app, 'spender');
  t.teardown(() => socket.close());
  const started = await user.request('POST', '/backend/conversation/research/start', { session_id: sessionId, message: SPECIFIC });
  const replyId = started.body.reply_id;
  const error = (await socket.next(arrives(replyId, 'error'))).content;
  t.like(error, { error_message: BUDGET_EXHAUSTED, status: 402 });
  t.like((await socket.next(arrives(replyId, 'message_end'))).content, { outcome: 'failed', error_message: BUDGET_EXHAUSTED });
  const end = of(socket, replyId, 'writing_end')[0];
  t.like(end, { message: '写作过程中断，已保存部分内容', interrupted: true, saved: true });
  const canvas = await user.request('GET', `/backend/conversation/research/${sessionId}/canvas`);
  const [version] = canvas.body.versions;
  t.like(version, { version: 1, interrupted: true });
  t.is(version.content, streamedText(socket.received, replyId, 'writing_content'));
  t.false(version.content.includes('## 参考来源'), 'stopped before the end of the report');
});

/**
 * Plan review over HTTP (issue 29 item 3): the research waits at its plan (here on a long
 * countdown), the owner edits it with PUT …/plan and starts it with POST …/plan/start; bad input,
 * a plan that runs and another user's session are refused with codes and change nothing.
 */
import test from 'ava';
import { signUp, startTestApp, type TestApp } from '../support/app.ts';
import { startResearch, watchedSession } from '../support/research.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp({}, { agents: { planCountdownMs: 600_000 } });
});
test.after.always(async () => {
  await app?.stop();
});

const QUESTION = '对比2020年以来中国固态电池的技术路线和产业化进展，写一份决策参考报告';

test('a waiting plan is edited and started by its owner; refusals are coded and change nothing', async (t) => {
  const owner = await signUp(app.url, 'planner');
  const other = await signUp(app.url, 'stranger');
  const { sessionId, socket } = await watchedSession(app.url, owner, 'client-planner');
  t.teardown(() => socket.close());
  const { replyId, item } = await startResearch(owner, socket, sessionId, QUESTION);
  const waiting = await socket.next(item('plan_review'), 60_000);
  t.is(waiting.content.status, 'waiting');
  t.truthy(waiting.content.starts_at, 'a countdown');
  const path = `/backend/conversation/research/${sessionId}/plan`;

  const steps = [{ description: '梳理固态电池的技术路线' }, { description: '比较成本', queries: ['固态电池 成本 2024'] }];
  const edited = await owner.request('PUT', path, { steps });
  t.is(edited.status, 200, JSON.stringify(edited.body));
  t.like(edited.body, { session_id: sessionId, status: 'waiting' });
  t.deepEqual(edited.body.steps[1], { description: '比较成本', queries: ['固态电池 成本 2024'] });
  const shown = await socket.next((m: any) => item('plan_review')(m) && m.content.status === 'edited');
  t.deepEqual(shown.content.research_plan.map((step: any) => step.description), ['梳理固态电池的技术路线', '比较成本']);

  t.like(await owner.request('PUT', path, { steps: [] }), { status: 422, body: { code: 'conversation.plan_empty' } });
  t.like(await owner.request('PUT', path, { steps: [{ description: 'a' }, { description: '  ' }] }), { status: 422, body: { code: 'conversation.plan_step_empty' } });
  t.like(await owner.request('PUT', path, { steps: [{ description: 'x'.repeat(501) }] }), { status: 422, body: { detail: [{ code: 'conversation.plan_step_too_long' }] } });
  t.like(await owner.request('PUT', path, {}), { status: 422, body: { detail: [{ code: 'conversation.plan_steps_required' }] } });
  t.like(await other.request('PUT', path, { steps }), { status: 404 });
  t.like(await other.request('POST', `${path}/start`), { status: 404 });

  const started = await owner.request('POST', `${path}/start`);
  t.is(started.status, 200, JSON.stringify(started.body));
  t.like(started.body, { status: 'started' });
  await socket.next((m: any) => item('plan_review')(m) && m.content.status === 'started' && m.content.by === 'user');
  t.like(await owner.request('PUT', path, { steps }), { status: 409, body: { code: 'conversation.plan_running' } });
  t.like(await owner.request('POST', `${path}/start`), { status: 409, body: { code: 'conversation.plan_running' } });
  const marked = await socket.next((m: any) => item('mark_in_progress_plan_step')(m), 60_000);
  t.deepEqual(marked.content.research_plan.map((step: any) => step.description), ['梳理固态电池的技术路线', '比较成本'], 'the edited plan runs');
  const end = await socket.next((m: any) => item('feedback_request')(m) || item('message_end')(m), 120_000);
  t.is(end.content.message_id, replyId);
});

test('the review-plans preference is off by default and set by its user', async (t) => {
  const user = await signUp(app.url, 'reviewer');
  const path = '/backend/conversation/api/preferences/plan_review';
  t.like(await user.request('GET', path), { status: 200, body: { review_plans: false } });
  t.like(await user.request('PUT', path, { review_plans: true }), { status: 200, body: { review_plans: true } });
  t.like(await user.request('GET', path), { status: 200, body: { review_plans: true } });
  t.like(await user.request('PUT', path, { review_plans: 'yes' }), { status: 422, body: { detail: [{ code: 'preferences.review_plans_required' }] } });
});

import test from 'ava';
import { signUp, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { startResearch, watchedSession } from '../support/research.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.stop();
});

const eventCount = () => app.services.events.headPosition();
const settle = () => app.settle();
const task = (summary: { tasks: Array<{ task_id: string }> }, name: string) => summary.tasks.find((item) => item.task_id.startsWith(`${name}-`))!;

test.serial('the task types are the catalogue, and the summary shows it before the day begins', async (t) => {
  const user = await signUp(app.url, 'amy');
  const types = await user.request('GET', '/backend/api/tasks/types');
  t.deepEqual(
    types.body.task_types.map((type: { task_type: string; coin_reward: number; target_progress: number }) => [type.task_type, type.target_progress, type.coin_reward]),
    [
      ['view_cognition', 3, 20],
      ['create_note', 1, 30],
      ['complete_research', 1, 50],
      ['ai_chat', 3, 20],
    ],
  );
  const before = await eventCount();
  const summary = await user.request('GET', '/backend/api/tasks/summary');
  t.like(summary.body, { completed_tasks_today: 0, total_tasks_available: 4, total_coins_earned_today: 0 });
  t.like(task(summary.body, 'view_cognition'), { current_progress: 0, target_progress: 3, is_completed: false, rewards_claimed: false, coin_reward: 20, name: '浏览认知' });
  t.is(await eventCount(), before, 'reading writes nothing');
});

test.serial('the day’s tasks are assigned once per user and day', async (t) => {
  const user = await signUp(app.url, 'ben');
  const first = await user.request('POST', '/backend/api/tasks/ensure-daily');
  t.like(first.body, { created: true, total_tasks: 4 });
  const before = await eventCount();
  const again = await user.request('POST', '/backend/api/tasks/ensure-daily');
  t.like(again.body, { created: false });
  const init = await user.request('POST', '/backend/api/tasks/init');
  t.is(init.body.total_tasks_available, 4);
  t.deepEqual(
    init.body.tasks.map((item: { task_id: string; task_type: string }) => [item.task_type, item.task_id.startsWith(`${item.task_type}-`)]),
    [['view_cognition', true], ['create_note', true], ['complete_research', true], ['ai_chat', true]],
    'each task names its catalogue type, which a client words in its own language',
  );
  t.is(await eventCount(), before);
});

test.serial('reported actions: only cognition views, each target once, completing the task at three', async (t) => {
  const user = await signUp(app.url, 'cai');
  const before = await eventCount();
  t.is((await user.request('POST', '/backend/api/tasks/action', { action_type: 'complete_research', target_id: 'x' })).status, 422, 'research is counted from the log, not on the client’s word');
  t.is((await user.request('POST', '/backend/api/tasks/action', { action_type: 'view_cognition', target_id: '  ' })).status, 422);
  t.is(await eventCount(), before);
  const first = await user.request('POST', '/backend/api/tasks/action', { action_type: 'view_cognition', target_id: 'c1' });
  t.is(first.status, 200);
  t.like(first.body[0], { completed: false, coins_earned: 0 });
  t.regex(first.body[0].task_id, /^view_cognition-\d{8}$/);
  const duplicate = await user.request('POST', '/backend/api/tasks/action', { action_type: 'view_cognition', target_id: 'c1', target_type: 'cognition' });
  t.like(duplicate.body[0], { completed: false, coins_earned: 0 });
  t.like(task((await user.request('GET', '/backend/api/tasks/summary')).body, 'view_cognition'), { current_progress: 1 });
  await user.request('POST', '/backend/api/tasks/action', { action_type: 'view_cognition', target_id: 'c2' });
  const third = await user.request('POST', '/backend/api/tasks/action', { action_type: 'view_cognition', target_id: 'c3' });
  t.like(third.body[0], { completed: true, coins_earned: 20 });
  const summary = (await user.request('GET', '/backend/api/tasks/summary')).body;
  t.like(summary, { completed_tasks_today: 1, total_coins_earned_today: 0 });
  t.like(task(summary, 'view_cognition'), { current_progress: 3, is_completed: true, rewards_claimed: false });
});

test.serial('a finished chat counts towards the chat task through the process manager', async (t) => {
  const user = await signUp(app.url, 'dan');
  const { body } = await user.request('POST', '/backend/conversation/sessions', { client_id: 'dan' });
  await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: body.session_id, text: '你好，介绍一下投影。' });
  for (;;) {
    if (!(await user.request('GET', `/backend/conversation/research/${body.session_id}/status`)).body.processing) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await settle();
  t.like(task((await user.request('GET', '/backend/api/tasks/summary')).body, 'ai_chat'), { current_progress: 1, target_progress: 3, is_completed: false });
});

test.serial('a question answered in the command-line assistant counts towards the chat task once; an answer in a session not from the CLI does not', async (t) => {
  const user = await signUp(app.url, 'clichatter');
  const at = (second: number) => new Date(Date.now() - 60_000 + second * 1000).toISOString();
  const exchange = (question: string, answers: string[], second: number) => [
    { id: question, node_type: 'message', timestamp: at(second), payload: { role: 'user', text: '事件溯源是什么？' } },
    ...answers.map((answer, index) => ({ id: answer, node_type: 'message', parent_id: question, timestamp: at(second + index + 1), payload: { role: 'assistant', text: '把每次变化记成事件。' } })),
  ];
  const api = (await user.request('POST', '/backend/api/ai-engineer/sessions', { title: 'api', source: 'api' })).body.id;
  await user.request('POST', `/backend/api/ai-engineer/sessions/${api}/nodes`, { nodes: exchange('q0', ['a0'], 0) });
  const cli = (await user.request('POST', '/backend/api/ai-engineer/sessions', { title: 'cli', source: 'cli' })).body.id;
  await user.request('POST', `/backend/api/ai-engineer/sessions/${cli}/nodes`, { nodes: [...exchange('q1', ['a1', 'a1b'], 10), ...exchange('q2', ['a2'], 20)] });
  await settle();
  t.like(task((await user.request('GET', '/backend/api/tasks/summary')).body, 'ai_chat'), { current_progress: 2, target_progress: 3 });
});

test.serial('a deep research counts as finished once its report is written, before any feedback', async (t) => {
  const user = await signUp(app.url, 'researcher');
  const { sessionId, socket } = await watchedSession(app.url, user, 'researcher');
  try {
    const { item } = await startResearch(user, socket, sessionId, '比较三种固态电池路线的商业化进展，写一份简报');
    await socket.next(item('feedback_request'), 60_000);
    await settle();
    t.like(task((await user.request('GET', '/backend/api/tasks/summary')).body, 'complete_research'), { current_progress: 1, is_completed: true });
  } finally {
    socket.close();
  }
});

async function completedViewTask(user: Client): Promise<string> {
  let last;
  for (const id of ['k1', 'k2', 'k3']) last = await user.request('POST', '/backend/api/tasks/action', { action_type: 'view_cognition', target_id: id });
  return last!.body[0].task_id;
}

test.serial('a reward is claimed once; unfinished and unknown tasks are refused and change nothing', async (t) => {
  const user = await signUp(app.url, 'eli');
  const unfinished = task((await user.request('POST', '/backend/api/tasks/init')).body, 'create_note').task_id;
  let before = await eventCount();
  const early = await user.request('POST', `/backend/api/tasks/claim/${unfinished}`);
  t.is(early.status, 409);
  t.is(early.body.detail, '任务尚未完成，暂时不能领取奖励');
  t.is((await user.request('POST', '/backend/api/tasks/claim/no_such_task-20200101')).status, 404);
  t.is((await user.request('POST', '/backend/api/tasks/claim/garbage')).status, 404);
  t.is(await eventCount(), before);

  const id = await completedViewTask(user);
  const claimed = await user.request('POST', `/backend/api/tasks/claim/${id}`);
  t.like(claimed.body, { task_id: id, coins_earned: 20, balance: 20, message: '领取成功，获得 20 认知币' });
  before = await eventCount();
  const twice = await user.request('POST', `/backend/api/tasks/claim/${id}`);
  t.is(twice.status, 409);
  t.is(twice.body.detail, '奖励已领取，不能重复领取');
  t.is(await eventCount(), before);
  const summary = (await user.request('GET', '/backend/api/tasks/summary')).body;
  t.like(task(summary, 'view_cognition'), { rewards_claimed: true });
  t.is(summary.total_coins_earned_today, 20);
  t.like((await user.request('GET', '/backend/api/coins/balance')).body, { balance: 20, total_earned: 20 });
});

test.serial('another user cannot claim my reward: the same id names their own task', async (t) => {
  const owner = await signUp(app.url, 'fei');
  const other = await signUp(app.url, 'gao');
  const id = await completedViewTask(owner);
  const stolen = await other.request('POST', `/backend/api/tasks/claim/${id}`);
  t.is(stolen.status, 404, 'their own task of that day does not exist');
  t.is((await other.request('GET', '/backend/api/coins/balance')).body.balance, 0);
  t.is((await owner.request('POST', `/backend/api/tasks/claim/${id}`)).status, 200);
});

test.serial('a hundred parallel claims yield one CoinRewardClaimed', async (t) => {
  const user = await signUp(app.url, 'hua');
  const id = await completedViewTask(user);
  const responses = await Promise.all(Array.from({ length: 100 }, () => user.request('POST', `/backend/api/tasks/claim/${id}`)));
  t.is(responses.filter((response) => response.status === 200).length, 1);
  t.is(responses.filter((response) => response.status === 409).length, 99);
  const ledger = await app.services.events.readStream(`coins-${user.userId}`);
  t.deepEqual(ledger.map((event) => event.type), ['CoinRewardClaimed']);
  t.is((await user.request('GET', '/backend/api/coins/balance')).body.balance, 20);
});

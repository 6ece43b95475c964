import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import { SqliteEventStore } from '@scriptorium/infra/eventstore/sqlite';
import { coinsDecider, REWARD_ALREADY_CLAIMED, TASK_NOT_COMPLETED } from './coinsDecide.ts';
import type { CoinsEvent } from './coins.ts';
import { parsePublicTaskId, publicTaskId, TASK_CATALOGUE, type TaskDefinition } from './catalogue.ts';
import { tasksDecider, type RecordTaskAction } from './decide.ts';
import { TaskService } from './service.ts';
import type { TasksEvent } from './tasks.ts';

const spec = deciderSpec(tasksDecider);
const catalogue: TaskDefinition[] = [
  { taskId: 'view', name: '浏览', description: '浏览 2 条', actionType: 'view_cognition', target: 2, coins: 20 },
  { taskId: 'research', name: '研究', description: '完成 1 次', actionType: 'complete_research', target: 1, coins: 50 },
];
const T = '2026-03-01T02:00:00.000Z';
const assigned: TasksEvent = { type: 'DailyTasksAssigned', data: { userId: 'u1', day: '2026-03-01', tasks: catalogue, at: T } };
const action = (targetId: string, actionType: RecordTaskAction['data']['actionType'] = 'view_cognition'): RecordTaskAction => ({
  type: 'RecordTaskAction',
  data: { userId: 'u1', day: '2026-03-01', catalogue, actionType, targetType: 'cognition', targetId },
  metadata: at(T),
});
const viewed = (targetId: string, current: number): TasksEvent => ({
  type: 'TaskActionRecorded',
  data: { userId: 'u1', day: '2026-03-01', actionType: 'view_cognition', targetType: 'cognition', targetId, progress: [{ taskId: 'view', current }], at: T },
});

test('the day’s tasks are assigned once', (t) => {
  const assign = { type: 'AssignDailyTasks' as const, data: { userId: 'u1', day: '2026-03-01', catalogue }, metadata: at(T) };
  spec([]).when(assign).then(t, [assigned]);
  spec([assigned]).when(assign).then(t, []);
});

test('an action on a day not yet assigned assigns it first', (t) => {
  spec([]).when(action('c1')).then(t, [assigned, viewed('c1', 1)]);
});

test('the same target counts once a day', (t) => {
  spec([assigned, viewed('c1', 1)]).when(action('c1')).then(t, []);
});

test('reaching the target completes the task and says what it is worth', (t) => {
  spec([assigned, viewed('c1', 1)])
    .when(action('c2'))
    .then(t, [viewed('c2', 2), { type: 'TaskCompleted', data: { userId: 'u1', day: '2026-03-01', taskId: 'view', coins: 20, at: T } }]);
});

test('actions no unfinished task counts are not recorded', (t) => {
  const done: TasksEvent[] = [assigned, viewed('c1', 1), viewed('c2', 2), { type: 'TaskCompleted', data: { userId: 'u1', day: '2026-03-01', taskId: 'view', coins: 20, at: T } }];
  spec(done).when(action('c3')).then(t, []);
  spec([assigned]).when(action('n1', 'create_note')).then(t, []);
});

const coins = deciderSpec(coinsDecider);
const claim = { type: 'ClaimReward' as const, data: { userId: 'u1', rewardId: 'view-20260301', taskId: 'view', day: '2026-03-01', coins: 20, completed: true }, metadata: at(T) };
const claimed: CoinsEvent = { type: 'CoinRewardClaimed', data: { userId: 'u1', rewardId: 'view-20260301', taskId: 'view', day: '2026-03-01', coins: 20, balance: 20, at: T } };

test('a task not yet completed cannot be claimed, and nothing is credited', (t) => {
  coins([]).when({ ...claim, data: { ...claim.data, completed: false } }).thenThrows(t, 'conflict', TASK_NOT_COMPLETED);
  coins([claimed]).when({ ...claim, data: { ...claim.data, rewardId: 'research-20260301', taskId: 'research', coins: 50, completed: false } }).thenThrows(t, 'conflict', TASK_NOT_COMPLETED);
});

test('a reward is claimed once and adds to the balance', (t) => {
  coins([]).when(claim).then(t, [claimed]);
  coins([claimed]).when(claim).thenThrows(t, 'conflict', REWARD_ALREADY_CLAIMED);
  coins([claimed])
    .when({ ...claim, data: { ...claim.data, rewardId: 'research-20260301', taskId: 'research', coins: 50 } })
    .then(t, [{ type: 'CoinRewardClaimed', data: { userId: 'u1', rewardId: 'research-20260301', taskId: 'research', day: '2026-03-01', coins: 50, balance: 70, at: T } }]);
});

test('public task ids carry the day', (t) => {
  t.is(publicTaskId('ai_chat', '2026-03-01'), 'ai_chat-20260301');
  t.deepEqual(parsePublicTaskId('ai_chat-20260301'), { taskId: 'ai_chat', day: '2026-03-01' });
  t.is(parsePublicTaskId('../etc'), null);
  t.true(TASK_CATALOGUE.every((task) => parsePublicTaskId(publicTaskId(task.taskId, '2026-03-01'))?.taskId === task.taskId));
});

test('a hundred concurrent claims of one completed task credit it once', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'claims-'));
  const events = new SqliteEventStore(join(dir, 'events.sqlite3'));
  t.teardown(() => {
    void events.close().then(() => rmSync(dir, { recursive: true, force: true }));
  });
  const now = new Date('2026-03-01T02:00:00Z');
  const tasks = new TaskService({ commands: new CommandHandler(events), clock: () => now, timeZone: 'Asia/Shanghai' });
  const [first] = (await tasks.recordAction('u1', { actionType: 'complete_research', targetType: 'conversation', targetId: 'r1' })).results;
  t.like(first, { task_id: 'complete_research-20260301', completed: true, coins_earned: 50 });
  const outcomes = await Promise.allSettled(Array.from({ length: 100 }, () => tasks.claim('u1', 'complete_research-20260301')));
  t.is(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 1);
  t.true(outcomes.every((outcome) => outcome.status === 'fulfilled' || (outcome.reason as Error).message === REWARD_ALREADY_CLAIMED));
  const ledger = await events.readStream('coins-u1');
  t.deepEqual(ledger.map((event) => event.type), ['CoinRewardClaimed']);
  await t.throwsAsync(tasks.claim('u1', 'ai_chat-20260301'), { message: '任务尚未完成，暂时不能领取奖励' });
  await t.throwsAsync(tasks.claim('u1', 'ai_chat-20250101'), { message: '任务不存在' });
});

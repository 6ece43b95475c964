import test from 'ava';
import { TASK_CATALOGUE } from '@scriptorium/domain/tasks/catalogue';
import type { CoinsEvent } from '@scriptorium/domain/tasks/coins';
import type { TasksEvent } from '@scriptorium/domain/tasks/tasks';
import { T1, T2, T3 } from './fixtures.ts';
import { COIN_BALANCES, DAILY_TASKS, dailyTasksId, dailyTasksProjection, newTaskItem } from './tasks.ts';
import { projectionSpec } from './testing.ts';

const spec = projectionSpec<TasksEvent | CoinsEvent>(dailyTasksProjection);
const DAY = '2026-03-01';
const [viewing, noting] = TASK_CATALOGUE;
const assigned = spec.given({ type: 'DailyTasksAssigned', data: { userId: 'u1', day: DAY, tasks: [viewing!, noting!], at: T1 } });
const claimed = (taskId: string, coins: number, balance: number): CoinsEvent => ({ type: 'CoinRewardClaimed', data: { userId: 'u1', rewardId: `${DAY}:${taskId}`, taskId, day: DAY, coins, balance, at: T3 } });

test("the day's tasks start with no progress", async (t) => {
  await assigned.thenDoc(t, DAILY_TASKS, dailyTasksId('u1', DAY), { user_id: 'u1', day: DAY, tasks: [newTaskItem(viewing!), newTaskItem(noting!)], updated_at: T1 });
});

test('progress, completion and a claimed reward are marked on their task', async (t) => {
  await assigned
    .when(
      { type: 'TaskActionRecorded', data: { userId: 'u1', day: DAY, actionType: 'view_cognition', targetType: 'cognition', targetId: 'c1', progress: [{ taskId: viewing!.taskId, current: 1 }], at: T2 } },
      { type: 'TaskActionRecorded', data: { userId: 'u1', day: DAY, actionType: 'create_note', targetType: 'note', targetId: 'n1', progress: [{ taskId: noting!.taskId, current: 1 }], at: T2 } },
      { type: 'TaskCompleted', data: { userId: 'u1', day: DAY, taskId: noting!.taskId, coins: noting!.coins, at: T2 } },
      claimed(noting!.taskId, noting!.coins, noting!.coins),
    )
    .thenDoc(t, DAILY_TASKS, dailyTasksId('u1', DAY), {
      tasks: [
        { task_id: viewing!.taskId, current_progress: 1, is_completed: false, rewards_claimed: false },
        { task_id: noting!.taskId, current_progress: 1, is_completed: true, rewards_claimed: true },
      ],
      updated_at: T3,
    });
});

test('claimed coins add up in the balance, even for a day never assigned', async (t) => {
  await spec.given(claimed('view_cognition', 20, 20), claimed('create_note', 30, 50)).thenDoc(t, COIN_BALANCES, 'u1', { balance: 50, total_earned: 50, claims: 2, updated_at: T3 });
});

test('a user lists their days newest first', async (t) => {
  await spec
    .given(
      { type: 'DailyTasksAssigned', data: { userId: 'u1', day: '2026-03-01', tasks: [], at: T1 } },
      { type: 'DailyTasksAssigned', data: { userId: 'u1', day: '2026-03-02', tasks: [], at: T2 } },
      { type: 'DailyTasksAssigned', data: { userId: 'u2', day: '2026-03-03', tasks: [], at: T3 } },
    )
    .then(t, DAILY_TASKS, [{ day: '2026-03-02' }, { day: '2026-03-01' }], { filter: { user_id: 'u1' }, sort: { day: -1 } });
});

test('a claim replayed after a crash (standalone Mongo) is counted once', async (t) => {
  await spec.given(claimed('view_cognition', 20, 20)).replayed().thenDoc(t, COIN_BALANCES, 'u1', { total_earned: 20, claims: 1 });
});

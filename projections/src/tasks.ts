import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import type { CoinsEvent } from '@scriptorium/domain/tasks/coins';
import type { TasksEvent } from '@scriptorium/domain/tasks/tasks';
import type { TaskDefinition } from '@scriptorium/domain/tasks/catalogue';
import { countOnce, type Projection } from './projection.ts';

/** A task as it stands before any progress: what assignment records and what an unassigned day shows. */
export const newTaskItem = (task: Pick<TaskDefinition, 'taskId' | 'name' | 'description' | 'actionType' | 'coins' | 'target'>): DailyTaskItem => ({
  task_id: task.taskId,
  name: task.name,
  description: task.description,
  action_type: task.actionType,
  coin_reward: task.coins,
  current_progress: 0,
  target_progress: task.target,
  is_completed: false,
  rewards_claimed: false,
});

export interface DailyTaskItem {
  /** The catalogue's id; the public id adds the day. */
  task_id: string;
  name: string;
  description: string;
  action_type: string;
  coin_reward: number;
  current_progress: number;
  target_progress: number;
  is_completed: boolean;
  rewards_claimed: boolean;
}

/** One user's tasks of one day, as the task summary shows them. */
export interface DailyTasksDoc extends Doc {
  user_id: string;
  day: string;
  tasks: DailyTaskItem[];
  updated_at: string;
}

/** A user's cognition coins. */
export interface CoinBalanceDoc extends Doc {
  balance: number;
  total_earned: number;
  claims: number;
  updated_at: string;
}

export const DAILY_TASKS = 'daily_tasks';
export const COIN_BALANCES = 'coin_balances';

export const dailyTasksId = (userId: string, day: string): string => `${userId}:${day}`;

export const dailyTasksProjection: Projection = {
  name: 'daily_tasks',
  collections: [DAILY_TASKS, COIN_BALANCES],
  handles: ['DailyTasksAssigned', 'TaskActionRecorded', 'TaskCompleted', 'CoinRewardClaimed'] satisfies Array<TasksEvent['type'] | CoinsEvent['type']>,
  async setup(store) {
    await store.collection(DAILY_TASKS).ensureIndex({ fields: { user_id: 1, day: -1 } });
  },
  async apply(recorded: RecordedEvent, tx) {
    const days = tx.collection<DailyTasksDoc>(DAILY_TASKS);
    const event = { type: recorded.type, data: recorded.data } as TasksEvent | CoinsEvent;
    const at = recorded.metadata.at;
    if (event.type === 'DailyTasksAssigned') {
      const { userId, day, tasks } = event.data;
      await days.put({
        _id: dailyTasksId(userId, day),
        user_id: userId,
        day,
        tasks: tasks.map(newTaskItem),
        updated_at: at,
      });
      return;
    }
    if (event.type === 'CoinRewardClaimed') {
      const { userId, coins } = event.data;
      await countOnce(tx.collection(COIN_BALANCES), userId, recorded.position, { $set: { balance: event.data.balance, updated_at: at }, $inc: { total_earned: coins, claims: 1 } }, { upsert: true });
    }
    const id = dailyTasksId(event.data.userId, event.data.day);
    const doc = await days.get(id);
    if (!doc) return;
    const change = (taskId: string, patch: Partial<DailyTaskItem>) => {
      doc.tasks = doc.tasks.map((task) => (task.task_id === taskId ? { ...task, ...patch } : task));
    };
    switch (event.type) {
      case 'TaskActionRecorded':
        for (const { taskId, current } of event.data.progress) change(taskId, { current_progress: current });
        break;
      case 'TaskCompleted':
        change(event.data.taskId, { is_completed: true });
        break;
      case 'CoinRewardClaimed':
        change(event.data.taskId, { rewards_claimed: true });
        break;
    }
    await days.put({ ...doc, updated_at: at });
  },
};

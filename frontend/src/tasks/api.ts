import { api } from '../api/client.ts';
import type { CoinBalance, DailyTasksEnsured, TaskClaimed, TaskSummary } from '@scriptorium/domain/protocol/http/tasks';

export type { CoinBalance, DailyTask as Task, TaskClaimed, TaskSummary } from '@scriptorium/domain/protocol/http/tasks';

/** The task reward flow (the server's `tasks` module): the day's tasks, a reward claimed, the coins it adds up to. */
export const tasksApi = {
  summary: () => api.get<TaskSummary>('/api/tasks/summary'),
  ensureDaily: () => api.post<DailyTasksEnsured>('/api/tasks/ensure-daily'),
  claim: (taskId: string) => api.post<TaskClaimed>(`/api/tasks/claim/${encodeURIComponent(taskId)}`),
  coinBalance: () => api.get<CoinBalance>('/api/coins/balance'),
};

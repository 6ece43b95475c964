import { api } from '../api/client.ts';

/** A daily task as GET /api/tasks/summary lists it. */
export interface Task {
  task_id: string;
  /** The catalogue's id (the public `task_id` adds the day): what the client words the task by. */
  task_type: string;
  name: string;
  description: string;
  coin_reward: number;
  current_progress: number;
  target_progress: number;
  is_completed: boolean;
  rewards_claimed: boolean;
}

export interface TaskSummary {
  completed_tasks_today: number;
  total_tasks_available: number;
  total_coins_earned_today: number;
  tasks: Task[];
}

export interface ClaimResult {
  message?: string;
  coins_earned?: number;
  balance?: number;
}

export interface CoinBalance {
  balance: number;
  total_earned: number;
}

/** The task reward flow (the server's `tasks` module): the day's tasks, a reward claimed, the coins it adds up to. */
export const tasksApi = {
  summary: () => api.get<TaskSummary>('/api/tasks/summary'),
  ensureDaily: () => api.post<unknown>('/api/tasks/ensure-daily'),
  claim: (taskId: string) => api.post<ClaimResult>(`/api/tasks/claim/${encodeURIComponent(taskId)}`),
  coinBalance: () => api.get<CoinBalance>('/api/coins/balance'),
};

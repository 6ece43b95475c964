import { z } from 'zod';

/** Daily tasks, their rewards, the coin balance and feedback (`/backend/api/tasks…`, `/backend/api/coins…`, `/backend/email/user-feedback`); see `oauth.ts` for how they are shared. */

export const taskTypes = z.object({
  task_types: z.array(
    z.object({
      task_type: z.string(),
      name: z.string(),
      description: z.string(),
      action_type: z.string(),
      target_progress: z.number().int(),
      coin_reward: z.number().int(),
      /** The client may report this action itself (POST /api/tasks/action). */
      reportable: z.boolean(),
    }),
  ),
});

/** A task of the day: `task_id` is public (the catalogue's id and the day), `task_type` the catalogue's id the client words it by; `name` and `description` stay the catalogue's Chinese, as the spec shows them. */
export const dailyTask = z.object({
  task_id: z.string(),
  task_type: z.string(),
  name: z.string(),
  description: z.string(),
  action_type: z.string(),
  coin_reward: z.number().int(),
  current_progress: z.number().int(),
  target_progress: z.number().int(),
  is_completed: z.boolean(),
  rewards_claimed: z.boolean(),
});

export const taskSummary = z.object({
  date: z.string(),
  completed_tasks_today: z.number().int(),
  total_tasks_available: z.number().int(),
  total_coins_earned_today: z.number().int(),
  tasks: z.array(dailyTask),
});

export const dailyTasksEnsured = z.object({ date: z.string(), created: z.boolean(), total_tasks: z.number().int() });

/** The spec's answer to a reported action is the list of results itself. */
export const taskActionResults = z.array(z.object({ task_id: z.string(), completed: z.boolean(), coins_earned: z.number().int() }));

export const taskClaimed = z.object({ message: z.string(), task_id: z.string(), coins_earned: z.number().int(), balance: z.number().int() });

export const coinBalance = z.object({ balance: z.number().int(), total_earned: z.number().int(), unit: z.literal('cognition_coin') });

export const feedbackSent = z.object({ message: z.string(), feedback_id: z.string() });

export type TaskTypes = z.infer<typeof taskTypes>;
export type DailyTask = z.infer<typeof dailyTask>;
export type TaskSummary = z.infer<typeof taskSummary>;
export type DailyTasksEnsured = z.infer<typeof dailyTasksEnsured>;
export type TaskActionResults = z.infer<typeof taskActionResults>;
export type TaskClaimed = z.infer<typeof taskClaimed>;
export type CoinBalance = z.infer<typeof coinBalance>;
export type FeedbackSent = z.infer<typeof feedbackSent>;

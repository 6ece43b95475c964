import { z } from 'zod';

/**
 * Daily tasks, their rewards and the coin balance (`/backend/api/tasks…`, `/backend/api/coins…`):
 * requests and replies; see `oauth.ts` for how they are shared.
 */

/** What a user does that a task can count. */
export const ACTION_TYPES = ['view_cognition', 'create_note', 'complete_research', 'complete_chat'] as const;

/**
 * What a client may report through POST /api/tasks/action. Finished research and chats, and new
 * notes, are taken from the product's own events, so they cannot be claimed by just saying so.
 */
export const REPORTABLE_ACTIONS = ['view_cognition'] as const satisfies readonly (typeof ACTION_TYPES)[number][];

/** Besides the task actions, the client reports page views (the spec's guard records them as user actions). */
const REPORTED = [...REPORTABLE_ACTIONS, 'page_view'] as const;

export const taskActionBody = z.object({
  action_type: z.enum(REPORTED, { error: 'tasks.action_invalid' }),
  target_id: z.string({ error: 'tasks.target_required' }).trim().min(1, 'tasks.target_empty').max(128, 'tasks.target_too_long'),
  target_type: z.string().trim().min(1).max(40).default('cognition'),
});
export type TaskActionBody = z.input<typeof taskActionBody>;

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

export type TaskTypes = z.infer<typeof taskTypes>;
export type DailyTask = z.infer<typeof dailyTask>;
export type TaskSummary = z.infer<typeof taskSummary>;
export type DailyTasksEnsured = z.infer<typeof dailyTasksEnsured>;
export type TaskActionResults = z.infer<typeof taskActionResults>;
export type TaskClaimed = z.infer<typeof taskClaimed>;
export type CoinBalance = z.infer<typeof coinBalance>;

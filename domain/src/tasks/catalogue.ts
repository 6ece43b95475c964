/**
 * The daily task catalogue (the spec leaves tasks and amounts to the server; see
 * docs/decisions.md). A day's tasks are copied into that day's stream when they are assigned, so
 * changing the catalogue never changes a day already under way.
 */

import type { ACTION_TYPES } from '../protocol/http/tasks.ts';

export type ActionType = (typeof ACTION_TYPES)[number];

export interface TaskDefinition {
  taskId: string;
  name: string;
  description: string;
  actionType: ActionType;
  /** Distinct targets needed (the same target counts once a day). */
  target: number;
  coins: number;
}

export const TASK_CATALOGUE: readonly TaskDefinition[] = [
  { taskId: 'view_cognition', name: '浏览认知', description: '今日浏览 3 条不同的认知', actionType: 'view_cognition', target: 3, coins: 20 },
  { taskId: 'create_note', name: '记录笔记', description: '今日新建 1 篇笔记', actionType: 'create_note', target: 1, coins: 30 },
  { taskId: 'complete_research', name: '完成研究', description: '今日完成 1 次深度研究', actionType: 'complete_research', target: 1, coins: 50 },
  { taskId: 'ai_chat', name: 'AI 对话', description: '今日与 AI 助手完成 3 次对话', actionType: 'complete_chat', target: 3, coins: 20 },
];

/** The id a client sees and claims with: the task and its day, so a claim after midnight still finds it. */
export const publicTaskId = (taskId: string, day: string): string => `${taskId}-${day.replaceAll('-', '')}`;

export function parsePublicTaskId(id: string): { taskId: string; day: string } | null {
  const match = /^([a-z_]{1,40})-(\d{4})(\d{2})(\d{2})$/.exec(id);
  return match ? { taskId: match[1]!, day: `${match[2]}-${match[3]}-${match[4]}` } : null;
}

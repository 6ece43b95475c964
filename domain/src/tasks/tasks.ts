import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';
import type { ActionType, TaskDefinition } from './catalogue.ts';

/** One user's tasks of one day: `tasks-<userId>-<yyyy-mm-dd>`. */

export type DailyTasksAssigned = DomainEvent<'DailyTasksAssigned', { userId: string; day: string; tasks: TaskDefinition[]; at: string }>;
export type TaskActionRecorded = DomainEvent<
  'TaskActionRecorded',
  { userId: string; day: string; actionType: ActionType; targetType: string; targetId: string; progress: Array<{ taskId: string; current: number }>; at: string }
>;
export type TaskCompleted = DomainEvent<'TaskCompleted', { userId: string; day: string; taskId: string; coins: number; at: string }>;

export type TasksEvent = DailyTasksAssigned | TaskActionRecorded | TaskCompleted;

export type DailyTasks =
  | { status: 'unassigned' }
  | {
      status: 'assigned';
      userId: string;
      day: string;
      tasks: TaskDefinition[];
      progress: Record<string, number>;
      completed: string[];
      /** `actionType:targetType:targetId` already counted today. */
      seen: string[];
    };

export const initialState = (): DailyTasks => ({ status: 'unassigned' });

export const actionKey = (actionType: string, targetType: string, targetId: string): string => `${actionType}:${targetType}:${targetId}`;

export function evolve(state: DailyTasks, event: TasksEvent): DailyTasks {
  if (event.type === 'DailyTasksAssigned') {
    const { userId, day, tasks } = event.data;
    return { status: 'assigned', userId, day, tasks, progress: {}, completed: [], seen: [] };
  }
  if (state.status === 'unassigned') return state;
  switch (event.type) {
    case 'TaskActionRecorded': {
      const { actionType, targetType, targetId, progress } = event.data;
      const next = { ...state.progress };
      for (const { taskId, current } of progress) next[taskId] = current;
      return { ...state, progress: next, seen: [...state.seen, actionKey(actionType, targetType, targetId)] };
    }
    case 'TaskCompleted':
      return { ...state, completed: [...state.completed, event.data.taskId] };
    default:
      return assertNever(event);
  }
}

export const tasksStream = (userId: string, day: string): string => `tasks-${userId}-${day}`;

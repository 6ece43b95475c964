import { assertNever, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import type { ActionType, TaskDefinition } from './catalogue.ts';
import { actionKey, evolve, initialState, type DailyTasks, type TasksEvent } from './tasks.ts';

export type AssignDailyTasks = Command<'AssignDailyTasks', { userId: string; day: string; catalogue: readonly TaskDefinition[] }>;
/** Carries the catalogue too: an action on a day not yet assigned assigns it first. */
export type RecordTaskAction = Command<
  'RecordTaskAction',
  { userId: string; day: string; catalogue: readonly TaskDefinition[]; actionType: ActionType; targetType: string; targetId: string }
>;
export type TasksCommand = AssignDailyTasks | RecordTaskAction;

const assign = (command: TasksCommand): TasksEvent => ({
  type: 'DailyTasksAssigned',
  data: { userId: command.data.userId, day: command.data.day, tasks: command.data.catalogue.map((task) => ({ ...task })), at: command.metadata.now.toISOString() },
});

export const assignDailyTasks = (command: AssignDailyTasks, state: DailyTasks): TasksEvent[] => (state.status === 'unassigned' ? [assign(command)] : []);

/** Moves every unfinished task of the action's type on by one; the same target counts once a day. */
export const recordTaskAction = (command: RecordTaskAction, state: DailyTasks): TasksEvent[] => {
  const assigned = state.status === 'unassigned' ? [assign(command)] : [];
  const current = assigned.reduce(evolve, state);
  if (current.status === 'unassigned') return assigned;
  const { userId, day, actionType, targetType, targetId } = command.data;
  if (current.seen.includes(actionKey(actionType, targetType, targetId))) return assigned;
  const advanced = current.tasks.filter((task) => task.actionType === actionType && !current.completed.includes(task.taskId));
  if (advanced.length === 0) return assigned;
  const at = command.metadata.now.toISOString();
  const progress = advanced.map((task) => ({ taskId: task.taskId, current: Math.min(task.target, (current.progress[task.taskId] ?? 0) + 1) }));
  const completions: TasksEvent[] = advanced
    .filter((task) => progress.find((entry) => entry.taskId === task.taskId)!.current >= task.target)
    .map((task) => ({ type: 'TaskCompleted', data: { userId, day, taskId: task.taskId, coins: task.coins, at } }));
  return [...assigned, { type: 'TaskActionRecorded', data: { userId, day, actionType, targetType, targetId, progress, at } }, ...completions];
};

export function decide(command: TasksCommand, state: DailyTasks): TasksEvent[] {
  switch (command.type) {
    case 'AssignDailyTasks':
      return assignDailyTasks(command, state);
    case 'RecordTaskAction':
      return recordTaskAction(command, state);
    default:
      return assertNever(command);
  }
}

export const tasksDecider: Decider<DailyTasks, TasksCommand, TasksEvent> = { initialState, evolve, decide };

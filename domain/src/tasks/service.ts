import { refuse } from '../refuse.ts';
import type { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import { dayKey } from '@scriptorium/infra/time';
import { coinsDecider } from './coinsDecide.ts';
import { coinsStream } from './coins.ts';
import { parsePublicTaskId, publicTaskId, TASK_CATALOGUE, type ActionType } from './catalogue.ts';
import { tasksDecider } from './decide.ts';
import { tasksStream } from './tasks.ts';

export interface TaskActionResult {
  task_id: string;
  completed: boolean;
  /** The reward this action unlocked (to be claimed); 0 when it completed nothing. */
  coins_earned: number;
}

/** Many claims of one user may race on the ledger; each conflict is decided again on the newer state. */
const MAX_ATTEMPTS = 200;

/** Daily tasks and their rewards, for the HTTP routes and the task process manager alike. */
export class TaskService {
  constructor(
    private readonly deps: { commands: CommandHandler; clock: () => Date; timeZone: string },
  ) {}

  today(now = this.deps.clock()): string {
    return dayKey(now, this.deps.timeZone);
  }

  /** Gives the user today's tasks once; later calls the same day change nothing. */
  async ensureDaily(userId: string): Promise<{ day: string; created: boolean; position: number }> {
    const now = this.deps.clock();
    const day = this.today(now);
    const result = await this.deps.commands.handle(
      tasksDecider,
      tasksStream(userId, day),
      { type: 'AssignDailyTasks', data: { userId, day, catalogue: TASK_CATALOGUE }, metadata: { now, userId } },
      { commandId: `assign:${userId}:${day}`, maxAttempts: MAX_ATTEMPTS },
    );
    return { day, created: result.newEvents.length > 0, position: result.position };
  }

  /**
   * Counts an action towards the day's tasks. `commandId` (given when the action comes from an
   * event) makes a replay append nothing; the decider ignores a target already counted either way.
   */
  async recordAction(
    userId: string,
    action: { actionType: ActionType; targetType: string; targetId: string; at?: Date },
    commandId?: string,
  ): Promise<{ results: TaskActionResult[]; position: number }> {
    const now = this.deps.clock();
    const day = this.today(action.at ?? now);
    const result = await this.deps.commands.handle(
      tasksDecider,
      tasksStream(userId, day),
      { type: 'RecordTaskAction', data: { userId, day, catalogue: TASK_CATALOGUE, actionType: action.actionType, targetType: action.targetType, targetId: action.targetId }, metadata: { now, userId } },
      { maxAttempts: MAX_ATTEMPTS, ...(commandId !== undefined && { commandId }) },
    );
    const state = result.newState;
    if (state.status === 'unassigned') return { results: [], position: result.position };
    const unlocked = new Map(result.newEvents.flatMap((event) => (event.type === 'TaskCompleted' ? [[event.data.taskId, event.data.coins] as const] : [])));
    const results = state.tasks
      .filter((task) => task.actionType === action.actionType)
      .map((task) => ({ task_id: publicTaskId(task.taskId, day), completed: state.completed.includes(task.taskId), coins_earned: unlocked.get(task.taskId) ?? 0 }));
    return { results, position: result.position };
  }

  /** Credits a completed task's reward to the ledger, once. */
  async claim(userId: string, id: string): Promise<{ coins: number; balance: number; position: number }> {
    const parsed = parsePublicTaskId(id);
    if (!parsed) throw refuse('not_found', 'tasks.not_found');
    const { state } = await this.deps.commands.load(tasksDecider, tasksStream(userId, parsed.day));
    const task = state.status === 'assigned' ? state.tasks.find((candidate) => candidate.taskId === parsed.taskId) : undefined;
    if (state.status !== 'assigned' || !task) throw refuse('not_found', 'tasks.not_found');
    const completed = state.completed.includes(task.taskId);
    const result = await this.deps.commands.handle(
      coinsDecider,
      coinsStream(userId),
      { type: 'ClaimReward', data: { userId, rewardId: id, taskId: task.taskId, day: parsed.day, coins: task.coins, completed }, metadata: { now: this.deps.clock(), userId } },
      { maxAttempts: MAX_ATTEMPTS },
    );
    return { coins: task.coins, balance: result.newState.balance, position: result.position };
  }
}

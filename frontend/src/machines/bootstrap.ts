import { assign, enqueueActions, fromPromise, sendParent, setup, type SnapshotFrom } from 'xstate';

/** Spec §4 and §9. */
export const DEFAULT_TASK_TIMEOUT_MS = 30_000;
export const DEFAULT_TASK_RETRIES = 2;
/** Wait before retry n (1-based): 1 s, then 2 s. */
export const RETRY_BACKOFF_MS: readonly number[] = [1_000, 2_000];
export const REBOOT_DELAY_MS = 100;
/** A route that brings in more than two new tasks gets a longer pause before re-running. */
export const REBOOT_DELAY_MANY_MS = 300;
export const MANY_ADDED_TASKS = 2;

export interface BootstrapTask {
  id: string;
  run: () => Promise<unknown>;
  dependsOn?: readonly string[];
  /** Which paths the task applies to; absent means every path. */
  appliesTo?: (path: string) => boolean;
  timeoutMs?: number;
  retries?: number;
  /** An optional task's failure is logged and ignored. */
  optional?: boolean;
}

export type TaskStatus = 'pending' | 'running' | 'done' | 'failed' | 'skipped';

export type BootstrapError = { kind: 'cycle'; tasks: string[] } | { kind: 'missing'; task: string; dependency: string } | { kind: 'task'; task: string; message: string };

export const applicableTasks = (tasks: readonly BootstrapTask[], path: string): BootstrapTask[] => tasks.filter((task) => task.appliesTo?.(path) ?? true);

/**
 * Dependency waves: each wave holds the tasks whose dependencies all ran in earlier waves. A
 * dependency on a known task that does not apply to this route is already satisfied; one on an
 * unknown task is an error, and so is a cycle.
 */
export function planWaves(all: readonly BootstrapTask[], applicable: readonly BootstrapTask[]): { waves: string[][] } | { error: BootstrapError } {
  const known = new Set(all.map((task) => task.id));
  const here = new Set(applicable.map((task) => task.id));
  for (const task of applicable) {
    for (const dependency of task.dependsOn ?? []) if (!known.has(dependency)) return { error: { kind: 'missing', task: task.id, dependency } };
  }
  const waves: string[][] = [];
  const placed = new Set<string>();
  let remaining = applicable.slice();
  while (remaining.length > 0) {
    const wave = remaining.filter((task) => (task.dependsOn ?? []).every((dependency) => placed.has(dependency) || !here.has(dependency)));
    if (wave.length === 0) return { error: { kind: 'cycle', tasks: remaining.map((task) => task.id) } };
    for (const task of wave) placed.add(task.id);
    waves.push(wave.map((task) => task.id));
    remaining = remaining.filter((task) => !placed.has(task.id));
  }
  return { waves };
}

export class TaskTimeoutError extends Error {
  constructor(readonly task: string) {
    super(`task timeout: ${task}`);
    this.name = 'TaskTimeoutError';
  }
}

// One task's attempts, timeout and backoff. Its timers run on the system clock, so a simulated clock
// drives them in tests exactly as it drives the parent.
export const taskRunner = setup({
  types: {
    input: {} as { task: BootstrapTask },
    context: {} as { task: BootstrapTask; attempt: number; lastError: string },
  },
  actors: {
    attempt: fromPromise<unknown, { task: BootstrapTask }>(({ input }) => input.task.run()),
  },
  delays: {
    taskTimeout: ({ context }) => context.task.timeoutMs ?? DEFAULT_TASK_TIMEOUT_MS,
    retryBackoff: ({ context }) => RETRY_BACKOFF_MS[Math.min(context.attempt - 1, RETRY_BACKOFF_MS.length - 1)] ?? 0,
  },
  guards: {
    canRetry: ({ context }) => context.attempt <= (context.task.retries ?? DEFAULT_TASK_RETRIES),
  },
  actions: {
    countAttempt: assign({ attempt: ({ context }) => context.attempt + 1 }),
    noteTimeout: assign({ lastError: ({ context }) => new TaskTimeoutError(context.task.id).message }),
    noteError: assign({ lastError: ({ event }) => errorText((event as { error?: unknown }).error) }),
    reportDone: sendParent(({ context }) => ({ type: 'task.succeeded' as const, id: context.task.id })),
    reportFailed: sendParent(({ context }) => ({ type: 'task.failed' as const, id: context.task.id, message: context.lastError })),
  },
}).createMachine({
  id: 'bootstrapTask',
  context: ({ input }) => ({ task: input.task, attempt: 0, lastError: '' }),
  initial: 'attempting',
  states: {
    attempting: {
      entry: 'countAttempt',
      invoke: {
        src: 'attempt',
        input: ({ context }) => ({ task: context.task }),
        onDone: 'succeeded',
        onError: { target: 'attemptFailed', actions: 'noteError' },
      },
      after: { taskTimeout: { target: 'attemptFailed', actions: 'noteTimeout' } },
    },
    attemptFailed: {
      always: [{ guard: 'canRetry', target: 'backingOff' }, { target: 'failed' }],
    },
    backingOff: {
      after: { retryBackoff: 'attempting' },
    },
    succeeded: { type: 'final', entry: 'reportDone' },
    failed: { type: 'final', entry: 'reportFailed' },
  },
});

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export interface BootstrapContext {
  tasks: readonly BootstrapTask[];
  path: string;
  /** Ids of the tasks that apply to `path`, in registration order. */
  applicable: string[];
  waves: string[][];
  wave: number;
  statuses: Record<string, TaskStatus>;
  error: BootstrapError | null;
  /** How many tasks the latest route change added; picks the re-run delay. */
  added: number;
}

export type BootstrapEvent =
  | { type: 'bootstrap.start'; path: string }
  | { type: 'route.changed'; path: string }
  | { type: 'task.succeeded'; id: string }
  | { type: 'task.failed'; id: string; message: string };

const idsFor = (tasks: readonly BootstrapTask[], path: string) => applicableTasks(tasks, path).map((task) => task.id);
const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id) => b.includes(id));

export const bootstrapMachine = setup({
  types: {
    input: {} as { tasks: readonly BootstrapTask[] },
    context: {} as BootstrapContext,
    events: {} as BootstrapEvent,
  },
  actors: { taskRunner },
  delays: {
    rebootDelay: ({ context }) => (context.added > MANY_ADDED_TASKS ? REBOOT_DELAY_MANY_MS : REBOOT_DELAY_MS),
  },
  guards: {
    applicableSetChanged: ({ context, event }) => 'path' in event && !sameSet(context.applicable, idsFor(context.tasks, event.path)),
    planFailed: ({ context }) => context.error !== null,
    waveFinished: ({ context }) => (context.waves[context.wave] ?? []).every((id) => context.statuses[id] !== 'running'),
    hasNextWave: ({ context }) => context.wave + 1 < context.waves.length,
    requiredTaskFailed: ({ context, event }) => event.type === 'task.failed' && !context.tasks.find((task) => task.id === event.id)?.optional,
  },
  actions: {
    takeRoute: assign(({ context, event }) => {
      const path = 'path' in event ? event.path : context.path;
      const applicable = idsFor(context.tasks, path);
      return { path, applicable, added: applicable.filter((id) => !context.applicable.includes(id)).length };
    }),
    followRoute: assign({ path: ({ context, event }) => ('path' in event ? event.path : context.path) }),
    plan: assign(({ context }) => {
      const planned = planWaves(
        context.tasks,
        context.tasks.filter((task) => context.applicable.includes(task.id)),
      );
      const statuses = Object.fromEntries(context.applicable.map((id) => [id, 'pending' as TaskStatus]));
      return 'error' in planned ? { waves: [], wave: 0, statuses, error: planned.error } : { waves: planned.waves, wave: 0, statuses, error: null };
    }),
    startWave: enqueueActions(({ context, enqueue }) => {
      const wave = context.waves[context.wave] ?? [];
      const statuses = { ...context.statuses };
      for (const id of wave) {
        const task = context.tasks.find((candidate) => candidate.id === id);
        if (!task) continue;
        statuses[id] = 'running';
        enqueue.spawnChild('taskRunner', { id: `task-${id}`, input: { task } });
      }
      enqueue.assign({ statuses });
    }),
    nextWave: assign({ wave: ({ context }) => context.wave + 1 }),
    markDone: assign({ statuses: ({ context, event }) => (event.type === 'task.succeeded' ? { ...context.statuses, [event.id]: 'done' } : context.statuses) }),
    markSkipped: assign({ statuses: ({ context, event }) => (event.type === 'task.failed' ? { ...context.statuses, [event.id]: 'skipped' } : context.statuses) }),
    markFailed: assign(({ context, event }) =>
      event.type === 'task.failed' ? { statuses: { ...context.statuses, [event.id]: 'failed' }, error: { kind: 'task', task: event.id, message: event.message } } : {},
    ),
    stopRunners: enqueueActions(({ context, enqueue }) => {
      for (const id of context.applicable) enqueue.stopChild(`task-${id}`);
    }),
    // The spec: bootstrap failure is only logged.
    logFailure: ({ context }) => console.error('引导程序失败', context.error),
    logSkipped: ({ event }) => {
      if (event.type === 'task.failed') console.warn(`optional startup task ${event.id} failed: ${event.message}`);
    },
  },
}).createMachine({
  id: 'bootstrap',
  context: ({ input }) => ({ tasks: input.tasks, path: '', applicable: [], waves: [], wave: 0, statuses: {}, error: null, added: 0 }),
  initial: 'idle',
  on: {
    'route.changed': [
      { guard: 'applicableSetChanged', target: '.rescheduled', actions: ['stopRunners', 'takeRoute'] },
      { actions: 'followRoute' },
    ],
  },
  states: {
    idle: {
      on: { 'bootstrap.start': { target: 'running', actions: 'takeRoute' }, 'route.changed': { actions: 'followRoute' } },
    },
    rescheduled: {
      after: { rebootDelay: 'running' },
    },
    running: {
      entry: 'plan',
      initial: 'checking',
      states: {
        checking: {
          always: [{ guard: 'planFailed', target: '#bootstrap.failed' }, { target: 'wave' }],
        },
        wave: {
          entry: 'startWave',
          always: { guard: 'waveFinished', target: 'waveFinished' },
          on: {
            'task.succeeded': { actions: 'markDone' },
            'task.failed': [
              { guard: 'requiredTaskFailed', target: '#bootstrap.failed', actions: ['markFailed', 'stopRunners'] },
              { actions: ['markSkipped', 'logSkipped'] },
            ],
          },
        },
        waveFinished: {
          always: [{ guard: 'hasNextWave', target: 'wave', actions: 'nextWave' }, { target: '#bootstrap.completed' }],
        },
      },
    },
    completed: {},
    failed: { entry: 'logFailure' },
  },
});

/** "Ready" for the guard: nothing is still starting up (a failure is logged, not blocking). */
export const isSettled = (snapshot: SnapshotFrom<typeof bootstrapMachine>): boolean => snapshot.matches('completed') || snapshot.matches('failed');

import test from 'ava';
import { createActor, SimulatedClock } from 'xstate';
import { bootstrapMachine, planWaves, REBOOT_DELAY_MANY_MS, REBOOT_DELAY_MS, type BootstrapTask } from './bootstrap.ts';

/** Lets promises settle between clock steps (task bodies are real promises). */
const flush = async () => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
};

interface Deferred {
  resolve(): void;
  reject(error: Error): void;
}

/** A task whose every attempt waits for the test to settle it. */
function controlled(id: string, extra: Partial<BootstrapTask> = {}) {
  const attempts: Deferred[] = [];
  const task: BootstrapTask = {
    id,
    run: () =>
      new Promise<void>((resolve, reject) => {
        attempts.push({ resolve, reject });
      }),
    ...extra,
  };
  return { task, attempts };
}

function start(tasks: BootstrapTask[], path = '/research') {
  const clock = new SimulatedClock();
  const quiet = bootstrapMachine.provide({ actions: { logFailure: () => undefined, logSkipped: () => undefined } });
  const actor = createActor(quiet, { clock, input: { tasks } }).start();
  actor.send({ type: 'bootstrap.start', path });
  return { actor, clock };
}

test('waves follow dependencies', (t) => {
  const tasks: BootstrapTask[] = [
    { id: 'realtime', run: async () => undefined, dependsOn: ['auth'] },
    { id: 'auth', run: async () => undefined },
    { id: 'prefs', run: async () => undefined },
  ];
  t.deepEqual(planWaves(tasks, tasks), { waves: [['auth', 'prefs'], ['realtime']] });
});

test('a cycle and a missing dependency are errors', (t) => {
  const cycle: BootstrapTask[] = [
    { id: 'a', run: async () => undefined, dependsOn: ['b'] },
    { id: 'b', run: async () => undefined, dependsOn: ['a'] },
  ];
  t.deepEqual(planWaves(cycle, cycle), { error: { kind: 'cycle', tasks: ['a', 'b'] } });
  const missing: BootstrapTask[] = [{ id: 'a', run: async () => undefined, dependsOn: ['ghost'] }];
  t.deepEqual(planWaves(missing, missing), { error: { kind: 'missing', task: 'a', dependency: 'ghost' } });
  const { actor } = start(cycle);
  t.true(actor.getSnapshot().matches('failed'));
  t.is(actor.getSnapshot().context.error?.kind, 'cycle');
});

test('runs wave by wave to completed', async (t) => {
  const auth = controlled('auth');
  const realtime = controlled('realtime', { dependsOn: ['auth'] });
  const { actor } = start([auth.task, realtime.task]);
  t.true(actor.getSnapshot().matches('running'));
  t.is(realtime.attempts.length, 0, 'realtime waits for auth');
  auth.attempts[0]!.resolve();
  await flush();
  t.is(realtime.attempts.length, 1);
  realtime.attempts[0]!.resolve();
  await flush();
  t.true(actor.getSnapshot().matches('completed'));
  t.deepEqual(actor.getSnapshot().context.statuses, { auth: 'done', realtime: 'done' });
});

test('a task times out, retries after 1 s then 2 s, then fails the bootstrap', async (t) => {
  const auth = controlled('auth', { timeoutMs: 10_000 });
  const { actor, clock } = start([auth.task]);
  t.is(auth.attempts.length, 1);
  clock.increment(10_000);
  await flush();
  clock.increment(999);
  t.is(auth.attempts.length, 1);
  clock.increment(1);
  t.is(auth.attempts.length, 2, 'first retry after 1 s');
  auth.attempts[1]!.reject(new Error('boom'));
  await flush();
  clock.increment(1_999);
  t.is(auth.attempts.length, 2);
  clock.increment(1);
  t.is(auth.attempts.length, 3, 'second retry after 2 s');
  clock.increment(10_000);
  await flush();
  t.true(actor.getSnapshot().matches('failed'));
  t.deepEqual(actor.getSnapshot().context.error, { kind: 'task', task: 'auth', message: 'task timeout: auth' });
  clock.increment(60_000);
  t.is(auth.attempts.length, 3, 'no more than 2 retries');
});

test('the default timeout is 30 s', async (t) => {
  const slow = controlled('slow', { retries: 0 });
  const { actor, clock } = start([slow.task]);
  clock.increment(29_999);
  t.true(actor.getSnapshot().matches('running'));
  clock.increment(1);
  t.true(actor.getSnapshot().matches('failed'));
});

test('an optional task failing is ignored', async (t) => {
  const extra = controlled('extra', { optional: true, retries: 0 });
  const after = controlled('after', { dependsOn: ['extra'] });
  const { actor } = start([extra.task, after.task]);
  extra.attempts[0]!.reject(new Error('no'));
  await flush();
  t.is(actor.getSnapshot().context.statuses.extra, 'skipped');
  after.attempts[0]!.resolve();
  await flush();
  t.true(actor.getSnapshot().matches('completed'));
});

const REALTIME_EXCLUDED = ['/login', '/register', '/welcome', '/auth', '/error', '/'];

test('route filter: the realtime task applies only on /research; a change re-runs after 100 ms', async (t) => {
  let realtimeRuns = 0;
  const tasks: BootstrapTask[] = [
    { id: 'auth', run: async () => undefined },
    { id: 'realtime', dependsOn: ['auth'], appliesTo: (path) => path.startsWith('/research') && !REALTIME_EXCLUDED.includes(path), run: async () => void (realtimeRuns += 1) },
  ];
  const { actor, clock } = start(tasks, '/login');
  await flush();
  t.true(actor.getSnapshot().matches('completed'));
  t.deepEqual(actor.getSnapshot().context.applicable, ['auth']);
  actor.send({ type: 'route.changed', path: '/register' });
  t.true(actor.getSnapshot().matches('completed'), 'same set: nothing to redo');
  actor.send({ type: 'route.changed', path: '/research' });
  t.true(actor.getSnapshot().matches('rescheduled'));
  clock.increment(REBOOT_DELAY_MS - 1);
  t.true(actor.getSnapshot().matches('rescheduled'));
  clock.increment(1);
  await flush();
  t.true(actor.getSnapshot().matches('completed'));
  t.is(realtimeRuns, 1);
});

test('a route bringing in more than two tasks re-runs after 300 ms', async (t) => {
  const only = (path: string) => path === '/note';
  const tasks: BootstrapTask[] = ['a', 'b', 'c'].map((id) => ({ id, appliesTo: only, run: async () => undefined }));
  const { actor, clock } = start(tasks, '/research');
  await flush();
  actor.send({ type: 'route.changed', path: '/note' });
  clock.increment(REBOOT_DELAY_MS);
  t.true(actor.getSnapshot().matches('rescheduled'));
  clock.increment(REBOOT_DELAY_MANY_MS - REBOOT_DELAY_MS);
  await flush();
  t.true(actor.getSnapshot().matches('completed'));
});

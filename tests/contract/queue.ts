import { randomUUID } from 'node:crypto';
import test from 'ava';
import { JobCancelledError, WorkerClosingError } from '@scriptorium/infra/queue/abort';
import type { JobInfo, JobQueue, JobState } from '@scriptorium/infra/queue/port';

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/**
 * Polls until `check` holds. The deadline only turns a hang into a message naming what never
 * happened; nothing asserts how fast anything is.
 */
export async function waitFor(description: string, check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Waits until getJob reports one of `states`, and returns that report. */
export async function waitForState(queue: JobQueue, name: string, id: string, ...states: JobState[]): Promise<JobInfo> {
  let info: JobInfo | null = null;
  await waitFor(`job ${id} ${states.join(' or ')}`, async () => {
    info = await queue.getJob(name, id);
    return info !== null && states.includes(info.state);
  });
  return info!;
}

const finished = (queue: JobQueue, name: string, id: string) => waitForState(queue, name, id, 'completed', 'failed', 'cancelled');

const untilAborted = (signal: AbortSignal) =>
  new Promise<unknown>((resolve) => {
    if (signal.aborted) resolve(signal.reason);
    else signal.addEventListener('abort', () => resolve(signal.reason), { once: true });
  });

const FOREVER = 3_600_000;

/**
 * Registers the JobQueue contract for one adapter. `factory` returns a fresh, open queue; each test
 * uses its own queue name and closes the queue it made.
 */
export function jobQueueContract(adapter: string, factory: () => JobQueue): void {
  const setup = (t: { teardown(fn: () => Promise<void>): void }) => {
    const queue = factory();
    t.teardown(() => queue.close());
    return { queue, name: `contract-${randomUUID()}` };
  };

  test(`${adapter}: runs a job enqueued before any worker and reports its result`, async (t) => {
    const { queue, name } = setup(t);
    await queue.ping();
    // The colon and the integer-looking id are ids BullMQ refuses unencoded.
    t.deepEqual(await queue.enqueue(name, 'greet', { who: 'ada' }, { jobId: 'greet:ada' }), { id: 'greet:ada', created: true });
    t.deepEqual(await queue.enqueue(name, 'greet', { who: 'bo' }, { jobId: '42' }), { id: '42', created: true });
    const generated = await queue.enqueue(name, 'greet', { who: 'cy' });
    t.true(generated.created);
    t.is((await queue.getJob(name, 'greet:ada'))?.state, 'waiting');

    const seen: { id: string; name: string; attempt: number }[] = [];
    queue.process<{ who: string }>(name, async (job) => {
      seen.push({ id: job.id, name: job.name, attempt: job.attempt });
      return { hello: job.data.who };
    });

    t.deepEqual(await finished(queue, name, 'greet:ada'), {
      id: 'greet:ada',
      name: 'greet',
      data: { who: 'ada' },
      state: 'completed',
      progress: 0,
      attemptsMade: 1,
      result: { hello: 'ada' },
    });
    t.like(await finished(queue, name, '42'), { state: 'completed', result: { hello: 'bo' } });
    t.like(await finished(queue, name, generated.id), { state: 'completed', result: { hello: 'cy' } });
    t.deepEqual(seen, [
      { id: 'greet:ada', name: 'greet', attempt: 1 },
      { id: '42', name: 'greet', attempt: 1 },
      { id: generated.id, name: 'greet', attempt: 1 },
    ]);
    t.is(await queue.getJob(name, 'missing'), null);
  });

  test(`${adapter}: an id that still exists is enqueued once, even by racing enqueues`, async (t) => {
    const { queue, name } = setup(t);
    const results = await Promise.all([0, 1, 2, 3, 4].map((i) => queue.enqueue(name, 'once', { i }, { jobId: 'once' })));
    t.deepEqual(results.map((r) => r.id), ['once', 'once', 'once', 'once', 'once']);
    const winner = results.findIndex((r) => r.created);
    t.is(results.filter((r) => r.created).length, 1);

    const runs: unknown[] = [];
    queue.process(name, async (job) => {
      runs.push(job.data);
    });
    t.like(await finished(queue, name, 'once'), { state: 'completed', data: { i: winner } });
    t.deepEqual(await queue.enqueue(name, 'once', { i: 9 }, { jobId: 'once' }), { id: 'once', created: false });

    await queue.enqueue(name, 'sentinel', 'sentinel', { jobId: 'sentinel' });
    await finished(queue, name, 'sentinel');
    t.deepEqual(runs, [{ i: winner }, 'sentinel']);
  });

  test(`${adapter}: retries with backoff until an attempt succeeds`, async (t) => {
    const { queue, name } = setup(t);
    const attempts: number[] = [];
    queue.process(name, async (job) => {
      attempts.push(job.attempt);
      if (job.attempt < 3) throw new Error(`flaky ${job.attempt}`);
      return 'third time';
    });
    await queue.enqueue(name, 'flaky', null, { jobId: 'flaky', attempts: 3, backoff: { type: 'fixed', delay: 10 } });
    t.like(await finished(queue, name, 'flaky'), { state: 'completed', attemptsMade: 3, result: 'third time', error: undefined });
    t.deepEqual(attempts, [1, 2, 3]);
  });

  test(`${adapter}: fails with the last error once the attempts are spent`, async (t) => {
    const { queue, name } = setup(t);
    const attempts: number[] = [];
    queue.process(name, async (job) => {
      attempts.push(job.attempt);
      throw new Error(`boom ${job.attempt}`);
    });
    await queue.enqueue(name, 'doomed', null, { jobId: 'doomed', attempts: 3, backoff: { type: 'exponential', delay: 5 } });
    t.like(await finished(queue, name, 'doomed'), { state: 'failed', attemptsMade: 3, error: 'boom 3', result: undefined });
    t.deepEqual(attempts, [1, 2, 3]);
  });

  test(`${adapter}: a failed attempt waits out its backoff in the delayed state`, async (t) => {
    const { queue, name } = setup(t);
    const attempts: number[] = [];
    queue.process(name, async (job) => {
      attempts.push(job.attempt);
      throw new Error('not yet');
    });
    await queue.enqueue(name, 'patient', null, { jobId: 'patient', attempts: 2, backoff: { type: 'fixed', delay: FOREVER } });
    t.like(await waitForState(queue, name, 'patient', 'delayed'), { attemptsMade: 1 });
    t.deepEqual(attempts, [1]);
    t.true(await queue.cancel(name, 'patient'));
  });

  test(`${adapter}: a delayed job starts only after its delay`, async (t) => {
    const { queue, name } = setup(t);
    const ran: string[] = [];
    queue.process(name, async (job) => {
      ran.push(job.id);
    });
    await queue.enqueue(name, 'later', null, { jobId: 'later', delay: FOREVER });
    await queue.enqueue(name, 'soon', null, { jobId: 'soon', delay: 20 });
    t.is((await queue.getJob(name, 'later'))?.state, 'delayed');
    t.is((await finished(queue, name, 'soon')).state, 'completed');
    t.is((await queue.getJob(name, 'later'))?.state, 'delayed');
    t.deepEqual(ran, ['soon']);
  });

  test(`${adapter}: progress is visible while the job runs`, async (t) => {
    const { queue, name } = setup(t);
    const release = deferred();
    queue.process(name, async (job) => {
      await job.progress({ step: 1, of: 2 });
      await release.promise;
      return 'done';
    });
    await queue.enqueue(name, 'report', null, { jobId: 'report' });
    await waitFor('progress reported', async () => {
      const info = await queue.getJob(name, 'report');
      return info?.state === 'active' && (info.progress as { step?: number }).step === 1;
    });
    t.deepEqual((await queue.getJob(name, 'report'))?.progress, { step: 1, of: 2 });
    release.resolve();
    t.like(await finished(queue, name, 'report'), { state: 'completed', progress: { step: 1, of: 2 }, result: 'done' });
  });

  test(`${adapter}: never runs more handlers at once than the worker's concurrency`, async (t) => {
    const { queue, name } = setup(t);
    const ids = ['c1', 'c2', 'c3', 'c4', 'c5'];
    let running = 0;
    let most = 0;
    const gate = deferred();
    queue.process(
      name,
      async () => {
        running += 1;
        most = Math.max(most, running);
        await gate.promise;
        running -= 1;
      },
      { concurrency: 2 },
    );
    for (const id of ids) await queue.enqueue(name, 'parallel', null, { jobId: id });
    await waitFor('two handlers running', () => running === 2);
    // The rest were offered to the worker and left waiting.
    for (const id of ids.slice(2)) t.is((await queue.getJob(name, id))?.state, 'waiting');
    t.is(running, 2);
    gate.resolve();
    for (const id of ids) t.is((await finished(queue, name, id)).state, 'completed');
    t.is(most, 2);
  });

  test(`${adapter}: cancelling a waiting job removes it for good`, async (t) => {
    const { queue, name } = setup(t);
    await queue.enqueue(name, 'unwanted', { keep: 'me' }, { jobId: 'unwanted' });
    t.true(await queue.cancel(name, 'unwanted'));
    t.deepEqual(await queue.getJob(name, 'unwanted'), {
      id: 'unwanted',
      name: 'unwanted',
      data: { keep: 'me' },
      state: 'cancelled',
      progress: 0,
      attemptsMade: 0,
    });
    t.false(await queue.cancel(name, 'unwanted'));
    t.false(await queue.cancel(name, 'never-enqueued'));
    t.deepEqual(await queue.enqueue(name, 'unwanted', null, { jobId: 'unwanted' }), { id: 'unwanted', created: false });

    const ran: string[] = [];
    queue.process(name, async (job) => {
      ran.push(job.id);
    });
    await queue.enqueue(name, 'wanted', null, { jobId: 'wanted' });
    await finished(queue, name, 'wanted');
    t.deepEqual(ran, ['wanted']);
    t.false(await queue.cancel(name, 'wanted'));
    t.is((await queue.getJob(name, 'unwanted'))?.state, 'cancelled');
  });

  test(`${adapter}: cancelling a running job aborts its signal and no retry follows`, async (t) => {
    const { queue, name } = setup(t);
    const started = deferred();
    const aborted = deferred<unknown>();
    const ran: string[] = [];
    queue.process(name, async (job) => {
      ran.push(job.id);
      if (job.id !== 'long') return 'quick';
      started.resolve();
      aborted.resolve(await untilAborted(job.signal));
      throw new Error('stopped');
    });
    await queue.enqueue(name, 'long', null, { jobId: 'long', attempts: 3 });
    await started.promise;
    t.true(await queue.cancel(name, 'long'));
    const reason = await aborted.promise;
    t.true(reason instanceof JobCancelledError);
    // attemptsMade counts the attempt once the queue has dealt with the handler's failure.
    await waitFor('the cancelled attempt settled', async () => (await queue.getJob(name, 'long'))?.attemptsMade === 1);
    t.like(await queue.getJob(name, 'long'), { state: 'cancelled', attemptsMade: 1, error: undefined });
    t.false(await queue.cancel(name, 'long'));

    // A retry would have been queued before this job.
    await queue.enqueue(name, 'after', null, { jobId: 'after' });
    await finished(queue, name, 'after');
    t.deepEqual(ran, ['long', 'after']);
    t.is((await queue.getJob(name, 'long'))?.state, 'cancelled');
  });

  test(`${adapter}: a cancelled handler that finishes anyway leaves the job cancelled`, async (t) => {
    const { queue, name } = setup(t);
    const started = deferred();
    queue.process(name, async (job) => {
      started.resolve();
      await untilAborted(job.signal);
      return 'finished regardless';
    });
    await queue.enqueue(name, 'stubborn', null, { jobId: 'stubborn', attempts: 2 });
    await started.promise;
    t.true(await queue.cancel(name, 'stubborn'));
    await waitFor('the cancelled attempt settled', async () => (await queue.getJob(name, 'stubborn'))?.attemptsMade === 1);
    t.like(await queue.getJob(name, 'stubborn'), { state: 'cancelled', result: undefined });
  });

  test(`${adapter}: closing a worker aborts its handlers and hands their jobs back unspent`, async (t) => {
    const { queue, name } = setup(t);
    const started = deferred();
    const aborted = deferred<unknown>();
    const first = queue.process(name, async (job) => {
      started.resolve();
      aborted.resolve(await untilAborted(job.signal));
      throw new Error('interrupted');
    });
    await queue.enqueue(name, 'handover', null, { jobId: 'handover', attempts: 1 });
    await started.promise;
    await first.close();
    t.true((await aborted.promise) instanceof WorkerClosingError);
    t.like(await queue.getJob(name, 'handover'), { state: 'waiting', attemptsMade: 0 });

    queue.process(name, async (job) => `attempt ${job.attempt}`);
    t.like(await finished(queue, name, 'handover'), { state: 'completed', result: 'attempt 1', attemptsMade: 1 });
  });

  test(`${adapter}: close aborts running handlers, waits for them and stops the queue`, async (t) => {
    const queue = factory();
    const name = `contract-${randomUUID()}`;
    const started = deferred();
    let reason: unknown;
    let settled = false;
    queue.process(name, async (job) => {
      started.resolve();
      reason = await untilAborted(job.signal);
      settled = true;
      throw new Error('interrupted');
    });
    await queue.enqueue(name, 'running', null, { jobId: 'running' });
    await started.promise;
    await queue.close();
    t.true(settled);
    t.true(reason instanceof WorkerClosingError);
    await queue.close();
    await t.throwsAsync(queue.enqueue(name, 'late', null));
    await t.throwsAsync(queue.ping());
    t.throws(() => queue.process(name, async () => undefined));
  });
}

import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { BullJobQueue } from '@scriptorium/infra/queue/bullmq';
import { lockTimings } from '@scriptorium/infra/queue/index';
import { owned } from '../support/children.ts';
import { waitFor, waitForState } from './queue.ts';
import { deleteKeys, redisAnswers, redisUrl } from './redis.ts';

// Probed before any test is declared: AVA takes declarations only until the first one has run.
const haveRedis = await redisAnswers(redisUrl);

interface ChildEvent {
  event: 'started' | 'aborted';
  id: string;
  attempt?: number;
  reason?: string;
}

/** A worker process from queue-child.ts, with every event it has reported so far. */
function spawnWorker(prefix: string, queueName: string) {
  const child: ChildProcess = owned(
    spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./queue-child.ts', import.meta.url))], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: { ...process.env, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, QUEUE_NAME: queueName },
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const events: ChildEvent[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => events.push(JSON.parse(line) as ChildEvent));
  const exited = once(child, 'exit');
  return {
    events,
    async next(event: ChildEvent['event'], id: string): Promise<ChildEvent> {
      await waitFor(`worker process reports ${event} ${id}`, () => events.some((e) => e.event === event && e.id === id));
      return events.find((e) => e.event === event && e.id === id)!;
    },
    async stop(signal: NodeJS.Signals): Promise<void> {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

test('QUEUE_LOCK_SECONDS bounds the takeover: the lock and one stall check after it fit in it', (t) => {
  for (const seconds of [1, 4, 30]) {
    const { lockDuration, stalledInterval } = lockTimings(seconds);
    // A dead worker's job is moved back at the first stall check after its lock expired.
    t.true(lockDuration + stalledInterval <= seconds * 1000, `${seconds} s`);
    t.true(stalledInterval < lockDuration / 2, 'checked more often than a live worker renews its lock');
  }
});

if (haveRedis) {
  const base = `scriptorium-recovery-${randomUUID()}`;
  test.after.always(() => deleteKeys(redisUrl, base));

  test('a job whose worker process was killed mid-job runs again after the stall check', async (t) => {
    const prefix = `${base}-stall`;
    const name = 'recovery';
    const queue = new BullJobQueue(redisUrl, { prefix, ...lockTimings(1) });
    t.teardown(() => queue.close());
    const worker = spawnWorker(prefix, name);
    t.teardown(() => worker.stop('SIGKILL'));

    await queue.enqueue(name, 'survive', { mode: 'hang' }, { jobId: 'survivor' });
    await worker.next('started', 'survivor');
    await worker.stop('SIGKILL');
    // The dead worker's lock still holds the job until it expires.
    t.is((await queue.getJob(name, 'survivor'))?.state, 'active');

    const attempts: number[] = [];
    queue.process(name, async (job) => {
      attempts.push(job.attempt);
      return 'recovered';
    });
    t.like(await waitForState(queue, name, 'survivor', 'completed', 'failed'), { state: 'completed', result: 'recovered' });
    // A stall is not a failed attempt: the rerun is still the first.
    t.deepEqual(attempts, [1]);
  });

  test('a cancel from one process aborts the job running in another, with no retry', async (t) => {
    const prefix = `${base}-cancel`;
    const name = 'remote-cancel';
    const queue = new BullJobQueue(redisUrl, { prefix });
    t.teardown(() => queue.close());
    const worker = spawnWorker(prefix, name);
    t.teardown(() => worker.stop('SIGKILL'));

    await queue.enqueue(name, 'victim', { mode: 'abortable' }, { jobId: 'victim', attempts: 3 });
    await worker.next('started', 'victim');
    t.true(await queue.cancel(name, 'victim'));
    t.is((await worker.next('aborted', 'victim')).reason, 'JobCancelledError');
    await waitFor('the cancelled attempt settled', async () => (await queue.getJob(name, 'victim'))?.attemptsMade === 1);
    t.is((await queue.getJob(name, 'victim'))?.state, 'cancelled');

    // A retry would have been queued before this job.
    await queue.enqueue(name, 'after', { mode: 'quick' }, { jobId: 'after' });
    t.is((await waitForState(queue, name, 'after', 'completed', 'failed')).state, 'completed');
    t.deepEqual(
      worker.events.filter((e) => e.event === 'started').map((e) => e.id),
      ['victim', 'after'],
    );
    await worker.stop('SIGTERM');
  });
} else {
  console.log(`queue contract: BullMQ recovery tests skipped (no Redis at ${redisUrl})`);
  test.skip('BullMQ: worker death and cross-process cancel (no Redis)', () => {});
}

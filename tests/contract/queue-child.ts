/**
 * A BullMQ worker in its own process, for queue-recovery.test.ts: it reports what its handler does
 * as JSON lines on stdout, so the test can kill it mid-job or cancel its job from another process.
 */
import { BullJobQueue } from '@scriptorium/infra/queue/bullmq';
import { lockTimings } from '@scriptorium/infra/queue/index';

const { REDIS_URL, QUEUE_PREFIX, QUEUE_NAME } = process.env;
if (!REDIS_URL || !QUEUE_PREFIX || !QUEUE_NAME) throw new Error('REDIS_URL, QUEUE_PREFIX and QUEUE_NAME are required');

const report = (event: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(event)}\n`);

// A short lock, so that a killed worker's job is free soon after it dies: the product's timings for
// one second. The stall check interval is shared through Redis (whichever worker checks last sets
// when the next check may run), so this worker uses the test's short one too.
const queue = new BullJobQueue(REDIS_URL, { prefix: QUEUE_PREFIX, ...lockTimings(1) });

queue.process<{ mode: 'hang' | 'abortable' | 'quick' }>(QUEUE_NAME, async (job) => {
  report({ event: 'started', id: job.id, attempt: job.attempt });
  if (job.data.mode === 'hang') return new Promise(() => {});
  if (job.data.mode === 'abortable') {
    const reason = await new Promise<unknown>((resolve) => job.signal.addEventListener('abort', () => resolve(job.signal.reason), { once: true }));
    report({ event: 'aborted', id: job.id, reason: reason instanceof Error ? reason.name : String(reason) });
    throw new Error('aborted');
  }
  return 'quick';
});

process.once('SIGTERM', () => {
  queue.close().then(() => process.exit(0), () => process.exit(1));
});

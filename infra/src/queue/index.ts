import { InProcessJobQueue } from './inprocess.ts';
import type { JobQueue } from './port.ts';

export type * from './port.ts';
export { JobCancelledError, WorkerClosingError } from './abort.ts';

/**
 * BullMQ's lock and stall check for `QUEUE_LOCK_SECONDS`, the longest a dead worker's job may wait
 * before another worker takes it over. A job is moved back once its lock has expired and a stall
 * check has run since, so the worst case is lock + interval: the lock gets three quarters of the
 * time (renewed every half of it by a live worker) and the check runs every quarter.
 */
export function lockTimings(seconds: number): { lockDuration: number; stalledInterval: number } {
  const total = seconds * 1000;
  const stalledInterval = Math.max(1, Math.floor(total / 4));
  return { lockDuration: total - stalledInterval, stalledInterval };
}

/** BullMQ when REDIS_URL is set, so several processes share the queue; otherwise the in-process queue (and BullMQ's modules stay unloaded). */
export async function createJobQueue(
  config: { REDIS_URL?: string | undefined; QUEUE_PREFIX?: string | undefined; QUEUE_LOCK_SECONDS?: number | undefined },
  options: { onError?: (error: Error) => void } = {},
): Promise<JobQueue> {
  if (!config.REDIS_URL) return new InProcessJobQueue();
  const lock = config.QUEUE_LOCK_SECONDS === undefined ? {} : lockTimings(config.QUEUE_LOCK_SECONDS);
  const { BullJobQueue } = await import('./bullmq.ts');
  return new BullJobQueue(config.REDIS_URL, { ...options, ...lock, ...(config.QUEUE_PREFIX === undefined ? {} : { prefix: config.QUEUE_PREFIX }) });
}

import { InProcessJobQueue } from './inprocess.ts';
import type { JobQueue } from './port.ts';

export type * from './port.ts';
export { JobCancelledError, WorkerClosingError } from './abort.ts';

/** BullMQ when REDIS_URL is set, so several processes share the queue; otherwise the in-process queue (and BullMQ's modules stay unloaded). */
export async function createJobQueue(
  config: { REDIS_URL?: string | undefined; QUEUE_PREFIX?: string | undefined; QUEUE_LOCK_SECONDS?: number | undefined },
  options: { onError?: (error: Error) => void } = {},
): Promise<JobQueue> {
  if (!config.REDIS_URL) return new InProcessJobQueue();
  const lock = config.QUEUE_LOCK_SECONDS === undefined ? {} : { lockDuration: config.QUEUE_LOCK_SECONDS * 1000, stalledInterval: config.QUEUE_LOCK_SECONDS * 1000 };
  const { BullJobQueue } = await import('./bullmq.ts');
  return new BullJobQueue(config.REDIS_URL, { ...options, ...lock, ...(config.QUEUE_PREFIX === undefined ? {} : { prefix: config.QUEUE_PREFIX }) });
}

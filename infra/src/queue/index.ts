import { BullJobQueue } from './bullmq.ts';
import { InProcessJobQueue } from './inprocess.ts';
import type { JobQueue } from './port.ts';

export type * from './port.ts';
export { JobCancelledError, WorkerClosingError } from './abort.ts';

/** BullMQ when REDIS_URL is set, so several processes share the queue; otherwise the in-process queue. */
export function createJobQueue(config: { REDIS_URL?: string | undefined }, options: { onError?: (error: Error) => void } = {}): JobQueue {
  return config.REDIS_URL ? new BullJobQueue(config.REDIS_URL, options) : new InProcessJobQueue();
}

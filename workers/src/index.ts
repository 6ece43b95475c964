import type { JobQueue, QueueWorker } from '@scriptorium/infra/queue/port';
import type { Logger } from '@scriptorium/infra/log';
import { jobKinds, AGENT_QUEUE } from './jobs.ts';

export interface WorkerDeps {
  queue: JobQueue;
  log: Logger;
}

/** The worker role: takes agent jobs from the queue. Concurrency bounds model calls per process. */
export function startWorkers(deps: WorkerDeps, concurrency = 8): QueueWorker {
  return deps.queue.process(
    AGENT_QUEUE,
    async (job) => {
      const kind = jobKinds.get(job.name);
      if (!kind) throw new Error(`unknown job ${job.name}`);
      return kind(job);
    },
    { concurrency },
  );
}

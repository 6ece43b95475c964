import { randomUUID } from 'node:crypto';
import {
  Queue,
  UnrecoverableError,
  WaitingError,
  Worker,
  type Job,
  type JobProgress,
  type JobsOptions,
  type JobState as BullState,
} from 'bullmq';
import { Redis } from 'ioredis';
import { JobCancelledError, WorkerClosingError } from './abort.ts';
import type { EnqueueOptions, JobContext, JobHandler, JobInfo, JobQueue, JobState, QueueWorker } from './port.ts';

export interface BullJobQueueOptions {
  /** Redis key prefix; BullMQ's own default is `bull`. */
  prefix?: string;
  /** ms between checks for jobs whose worker stopped renewing its lock (BullMQ default 30000). */
  stalledInterval?: number;
  /** ms a worker's lock on a job lasts unless renewed; a dead worker's job is free after it (BullMQ default 30000). */
  lockDuration?: number;
  /** Connection and lock-renewal errors. They do not fail jobs by themselves. */
  onError?: (error: Error) => void;
}

/** What a cancel marker holds: enough to answer getJob after a waiting job was removed from BullMQ. */
interface Snapshot {
  name: string;
  data: unknown;
  progress: unknown;
  attemptsMade: number;
}

interface LocalWorker {
  queue: string;
  worker: Worker;
  /** The jobs this worker is running, each settled once its job is finished, failed or back to waiting. */
  running: Set<Promise<unknown>>;
  closing?: Promise<void>;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * BullMQ refuses custom ids that parse as integers or contain `:` (its key separator). Ids are stored
 * percent-encoded, with the first character of an integer-looking id encoded too, so that
 * decodeURIComponent gives every id back unchanged.
 */
const toBullId = (id: string): string => {
  const escaped = id.replace(/[%:]/g, (char) => (char === '%' ? '%25' : '%3A'));
  if (`${parseInt(escaped, 10)}` !== escaped) return escaped;
  return `%${escaped.charCodeAt(0).toString(16).toUpperCase()}${escaped.slice(1)}`;
};

const fromBullId = (bullId: string): string => decodeURIComponent(bullId);

const CANCELLED = 'cancelled';

/**
 * BullMQ hands its reason argument to AbortController.abort unchanged (signal.reason), but types it as
 * a string; handlers get the same Error reasons as with the in-process queue.
 */
const abortReason = (reason: Error): string => reason as unknown as string;

/**
 * Marks a job cancelled unless it has already finished, atomically with BullMQ's own scripts, so a
 * job that completes while we cancel it is never reported as cancelled.
 * KEYS: job hash, completed set, failed set, cancel markers. ARGV: job id, snapshot.
 */
const MARK_CANCELLED = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('ZSCORE', KEYS[2], ARGV[1]) or redis.call('ZSCORE', KEYS[3], ARGV[1]) then return 0 end
return redis.call('HSETNX', KEYS[4], ARGV[1], ARGV[2])
`;

const toState = (state: BullState | 'unknown'): JobState | null => {
  switch (state) {
    case 'waiting':
    case 'prioritized':
    case 'waiting-children':
      return 'waiting';
    case 'delayed':
    case 'active':
    case 'completed':
    case 'failed':
      return state;
    case 'unknown':
      return null;
  }
};

/**
 * How long BullMQ keeps finished jobs in Redis (without it, every job ever run stays there). A job id
 * stays taken while its job is kept, so a retried enqueue within a day is still recognised; failed
 * jobs stay a week for whoever looks into them.
 */
export const JOB_RETENTION = {
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 5000 },
} as const satisfies Pick<JobsOptions, 'removeOnComplete' | 'removeOnFail'>;

/**
 * The JobQueue on BullMQ. BullMQ's own `worker.cancelJob` only reaches jobs running in the calling
 * process, so a cancel is a marker in Redis (read by getJob, and by every handler start) plus a
 * message on a pub/sub channel that each process with workers listens to and turns into
 * `cancelJob`. A cancelled handler's job fails with UnrecoverableError, so no retry follows.
 */
export class BullJobQueue implements JobQueue {
  readonly #url: string;
  readonly #prefix: string;
  readonly #stalledInterval: number | undefined;
  readonly #lockDuration: number | undefined;
  readonly #onError: (error: Error) => void;
  readonly #redis: Redis;
  readonly #queues = new Map<string, Queue>();
  readonly #workers = new Set<LocalWorker>();
  #subscriber: { client: Redis; ready: Promise<unknown> } | undefined;
  #closing: Promise<void> | undefined;

  constructor(redisUrl: string, options: BullJobQueueOptions = {}) {
    this.#url = redisUrl;
    this.#prefix = options.prefix ?? 'bull';
    this.#stalledInterval = options.stalledInterval;
    this.#lockDuration = options.lockDuration;
    this.#onError = options.onError ?? ((error) => console.error(`job queue: ${error.message}`));
    this.#redis = new Redis(redisUrl);
    this.#redis.on('error', this.#onError);
  }

  get #channel(): string {
    return `${this.#prefix}:scriptorium:cancel`;
  }

  // Two segments after the queue name: job ids are encoded without ':', so no job key can collide.
  #cancelKey(queue: string): string {
    return `${this.#prefix}:${queue}:scriptorium:cancelled`;
  }

  async enqueue<Data>(queueName: string, name: string, data: Data, options: EnqueueOptions = {}): Promise<{ id: string; created: boolean }> {
    this.#assertOpen();
    const id = options.jobId ?? randomUUID();
    const bullId = toBullId(id);
    const queue = this.#queue(queueName);
    // A cancelled waiting job is gone from BullMQ; its marker keeps the id taken, as for any other job.
    if (await this.#redis.hexists(this.#cancelKey(queueName), bullId)) return { id, created: false };
    const enqueueId = randomUUID();
    const jobOptions: JobsOptions & { enqueueId: string } = {
      jobId: bullId,
      ...JOB_RETENTION,
      attempts: Math.max(1, options.attempts ?? 1),
      enqueueId,
      ...(options.backoff ? { backoff: options.backoff } : {}),
      ...(options.delay ? { delay: options.delay } : {}),
    };
    await queue.add(name, data, jobOptions);
    // BullMQ answers a duplicate id with the existing job's id and nothing else; the options stored
    // with the job say whose add created it, even when two enqueues race.
    const storedOptions = await this.#redis.hget(queue.toKey(bullId), 'opts');
    const created = storedOptions !== null && (JSON.parse(storedOptions) as { enqueueId?: string }).enqueueId === enqueueId;
    return { id, created };
  }

  process<Data>(queueName: string, handler: JobHandler<Data>, options: { concurrency?: number } = {}): QueueWorker {
    this.#assertOpen();
    const worker = new Worker(
      queueName,
      // Three parameters: BullMQ only creates an AbortSignal for processors that declare it.
      (job: Job, token?: string, signal?: AbortSignal) => {
        const run = this.#run(local, handler as JobHandler<unknown>, job, token, signal);
        local.running.add(run);
        return run.finally(() => local.running.delete(run));
      },
      {
        connection: { url: this.#url, maxRetriesPerRequest: null },
        prefix: this.#prefix,
        concurrency: Math.max(1, options.concurrency ?? 1),
        autorun: false,
        ...(this.#stalledInterval !== undefined ? { stalledInterval: this.#stalledInterval } : {}),
        ...(this.#lockDuration !== undefined ? { lockDuration: this.#lockDuration } : {}),
      },
    );
    worker.on('error', this.#onError);
    const local: LocalWorker = { queue: queueName, worker, running: new Set() };
    this.#workers.add(local);
    // No job starts before this process hears cancel messages.
    this.#subscribe().then(() => {
      if (!local.closing) worker.run().catch(this.#onError);
    }, this.#onError);
    return { close: () => this.#closeWorker(local) };
  }

  async cancel(queueName: string, jobId: string): Promise<boolean> {
    this.#assertOpen();
    const bullId = toBullId(jobId);
    const queue = this.#queue(queueName);
    const job = await queue.getJob(bullId);
    if (!job) return false;
    const snapshot: Snapshot = { name: job.name, data: job.data, progress: job.progress, attemptsMade: job.attemptsMade };
    const marked = await this.#redis.eval(
      MARK_CANCELLED,
      4,
      queue.toKey(bullId),
      queue.toKey('completed'),
      queue.toKey('failed'),
      this.#cancelKey(queueName),
      bullId,
      JSON.stringify(snapshot),
    );
    if (marked !== 1) return false;
    // Removal fails only while a worker holds the job's lock: then it runs somewhere and is aborted there.
    if ((await queue.remove(bullId)) === 1) return true;
    await this.#redis.publish(this.#channel, JSON.stringify({ queue: queueName, id: bullId }));
    return true;
  }

  async getJob(queueName: string, jobId: string): Promise<JobInfo | null> {
    this.#assertOpen();
    const bullId = toBullId(jobId);
    const queue = this.#queue(queueName);
    // State before the job's fields: what is read second is at least as new, so a completed job
    // comes with its result and a retrying one with its attempt counted.
    const [bullState, marker] = await Promise.all([queue.getJobState(bullId), this.#redis.hget(this.#cancelKey(queueName), bullId)]);
    const job = await queue.getJob(bullId);
    if (marker !== null) {
      const snapshot: Snapshot = job
        ? { name: job.name, data: job.data, progress: job.progress, attemptsMade: job.attemptsMade }
        : (JSON.parse(marker) as Snapshot);
      return { id: jobId, ...snapshot, state: 'cancelled' };
    }
    const state = toState(bullState);
    if (!job || !state) return null;
    return {
      id: jobId,
      name: job.name,
      data: job.data,
      state,
      progress: job.progress,
      attemptsMade: job.attemptsMade,
      ...(state === 'completed' ? { result: job.returnvalue } : {}),
      ...(state === 'failed' ? { error: job.failedReason } : {}),
    };
  }

  async ping(): Promise<void> {
    this.#assertOpen();
    await this.#redis.ping();
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      await Promise.all([...this.#workers].map((local) => this.#closeWorker(local)));
      await Promise.all([...this.#queues.values()].map((queue) => queue.close()));
      if (this.#subscriber) await this.#subscriber.client.quit();
      await this.#redis.quit();
    })();
    return this.#closing;
  }

  #assertOpen(): void {
    if (this.#closing) throw new Error('the job queue is closed');
  }

  #queue(name: string): Queue {
    let queue = this.#queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.#redis, prefix: this.#prefix });
      queue.on('error', this.#onError);
      this.#queues.set(name, queue);
    }
    return queue;
  }

  #subscribe(): Promise<unknown> {
    if (!this.#subscriber) {
      const client = new Redis(this.#url, { maxRetriesPerRequest: null });
      client.on('error', this.#onError);
      client.on('message', (_channel: string, message: string) => this.#abortLocal(message));
      this.#subscriber = { client, ready: client.subscribe(this.#channel) };
    }
    return this.#subscriber.ready;
  }

  #abortLocal(message: string): void {
    const { queue, id } = JSON.parse(message) as { queue: string; id: string };
    for (const local of this.#workers) {
      if (local.queue === queue) local.worker.cancelJob(id, abortReason(new JobCancelledError(fromBullId(id))));
    }
  }

  async #run(local: LocalWorker, handler: JobHandler<unknown>, job: Job, token: string | undefined, signal: AbortSignal | undefined): Promise<unknown> {
    const bullId = job.id;
    if (bullId === undefined || token === undefined || signal === undefined) {
      throw new UnrecoverableError('BullMQ ran the job without an id, a lock token or an AbortSignal');
    }
    // Fetched while the worker was closing (a blocking fetch already under way): back to waiting, untouched.
    if (local.closing) {
      await job.moveToWait(token);
      throw new WaitingError();
    }
    // A cancel whose message arrived before this job was tracked left its marker; the job never starts.
    if (await this.#redis.hexists(this.#cancelKey(job.queueName), bullId)) throw new UnrecoverableError(CANCELLED);
    const context: JobContext<unknown> = {
      id: fromBullId(bullId),
      name: job.name,
      data: job.data,
      attempt: job.attemptsMade + 1,
      signal,
      progress: (value) => job.updateProgress(value as JobProgress),
    };
    let outcome: Outcome;
    try {
      outcome = { ok: true, value: await handler(context) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    if (signal.reason instanceof JobCancelledError) throw new UnrecoverableError(CANCELLED);
    if (outcome.ok) return outcome.value;
    if (signal.reason instanceof WorkerClosingError) {
      // Interrupted by a shutdown, not failed: back to waiting without spending an attempt.
      await job.moveToWait(token);
      throw new WaitingError();
    }
    throw outcome.error instanceof Error ? outcome.error : new Error(String(outcome.error));
  }

  /**
   * Not BullMQ's graceful close: after Redis went away and came back, its blocking client can sit in
   * `reconnecting` with no socket, and close() waits for an end that never comes while the lock
   * timers keep the process alive (taskforcesh/bullmq#4585, #4656). The jobs are this queue's to
   * wait for: stop fetching, abort the running handlers, let each put its job back, then close
   * without waiting on the blocking client.
   */
  #closeWorker(local: LocalWorker): Promise<void> {
    local.closing ??= (async () => {
      await local.worker.pause(true);
      local.worker.cancelAllJobs(abortReason(new WorkerClosingError()));
      await Promise.allSettled(local.running);
      await local.worker.close(true);
    })().finally(() => this.#workers.delete(local));
    return local.closing;
  }
}

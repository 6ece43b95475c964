import { randomUUID } from 'node:crypto';
import { JobCancelledError, WorkerClosingError } from './abort.ts';
import type { Backoff, EnqueueOptions, JobContext, JobHandler, JobInfo, JobQueue, JobState, QueueWorker } from './port.ts';

interface StoredJob {
  id: string;
  name: string;
  data: unknown;
  state: JobState;
  progress: unknown;
  attemptsMade: number;
  result?: unknown;
  error?: string;
  attempts: number;
  backoff?: Backoff;
  timer?: NodeJS.Timeout;
  /** Set while a handler runs, even after a cancel has already marked the job cancelled. */
  run?: AbortController;
}

interface LocalWorker {
  handler: JobHandler<unknown>;
  concurrency: number;
  runs: Map<AbortController, Promise<void>>;
  closing?: Promise<void>;
}

interface NamedQueue {
  jobs: Map<string, StoredJob>;
  waiting: StoredJob[];
  workers: Set<LocalWorker>;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** What BullMQ would hand back after storing a value as JSON in Redis, so both adapters behave alike. */
const stored = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

const backoffDelay = (backoff: Backoff | undefined, attemptsMade: number): number => {
  if (!backoff) return 0;
  return backoff.type === 'fixed' ? backoff.delay : backoff.delay * 2 ** (attemptsMade - 1);
};

/**
 * The JobQueue for one process with BullMQ's semantics: ids dedupe for as long as the queue lives,
 * retries with backoff, delays, progress, per-worker concurrency and cancellation. Nothing survives
 * the process, which is why the design gives it to single-machine runs only.
 */
export class InProcessJobQueue implements JobQueue {
  readonly #queues = new Map<string, NamedQueue>();
  #closing: Promise<void> | undefined;

  async enqueue<Data>(queue: string, name: string, data: Data, options: EnqueueOptions = {}): Promise<{ id: string; created: boolean }> {
    this.#assertOpen();
    const named = this.#queue(queue);
    const id = options.jobId ?? randomUUID();
    if (named.jobs.has(id)) return { id, created: false };
    const job: StoredJob = {
      id,
      name,
      data: stored(data),
      state: 'waiting',
      progress: 0,
      attemptsMade: 0,
      attempts: Math.max(1, options.attempts ?? 1),
      ...(options.backoff ? { backoff: options.backoff } : {}),
    };
    named.jobs.set(id, job);
    this.#schedule(named, job, options.delay ?? 0);
    return { id, created: true };
  }

  process<Data>(queue: string, handler: JobHandler<Data>, options: { concurrency?: number } = {}): QueueWorker {
    this.#assertOpen();
    const named = this.#queue(queue);
    const worker: LocalWorker = {
      handler: handler as JobHandler<unknown>,
      concurrency: Math.max(1, options.concurrency ?? 1),
      runs: new Map(),
    };
    named.workers.add(worker);
    this.#dispatch(named);
    return { close: () => this.#closeWorker(named, worker) };
  }

  async cancel(queue: string, jobId: string): Promise<boolean> {
    this.#assertOpen();
    const named = this.#queues.get(queue);
    const job = named?.jobs.get(jobId);
    if (!named || !job) return false;
    switch (job.state) {
      case 'waiting':
        named.waiting.splice(named.waiting.indexOf(job), 1);
        job.state = 'cancelled';
        return true;
      case 'delayed':
        clearTimeout(job.timer);
        delete job.timer;
        job.state = 'cancelled';
        return true;
      case 'active':
        job.state = 'cancelled';
        job.run?.abort(new JobCancelledError(jobId));
        return true;
      default:
        return false;
    }
  }

  async getJob(queue: string, jobId: string): Promise<JobInfo | null> {
    this.#assertOpen();
    const job = this.#queues.get(queue)?.jobs.get(jobId);
    if (!job) return null;
    return {
      id: job.id,
      name: job.name,
      data: stored(job.data),
      state: job.state,
      progress: stored(job.progress),
      attemptsMade: job.attemptsMade,
      ...(job.state === 'completed' ? { result: stored(job.result) } : {}),
      ...(job.state === 'failed' ? { error: job.error } : {}),
    };
  }

  async ping(): Promise<void> {
    this.#assertOpen();
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      const closing: Promise<void>[] = [];
      for (const named of this.#queues.values()) {
        for (const job of named.jobs.values()) clearTimeout(job.timer);
        for (const worker of named.workers) closing.push(this.#closeWorker(named, worker));
      }
      await Promise.all(closing);
    })();
    return this.#closing;
  }

  #assertOpen(): void {
    if (this.#closing) throw new Error('the job queue is closed');
  }

  #queue(name: string): NamedQueue {
    let named = this.#queues.get(name);
    if (!named) {
      named = { jobs: new Map(), waiting: [], workers: new Set() };
      this.#queues.set(name, named);
    }
    return named;
  }

  #schedule(named: NamedQueue, job: StoredJob, delay: number): void {
    if (delay <= 0) {
      job.state = 'waiting';
      named.waiting.push(job);
      this.#dispatch(named);
      return;
    }
    job.state = 'delayed';
    // A closed queue starts no timers: they would keep the process alive for jobs nobody will run.
    if (this.#closing) return;
    job.timer = setTimeout(() => {
      delete job.timer;
      job.state = 'waiting';
      named.waiting.push(job);
      this.#dispatch(named);
    }, delay);
  }

  #dispatch(named: NamedQueue): void {
    for (const worker of named.workers) {
      while (!worker.closing && worker.runs.size < worker.concurrency && named.waiting.length > 0) {
        this.#run(named, worker, named.waiting.shift()!);
      }
    }
  }

  #run(named: NamedQueue, worker: LocalWorker, job: StoredJob): void {
    const controller = new AbortController();
    job.state = 'active';
    job.run = controller;
    const context: JobContext<unknown> = {
      id: job.id,
      name: job.name,
      data: stored(job.data),
      attempt: job.attemptsMade + 1,
      signal: controller.signal,
      progress: async (value) => {
        if (job.run === controller) job.progress = stored(value);
      },
    };
    const settled = (async () => {
      let outcome: Outcome;
      try {
        // Started on a later tick, as BullMQ would: enqueue returns before any handler code runs.
        outcome = { ok: true, value: await Promise.resolve().then(() => worker.handler(context)) };
      } catch (error) {
        outcome = { ok: false, error };
      }
      worker.runs.delete(controller);
      delete job.run;
      this.#settle(named, job, controller.signal, outcome);
      this.#dispatch(named);
    })();
    worker.runs.set(controller, settled);
  }

  #settle(named: NamedQueue, job: StoredJob, signal: AbortSignal, outcome: Outcome): void {
    if (signal.reason instanceof JobCancelledError) {
      job.attemptsMade += 1;
      return;
    }
    if (outcome.ok) {
      job.attemptsMade += 1;
      job.state = 'completed';
      job.result = stored(outcome.value);
      return;
    }
    if (signal.reason instanceof WorkerClosingError) {
      // Interrupted by a shutdown, not failed: it goes back unspent, first in line.
      job.state = 'waiting';
      named.waiting.unshift(job);
      return;
    }
    job.attemptsMade += 1;
    job.error = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
    if (job.attemptsMade < job.attempts) this.#schedule(named, job, backoffDelay(job.backoff, job.attemptsMade));
    else job.state = 'failed';
  }

  #closeWorker(named: NamedQueue, worker: LocalWorker): Promise<void> {
    if (!worker.closing) {
      named.workers.delete(worker);
      for (const controller of worker.runs.keys()) controller.abort(new WorkerClosingError());
      worker.closing = Promise.all(worker.runs.values()).then(() => undefined);
    }
    return worker.closing;
  }
}

/**
 * The JobQueue port: at-least-once jobs with ids for dedupe, retries with backoff, progress and
 * cancellation. Handlers must be idempotent: a job may run again after a crash.
 */

export interface Backoff {
  type: 'fixed' | 'exponential';
  /** ms; exponential doubles it each retry. */
  delay: number;
}

export interface EnqueueOptions {
  /** A second enqueue with the id of a job that still exists does nothing. */
  jobId?: string;
  /** Total tries including the first. Default 1. */
  attempts?: number;
  backoff?: Backoff;
  /** ms before the job may start. */
  delay?: number;
}

export type JobState = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed' | 'cancelled';

export interface JobInfo<Data = unknown> {
  id: string;
  name: string;
  data: Data;
  state: JobState;
  progress: unknown;
  attemptsMade: number;
  result?: unknown;
  error?: string;
}

export interface JobContext<Data = unknown> {
  id: string;
  name: string;
  data: Data;
  /** 1 for the first try. */
  attempt: number;
  /** Aborted when the job is cancelled (or the worker is closing). */
  signal: AbortSignal;
  progress(value: unknown): Promise<void>;
}

export type JobHandler<Data = unknown> = (job: JobContext<Data>) => Promise<unknown>;

export interface QueueWorker {
  close(): Promise<void>;
}

export interface JobQueue {
  enqueue<Data>(queue: string, name: string, data: Data, options?: EnqueueOptions): Promise<{ id: string; created: boolean }>;
  process<Data>(queue: string, handler: JobHandler<Data>, options?: { concurrency?: number }): QueueWorker;
  /** Cancels a waiting job, or aborts a running one (its handler sees `signal` abort). No retry follows. */
  cancel(queue: string, jobId: string): Promise<boolean>;
  getJob(queue: string, jobId: string): Promise<JobInfo | null>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

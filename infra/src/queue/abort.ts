/**
 * Reasons a job's `signal` is aborted with, so a handler (and the adapters) can tell a cancel, after
 * which the job is over, from a worker shutting down, after which the job runs again elsewhere.
 */

export class JobCancelledError extends Error {
  override readonly name = 'JobCancelledError';
  constructor(readonly jobId: string) {
    super(`job ${jobId} was cancelled`);
  }
}

export class WorkerClosingError extends Error {
  override readonly name = 'WorkerClosingError';
  constructor() {
    super('the worker is closing; the job will run again');
  }
}

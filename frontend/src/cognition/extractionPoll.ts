import type { ExtractionStatus } from '@scriptorium/domain/protocol/http/cognition';
export type { ExtractionStatus } from '@scriptorium/domain/protocol/http/cognition';
export type ExtractionState = ExtractionStatus['status'];

export const POLL_INTERVAL_MS = 1000;
/** Reads that may fail in a row (a dropped connection, a restarting server) before polling gives up. */
export const POLL_FAILURES_TOLERATED = 3;

export const isSettled = (status: ExtractionState): boolean => status === 'completed' || status === 'failed';

export interface PollOptions {
  signal?: AbortSignal | undefined;
  intervalMs?: number;
  /** Every status read, settled or not, so a screen can show pending → running. */
  onStatus?: (status: ExtractionStatus) => void;
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Reads an extraction's status about once a second until it is completed or failed, and resolves
 * with that last status. Aborting the signal stops it at once (rejecting with the signal's reason).
 * A failed read is retried; only several in a row end the wait with the last error.
 */
export async function pollExtraction(read: (signal: AbortSignal | undefined) => Promise<ExtractionStatus>, options: PollOptions = {}): Promise<ExtractionStatus> {
  const { signal, intervalMs = POLL_INTERVAL_MS, onStatus } = options;
  let failures = 0;
  for (;;) {
    if (signal?.aborted) throw signal.reason;
    try {
      const status = await read(signal);
      failures = 0;
      onStatus?.(status);
      if (isSettled(status.status)) return status;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      failures += 1;
      if (failures >= POLL_FAILURES_TOLERATED) throw error;
    }
    await pause(intervalMs, signal);
  }
}

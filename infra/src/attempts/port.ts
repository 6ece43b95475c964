/**
 * The AttemptLog port: when attempts (failed sign-ins, say) happened under a key, over a sliding
 * window. Adapters: in memory (one process) and Redis (every api process counts together).
 */
export interface AttemptLog {
  /** For each key, the times (ms) of its attempts after `now - windowMs`, oldest first. */
  recent(keys: readonly string[], now: number, windowMs: number): Promise<number[][]>;
  /** Records one attempt at `now` under each key; attempts older than the window may be forgotten. */
  add(keys: readonly string[], now: number, windowMs: number): Promise<void>;
  clear(key: string): Promise<void>;
  close(): Promise<void>;
}

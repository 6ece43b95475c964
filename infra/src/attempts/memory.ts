import type { AttemptLog } from './port.ts';

/** Attempts kept in this process, oldest keys forgotten first beyond `maxKeys`. */
export class MemoryAttemptLog implements AttemptLog {
  private readonly attempts = new Map<string, number[]>();

  constructor(private readonly maxKeys = 100_000) {}

  private kept(key: string, now: number, windowMs: number): number[] {
    const kept = (this.attempts.get(key) ?? []).filter((at) => now - at < windowMs);
    if (kept.length === 0) this.attempts.delete(key);
    else this.attempts.set(key, kept);
    return kept;
  }

  async recent(keys: readonly string[], now: number, windowMs: number): Promise<number[][]> {
    return keys.map((key) => this.kept(key, now, windowMs));
  }

  async add(keys: readonly string[], now: number, windowMs: number): Promise<void> {
    for (const key of keys) {
      const kept = this.kept(key, now, windowMs);
      // Re-inserted so the map's order is least recently attempted first.
      this.attempts.delete(key);
      this.attempts.set(key, [...kept, now]);
    }
    for (const key of this.attempts.keys()) {
      if (this.attempts.size <= this.maxKeys) break;
      this.attempts.delete(key);
    }
  }

  async clear(key: string): Promise<void> {
    this.attempts.delete(key);
  }

  async close(): Promise<void> {}
}

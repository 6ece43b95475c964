/**
 * Failed sign-ins counted per user name and address, per user name alone and per address alone,
 * over a sliding window. The pair is what stops guessing one account from one place; the wider
 * limits stop guessing from many addresses (or forged X-Forwarded-For) and spraying many names.
 * In memory: each api process counts its own attempts, which bounds guessing just the same.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly settings: { maxFailures: number; windowSeconds: number; maxKeys?: number },
    private readonly clock: () => Date,
  ) {}

  private limits(username: string, ip: string): Array<[string, number]> {
    const name = username.trim().toLowerCase();
    const max = this.settings.maxFailures;
    return [
      [`pair:${name}\u001f${ip}`, max],
      [`user:${name}`, max * 4],
      [`ip:${ip}`, max * 5],
    ];
  }

  private recent(key: string, now: number): number[] {
    const windowMs = this.settings.windowSeconds * 1000;
    const kept = (this.failures.get(key) ?? []).filter((at) => now - at < windowMs);
    if (kept.length === 0) this.failures.delete(key);
    else this.failures.set(key, kept);
    return kept;
  }

  /** Seconds until this user may try again from this address; 0 when they may now. */
  retryAfter(username: string, ip: string): number {
    const now = this.clock().getTime();
    let wait = 0;
    for (const [key, limit] of this.limits(username, ip)) {
      const recent = this.recent(key, now);
      if (recent.length >= limit) wait = Math.max(wait, Math.ceil((recent[recent.length - limit]! + this.settings.windowSeconds * 1000 - now) / 1000));
    }
    return wait;
  }

  fail(username: string, ip: string): void {
    const now = this.clock().getTime();
    for (const [key] of this.limits(username, ip)) {
      const recent = this.recent(key, now);
      this.failures.delete(key);
      this.failures.set(key, [...recent, now]);
    }
    // Forget the oldest keys first, so a flood of made-up names cannot grow the map without end.
    const maxKeys = this.settings.maxKeys ?? 100_000;
    for (const key of this.failures.keys()) {
      if (this.failures.size <= maxKeys) break;
      this.failures.delete(key);
    }
  }

  /** A successful sign-in clears the pair's count; the wider counts keep running. */
  succeed(username: string, ip: string): void {
    this.failures.delete(this.limits(username, ip)[0]![0]);
  }
}

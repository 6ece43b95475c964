import type { AttemptLog } from '@scriptorium/infra/attempts/port';

/**
 * Failed sign-ins counted per user name and address, per user name alone and per address alone,
 * over a sliding window. The pair is what stops guessing one account from one place; the wider
 * limits stop guessing from many addresses (or forged X-Forwarded-For) and spraying many names.
 */
export class LoginThrottle {
  constructor(
    private readonly attempts: AttemptLog,
    private readonly settings: { maxFailures: number; windowSeconds: number },
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

  private get windowMs(): number {
    return this.settings.windowSeconds * 1000;
  }

  /** Seconds until this user may try again from this address; 0 when they may now. */
  async retryAfter(username: string, ip: string): Promise<number> {
    const now = this.clock().getTime();
    const limits = this.limits(username, ip);
    const recent = await this.attempts.recent(
      limits.map(([key]) => key),
      now,
      this.windowMs,
    );
    let wait = 0;
    for (const [index, [, limit]] of limits.entries()) {
      const times = recent[index] ?? [];
      if (times.length >= limit) wait = Math.max(wait, Math.ceil((times[times.length - limit]! + this.windowMs - now) / 1000));
    }
    return wait;
  }

  async fail(username: string, ip: string): Promise<void> {
    await this.attempts.add(
      this.limits(username, ip).map(([key]) => key),
      this.clock().getTime(),
      this.windowMs,
    );
  }

  /** A successful sign-in clears the pair's count; the wider counts keep running. */
  async succeed(username: string, ip: string): Promise<void> {
    await this.attempts.clear(this.limits(username, ip)[0]![0]);
  }
}

import type { AttemptLog } from '@scriptorium/infra/attempts/port';

/** A limit of `max` attempts under `key` within the window. */
type Limit = [key: string, max: number];

/** Seconds until every limit has room again; 0 when none is full. */
async function retryAfter(attempts: AttemptLog, limits: Limit[], now: number, windowMs: number): Promise<number> {
  const recent = await attempts.recent(
    limits.map(([key]) => key),
    now,
    windowMs,
  );
  let wait = 0;
  for (const [index, [, max]] of limits.entries()) {
    const times = recent[index] ?? [];
    if (times.length >= max) wait = Math.max(wait, Math.ceil((times[times.length - max]! + windowMs - now) / 1000));
  }
  return wait;
}

/** At most `max` attempts per address within a sliding window (registrations, say). */
export class AddressLimit {
  constructor(
    private readonly attempts: AttemptLog,
    private readonly name: string,
    private readonly settings: { max: number; windowSeconds: number },
    private readonly clock: () => Date,
  ) {}

  private key = (ip: string): Limit => [`${this.name}:${ip}`, this.settings.max];

  retryAfter(ip: string): Promise<number> {
    return retryAfter(this.attempts, [this.key(ip)], this.clock().getTime(), this.settings.windowSeconds * 1000);
  }

  record(ip: string): Promise<void> {
    return this.attempts.add([this.key(ip)[0]], this.clock().getTime(), this.settings.windowSeconds * 1000);
  }
}

/**
 * Failed sign-ins, as OWASP advises: the user name and address together, and the address alone,
 * are refused past their limits (that is where the guessing comes from); the account alone is
 * only slowed, by a delay doubling with each failure past the limit up to a cap, so guesses from
 * many addresses can slow the owner's correct password from a fresh client but never lock it out.
 * A device the user signed in from before (OWASP's device cookies) is spared that delay; its own
 * failures count against it alone, and past the limit it is treated like any fresh client.
 */
export class LoginThrottle {
  constructor(
    private readonly attempts: AttemptLog,
    private readonly settings: { maxFailures: number; windowSeconds: number; maxDelaySeconds: number },
    private readonly clock: () => Date,
  ) {}

  private keys(username: string, ip: string, device?: string) {
    const name = username.trim().toLowerCase();
    return { pair: `pair:${name}\u001f${ip}`, user: `user:${name}`, ip: `ip:${ip}`, device: `device:${device ?? ''}` };
  }

  private get windowMs(): number {
    return this.settings.windowSeconds * 1000;
  }

  /** Seconds until this user may try again from this address; 0 when they may now. */
  async retryAfter(username: string, ip: string): Promise<number> {
    const keys = this.keys(username, ip);
    const max = this.settings.maxFailures;
    return retryAfter(
      this.attempts,
      [
        [keys.pair, max],
        [keys.ip, max * 5],
      ],
      this.clock().getTime(),
      this.windowMs,
    );
  }

  /** Whether `device` (a signed device cookie of this user's) is still trusted: not past its own failures. */
  async trusts(device: string | null): Promise<boolean> {
    if (device === null) return false;
    const [failures = []] = await this.attempts.recent([this.keys('', '', device).device], this.clock().getTime(), this.windowMs);
    return failures.length < this.settings.maxFailures;
  }

  /** How long to hold this sign-in before answering, from the account's recent failures from anywhere; nothing for a trusted device. */
  async delayMs(username: string, trustedDevice: string | null = null): Promise<number> {
    if (trustedDevice !== null) return 0;
    const [failures = []] = await this.attempts.recent([this.keys(username, '').user], this.clock().getTime(), this.windowMs);
    const excess = failures.length - this.settings.maxFailures;
    return excess <= 0 ? 0 : Math.min(1000 * 2 ** (excess - 1), this.settings.maxDelaySeconds * 1000);
  }

  /** A trusted device's failures count against the device, not the account: its owner's typos do not slow the account. */
  async fail(username: string, ip: string, trustedDevice: string | null = null): Promise<void> {
    const keys = this.keys(username, ip, trustedDevice ?? undefined);
    await this.attempts.add([keys.pair, trustedDevice !== null ? keys.device : keys.user, keys.ip], this.clock().getTime(), this.windowMs);
  }

  /** A successful sign-in clears the pair's count (and the device's); the wider counts keep running. */
  async succeed(username: string, ip: string, device: string | null = null): Promise<void> {
    const keys = this.keys(username, ip, device ?? undefined);
    await this.attempts.clear(keys.pair);
    if (device !== null) await this.attempts.clear(keys.device);
  }
}

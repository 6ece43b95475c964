import { availableParallelism } from 'node:os';
import argon2 from 'argon2';
import pLimit from 'p-limit';
import { DEFAULT_PASSWORD_COST, type PasswordCost } from './passwordCost.ts';

/**
 * One lane per hash: a hash then occupies one core, and at most all cores but one hash at once, so a
 * burst of sign-ins queues behind itself instead of starving every other request of CPU. The limit is
 * the process's, whichever hasher asks.
 */
export const CONCURRENT_HASHES = Math.max(1, availableParallelism() - 1);
const hashing = pLimit(CONCURRENT_HASHES);

/** Hashes running and waiting now (for tests and metrics). */
export const hashLoad = (): { running: number; waiting: number } => ({ running: hashing.activeCount, waiting: hashing.pendingCount });

/** Too many hashes already wait for a core: the caller answers at once rather than queue without bound. */
export class HashingBusy extends Error {
  constructor() {
    super('too many password hashes waiting');
  }
}

/**
 * argon2id password hashes at a configured cost. Hashes made at another cost (or with the library's
 * default of four lanes, used before) still verify: the parameters travel inside each hash.
 */
export class PasswordHasher {
  private readonly options: argon2.HashOptions;
  private decoy: Promise<string> | undefined;

  /** `maxWaiting`: hashes that may wait behind the running ones before `HashingBusy` turns more away. */
  constructor(
    cost: PasswordCost = DEFAULT_PASSWORD_COST,
    private readonly maxWaiting = Number.POSITIVE_INFINITY,
  ) {
    this.options = { type: argon2.argon2id, parallelism: 1, memoryCost: cost.memoryKib, timeCost: cost.passes };
  }

  /** Runs `work` in a hashing lane, or throws `HashingBusy` when the queue is full. */
  private lane<T>(work: () => Promise<T>): Promise<T> {
    if (hashing.activeCount + hashing.pendingCount >= CONCURRENT_HASHES + this.maxWaiting) return Promise.reject(new HashingBusy());
    return hashing(work);
  }

  hash(password: string): Promise<string> {
    return this.lane(() => argon2.hash(password, this.options));
  }

  /** For an unknown user (no hash) it still spends one verification on a decoy, so response time does not reveal which usernames exist. */
  async verify(hash: string | undefined, password: string): Promise<boolean> {
    if (hash === undefined) {
      // The decoy is made outside the bound: a full queue must not leave it rejected for good.
      this.decoy ??= hashing(() => argon2.hash('decoy-password-for-timing', this.options));
      const known = await this.decoy;
      await this.lane(() => argon2.verify(known, password));
      return false;
    }
    return this.lane(() => argon2.verify(hash, password).catch(() => false));
  }
}

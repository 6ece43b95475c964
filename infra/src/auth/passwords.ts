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

/**
 * argon2id password hashes at a configured cost. Hashes made at another cost (or with the library's
 * default of four lanes, used before) still verify: the parameters travel inside each hash.
 */
export class PasswordHasher {
  private readonly options: argon2.HashOptions;
  private decoy: Promise<string> | undefined;

  constructor(cost: PasswordCost = DEFAULT_PASSWORD_COST) {
    this.options = { type: argon2.argon2id, parallelism: 1, memoryCost: cost.memoryKib, timeCost: cost.passes };
  }

  hash(password: string): Promise<string> {
    return hashing(() => argon2.hash(password, this.options));
  }

  /** For an unknown user (no hash) it still spends one verification on a decoy, so response time does not reveal which usernames exist. */
  async verify(hash: string | undefined, password: string): Promise<boolean> {
    if (hash === undefined) {
      this.decoy ??= this.hash('decoy-password-for-timing');
      const known = await this.decoy;
      await hashing(() => argon2.verify(known, password));
      return false;
    }
    try {
      return await hashing(() => argon2.verify(hash, password));
    } catch {
      return false;
    }
  }
}

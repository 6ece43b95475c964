import { availableParallelism } from 'node:os';
import argon2 from 'argon2';
import pLimit from 'p-limit';

/**
 * argon2id with one lane: a hash then occupies one core, and at most all cores but one hash at once,
 * so a burst of sign-ins queues behind itself instead of starving every other request of CPU.
 * Hashes made with more lanes (the library's default of 4, used before) still verify: the
 * parameters travel inside each hash.
 */
const HASH_OPTIONS = { type: argon2.argon2id, parallelism: 1 } as const;
export const CONCURRENT_HASHES = Math.max(1, availableParallelism() - 1);
const hashing = pLimit(CONCURRENT_HASHES);

/** Hashes running and waiting now (for tests and metrics). */
export const hashLoad = (): { running: number; waiting: number } => ({ running: hashing.activeCount, waiting: hashing.pendingCount });

export const hashPassword = (password: string): Promise<string> => hashing(() => argon2.hash(password, HASH_OPTIONS));

let decoy: Promise<string> | undefined;

/**
 * Verifies a password; for an unknown user it still spends one argon2 verification on a decoy hash,
 * so response time does not reveal which usernames exist.
 */
export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  if (hash === undefined) {
    decoy ??= hashPassword('decoy-password-for-timing');
    const known = await decoy;
    await hashing(() => argon2.verify(known, password));
    return false;
  }
  try {
    return await hashing(() => argon2.verify(hash, password));
  } catch {
    return false;
  }
}

import argon2 from 'argon2';

export const hashPassword = (password: string): Promise<string> => argon2.hash(password, { type: argon2.argon2id });

let decoy: Promise<string> | undefined;

/**
 * Verifies a password; for an unknown user it still spends one argon2 verification on a decoy hash,
 * so response time does not reveal which usernames exist.
 */
export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  if (hash === undefined) {
    decoy ??= hashPassword('decoy-password-for-timing');
    await argon2.verify(await decoy, password);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

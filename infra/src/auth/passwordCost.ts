/** argon2id's memory (KiB) and passes: what each hash costs an attacker per guess, and the server per sign-in. */
export interface PasswordCost {
  memoryKib: number;
  passes: number;
}

/** RFC 9106's second recommended option (64 MiB, three passes), with one lane. */
export const DEFAULT_PASSWORD_COST: PasswordCost = { memoryKib: 65_536, passes: 3 };
/** OWASP's floor for argon2id (19 MiB, two passes, one lane): configuration may not go below it. */
export const MINIMUM_PASSWORD_COST: PasswordCost = { memoryKib: 19_456, passes: 2 };

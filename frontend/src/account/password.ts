/** The server's rule for a new password (backend/src/http/auth.ts `password`), said before asking it. */
export const PASSWORD_MIN_LENGTH = 8;

/** What is wrong with a new password as typed twice, as an `account:password.*` key; null when nothing is. */
export function newPasswordProblem(next: string, repeat: string): 'tooShort' | 'mismatch' | null {
  if (next.length < PASSWORD_MIN_LENGTH) return 'tooShort';
  return next === repeat ? null : 'mismatch';
}

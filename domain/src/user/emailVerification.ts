import { createHash, createHmac, randomInt } from 'node:crypto';
import { assertNever, DomainError, type Command, type Decider, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';
import { anyErrorText, errorText } from '../protocol/errors.ts';
import { CODE_LENGTH } from '../protocol/limits.ts';
import { normaliseEmail } from './emailClaim.ts';

/**
 * E-mail codes: one stream per address (`emailcode-…`) holds the current code, its expiry, the
 * attempts left and when it was sent, so the resend countdown and the attempt limit hold across
 * processes. The log keeps only an HMAC of the code, never the code.
 *
 * A new code does not void the one mailed before it: mails arrive late and out of order, and a user
 * who reopened the verification window still has the first mail in front of them. The previous code
 * stays good until its own expiry; only the last two are kept, and they share the attempts.
 */

export type VerificationCodeIssued = DomainEvent<
  'VerificationCodeIssued',
  { email: string; codeHash: string; issuedAt: string; expiresAt: string; attempts: number }
>;
/** The mail could not be sent: the code is void and the countdown lifted. */
export type VerificationCodeWithdrawn = DomainEvent<'VerificationCodeWithdrawn', { email: string; at: string }>;
export type VerificationAttemptFailed = DomainEvent<'VerificationAttemptFailed', { email: string; attemptsLeft: number; at: string }>;
export type VerificationCodeAccepted = DomainEvent<'VerificationCodeAccepted', { email: string; at: string }>;

export type VerificationEvent = VerificationCodeIssued | VerificationCodeWithdrawn | VerificationAttemptFailed | VerificationCodeAccepted;

interface IssuedCode {
  email: string;
  codeHash: string;
  issuedAt: string;
  expiresAt: string;
  attemptsLeft: number;
  /** The code mailed before this one, while a check may still take it. */
  previous: { codeHash: string; expiresAt: string } | null;
}

export type Verification =
  | { status: 'none' }
  | ({ status: 'pending' } & IssuedCode)
  /** The code checked out; it stays good until it expires, so registration may present it again. */
  | ({ status: 'accepted' } & IssuedCode)
  /** Attempts used up: only a new code helps. */
  | ({ status: 'locked' } & IssuedCode);

export type IssueCode = Command<'IssueCode', { email: string; codeHash: string; ttlSeconds: number; resendSeconds: number; maxAttempts: number }>;
export type WithdrawCode = Command<'WithdrawCode', { codeHash: string }>;
export type CheckCode = Command<'CheckCode', { codeHash: string }>;
export type VerificationCommand = IssueCode | WithdrawCode | CheckCode;

/** A new code asked for before the countdown ran out (the HTTP layer answers 429 with Retry-After). */
export class ResendTooSoon extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('conflict', 'auth.resend_too_soon', errorText('auth.resend_too_soon', { seconds: retryAfterSeconds }), { seconds: retryAfterSeconds });
  }
}

/** A wrong, expired or used-up code (the HTTP layer answers 400 with this text). */
export class CodeRejected extends DomainError {
  constructor(...[code, params]: [code: 'auth.code_missing' | 'auth.code_locked' | 'auth.code_expired', params?: undefined] | [code: 'auth.code_wrong', params: { left: number }]) {
    super('invalid', code, anyErrorText(code, params), params, 'code');
  }
}

export const initialState = (): Verification => ({ status: 'none' });

export function evolve(state: Verification, event: VerificationEvent): Verification {
  switch (event.type) {
    case 'VerificationCodeIssued': {
      const { email, codeHash, issuedAt, expiresAt, attempts } = event.data;
      // A locked code stays void: a new one must not bring back what too many wrong tries closed.
      const previous = state.status === 'pending' || state.status === 'accepted' ? { codeHash: state.codeHash, expiresAt: state.expiresAt } : null;
      return { status: 'pending', email, codeHash, issuedAt, expiresAt, attemptsLeft: attempts, previous };
    }
    case 'VerificationCodeWithdrawn':
      return { status: 'none' };
    case 'VerificationAttemptFailed':
      if (state.status === 'none') return state;
      return { ...state, status: event.data.attemptsLeft > 0 ? state.status : 'locked', attemptsLeft: event.data.attemptsLeft };
    case 'VerificationCodeAccepted':
      return state.status === 'none' ? state : { ...state, status: 'accepted' };
    default:
      return assertNever(event);
  }
}

export const issueCode = (command: IssueCode, state: Verification): VerificationEvent => {
  const now = command.metadata.now;
  const { email, codeHash, ttlSeconds, resendSeconds, maxAttempts } = command.data;
  if (state.status !== 'none') {
    const waited = (now.getTime() - Date.parse(state.issuedAt)) / 1000;
    if (waited < resendSeconds) throw new ResendTooSoon(Math.ceil(resendSeconds - waited));
  }
  return {
    type: 'VerificationCodeIssued',
    data: { email, codeHash, issuedAt: now.toISOString(), expiresAt: new Date(now.getTime() + ttlSeconds * 1000).toISOString(), attempts: maxAttempts },
  };
};

/** A code whose mail failed, or an accepted one that has done its work (a password reset, good once). */
export const withdrawCode = (command: WithdrawCode, state: Verification): VerificationEvent[] => {
  if ((state.status !== 'pending' && state.status !== 'accepted') || state.codeHash !== command.data.codeHash) return [];
  return [{ type: 'VerificationCodeWithdrawn', data: { email: state.email, at: command.metadata.now.toISOString() } }];
};

/**
 * A wrong code is recorded (it spends an attempt) rather than refused here: the caller reads the
 * attempts left from the event and refuses after it is stored.
 */
export const checkCode = (command: CheckCode, state: Verification): VerificationEvent[] => {
  const now = command.metadata.now;
  if (state.status === 'none') throw new CodeRejected('auth.code_missing');
  if (state.status === 'locked') throw new CodeRejected('auth.code_locked');
  if (now.getTime() >= Date.parse(state.expiresAt)) throw new CodeRejected('auth.code_expired');
  const given = command.data.codeHash;
  const expiresAt = given === state.codeHash ? state.expiresAt : given === state.previous?.codeHash ? state.previous.expiresAt : null;
  if (expiresAt === null) {
    return [{ type: 'VerificationAttemptFailed', data: { email: state.email, attemptsLeft: state.attemptsLeft - 1, at: now.toISOString() } }];
  }
  if (now.getTime() >= Date.parse(expiresAt)) throw new CodeRejected('auth.code_expired');
  if (state.status === 'accepted') return [];
  return [{ type: 'VerificationCodeAccepted', data: { email: state.email, at: now.toISOString() } }];
};

export function decide(command: VerificationCommand, state: Verification): VerificationEvent | VerificationEvent[] {
  switch (command.type) {
    case 'IssueCode':
      return issueCode(command, state);
    case 'WithdrawCode':
      return withdrawCode(command, state);
    case 'CheckCode':
      return checkCode(command, state);
    default:
      return assertNever(command);
  }
}

export const verificationDecider: Decider<Verification, VerificationCommand, VerificationEvent> = { initialState, evolve, decide };

/** What a code is for: proving an address (`emailcode-…`) or resetting the password of the account holding it (`pwreset-…`); a code of one is never taken for the other. */
export type CodePurpose = 'verify' | 'reset';

export const verificationStream = (email: string, purpose: CodePurpose = 'verify'): string =>
  `${purpose === 'reset' ? 'pwreset' : 'emailcode'}-${createHash('sha256').update(normaliseEmail(email)).digest('hex').slice(0, 32)}`;


export const newCode = (): string => String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');

/** Keyed with a server secret: six digits are too few to keep a plain hash from being reversed. */
export const codeHash = (secret: string, email: string, code: string): string =>
  createHmac('sha256', secret).update(`${normaliseEmail(email)}\u001f${code}`).digest('hex');

/** What a wrong code answers, now that the attempt is recorded. */
export function rejectionAfter(event: VerificationAttemptFailed): CodeRejected {
  const left = event.data.attemptsLeft;
  return left > 0 ? new CodeRejected('auth.code_wrong', { left }) : new CodeRejected('auth.code_locked');
}

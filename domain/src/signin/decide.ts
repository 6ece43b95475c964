import { assertNever, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { refuse } from '../refuse.ts';
import { evolve, initialState, type AppSignIn, type AppSignInEvent } from './appSignIn.ts';

/** Recorded as the password checks out, before the token is issued; `ttlSeconds` is the token's lifetime, `scope` what it may do. */
export type RecordAppSignIn = Command<'RecordAppSignIn', { signInId: string; userId: string; clientId: string; deviceName: string; scope: string; ttlSeconds: number }>;
/** The sign-in's token was used; only a sign-in that still holds records it. */
export type RecordAppSignInUse = Command<'RecordAppSignInUse', Record<string, never>>;
/** By the user from the account panel, or by the app signing out with the sign-in's own token: either way its owner (`actorId`). */
export type RevokeAppSignIn = Command<'RevokeAppSignIn', { by: 'user' | 'client'; actorId: string }>;
export type AppSignInCommand = RecordAppSignIn | RecordAppSignInUse | RevokeAppSignIn;

const holds = (state: AppSignIn, now: Date): state is Extract<AppSignIn, { status: 'active' }> => state.status === 'active' && now.getTime() < Date.parse(state.expiresAt);

export const recordAppSignIn = (command: RecordAppSignIn, state: AppSignIn): AppSignInEvent[] => {
  if (state.status !== 'none') throw refuse('conflict', 'auth.sign_in_exists');
  const { ttlSeconds, ...data } = command.data;
  const now = command.metadata.now;
  return [{ type: 'AppSignedIn', data: { ...data, signedInAt: now.toISOString(), expiresAt: new Date(now.getTime() + ttlSeconds * 1000).toISOString() } }];
};

export const recordAppSignInUse = (command: RecordAppSignInUse, state: AppSignIn): AppSignInEvent[] =>
  holds(state, command.metadata.now) ? [{ type: 'AppSignInUsed', data: { signInId: state.signInId, usedAt: command.metadata.now.toISOString() } }] : [];

/** Nobody but its owner finds it; ending it again changes nothing. */
export const revokeAppSignIn = (command: RevokeAppSignIn, state: AppSignIn): AppSignInEvent[] => {
  if (state.status === 'none' || state.userId !== command.data.actorId) throw refuse('not_found', 'auth.sign_in_gone');
  if (state.status === 'revoked') return [];
  return [{ type: 'AppSignInRevoked', data: { signInId: state.signInId, userId: state.userId, reason: command.data.by, revokedAt: command.metadata.now.toISOString() } }];
};

export function decide(command: AppSignInCommand, state: AppSignIn): AppSignInEvent[] {
  switch (command.type) {
    case 'RecordAppSignIn':
      return recordAppSignIn(command, state);
    case 'RecordAppSignInUse':
      return recordAppSignInUse(command, state);
    case 'RevokeAppSignIn':
      return revokeAppSignIn(command, state);
    default:
      return assertNever(command);
  }
}

export const appSignInDecider: Decider<AppSignIn, AppSignInCommand, AppSignInEvent> = { initialState, evolve, decide };

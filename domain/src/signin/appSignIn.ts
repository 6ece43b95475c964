import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';

/**
 * A password sign-in made by an app that named itself (`appsignin-<id>`), such as the command-line
 * assistant's `login --password`: unlike a browser's sign-in it is listed under "Authorised apps",
 * where the user can end it, and its token carries the id (`sid`), so ending it ends the token. It
 * holds no secret: the token is a signed JWT and is never recorded.
 */
export type AppSignedIn = DomainEvent<
  'AppSignedIn',
  /** `scope`: what its token may do, space-separated as an OAuth grant's; absent on sign-ins made before scopes, which have `account`. */
  { signInId: string; userId: string; clientId: string; deviceName: string; signedInAt: string; expiresAt: string; scope?: string }
>;
/** The sign-in's token was used (recorded at most every few minutes), so "last used" stays current. */
export type AppSignInUsed = DomainEvent<'AppSignInUsed', { signInId: string; usedAt: string }>;
/** `user`: from the account panel; `client`: the app signed out with the token (`scriptorium logout`). */
export type AppSignInRevocationReason = 'user' | 'client';
export type AppSignInRevoked = DomainEvent<'AppSignInRevoked', { signInId: string; userId: string; reason: AppSignInRevocationReason; revokedAt: string }>;
export type AppSignInEvent = AppSignedIn | AppSignInUsed | AppSignInRevoked;

interface AppSignInDetails {
  signInId: string;
  userId: string;
  clientId: string;
  deviceName: string;
  signedInAt: string;
  expiresAt: string;
  scope?: string;
}

export type AppSignIn =
  | { status: 'none' }
  | ({ status: 'active' } & AppSignInDetails)
  | ({ status: 'revoked'; reason: AppSignInRevocationReason } & AppSignInDetails);

export const initialState = (): AppSignIn => ({ status: 'none' });

export function evolve(state: AppSignIn, event: AppSignInEvent): AppSignIn {
  switch (event.type) {
    case 'AppSignedIn':
      return { status: 'active', ...event.data };
    case 'AppSignInUsed':
      return state;
    case 'AppSignInRevoked':
      return state.status === 'active' ? { ...state, status: 'revoked', reason: event.data.reason } : state;
    default:
      return assertNever(event);
  }
}

export const appSignInStream = (signInId: string): string => `appsignin-${signInId}`;

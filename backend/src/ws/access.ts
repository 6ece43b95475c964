import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import { CLOSE_ACCOUNT_INACTIVE } from '@scriptorium/domain/protocol/ws';
import { grantStream, type OAuthEvent } from '@scriptorium/domain/oauth/grant';
import { appSignInStream, type AppSignInEvent } from '@scriptorium/domain/signin/appSignIn';
import type { UserEvent } from '@scriptorium/domain/user/user';

import type { Identity } from './hub.ts';

const GRANT_PREFIX = grantStream('');
const APP_SIGN_IN_PREFIX = appSignInStream('');

/** Sockets kept by who they speak for: the conversation hub and the engineer session gateway. */
export interface SocketRegistry<Socket> {
  where(predicate: (identity: Identity) => boolean): Socket[];
  /** Closes the sockets with `code` (CLOSE_UNAUTHORIZED unless said otherwise). */
  reauthenticate(sockets: Iterable<Socket>, reason: string, code?: number): void;
}

/**
 * Sockets are authorised when they open and re-authorised by the user's events as they reach the
 * log: a logout closes the sockets of that token, a deactivation all of the user's (with the code that
 * tells the client the account is inactive, not signed out), a password change those signed in
 * before it, and a revoked OAuth grant or app sign-in those of the app's tokens. Every api process sees every
 * event, so it works across them.
 */
export function closeRevokedSockets<Socket>(hub: SocketRegistry<Socket>, recorded: RecordedEvent): void {
  if (recorded.streamId.startsWith(GRANT_PREFIX)) {
    const event = { type: recorded.type, data: recorded.data } as OAuthEvent;
    if (event.type === 'OAuthGrantRevoked') hub.reauthenticate(hub.where((connection) => connection.grantId === event.data.grantId), 'app access revoked');
    return;
  }
  if (recorded.streamId.startsWith(APP_SIGN_IN_PREFIX)) {
    const event = { type: recorded.type, data: recorded.data } as AppSignInEvent;
    if (event.type === 'AppSignInRevoked') hub.reauthenticate(hub.where((connection) => connection.appSignInId === event.data.signInId), 'app sign-in revoked');
    return;
  }
  if (!recorded.streamId.startsWith('user-')) return;
  const event = { type: recorded.type, data: recorded.data } as UserEvent;
  switch (event.type) {
    case 'AccessTokenRevoked':
      hub.reauthenticate(hub.where((connection) => connection.tokenHash === event.data.tokenHash), 'signed out');
      return;
    case 'UserDeactivated':
      hub.reauthenticate(hub.where((connection) => connection.userId === event.data.userId), 'account deactivated', CLOSE_ACCOUNT_INACTIVE);
      return;
    case 'UserPasswordChanged': {
      const changedAt = Date.parse(event.data.changedAt);
      hub.reauthenticate(hub.where((connection) => connection.userId === event.data.userId && connection.issuedAt <= changedAt), 'password changed');
      return;
    }
    default:
  }
}

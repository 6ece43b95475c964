import test from 'ava';
import type { AppSignInEvent } from '@scriptorium/domain/signin/appSignIn';
import { APP_SIGN_INS, appSignInsProjection } from './appSignIns.ts';
import { OWNER, T1, T2, T3 } from './fixtures.ts';
import { projectionSpec } from './testing.ts';

const spec = projectionSpec<AppSignInEvent>(appSignInsProjection);
const S = 'b'.repeat(32);
const signedIn: AppSignInEvent = { type: 'AppSignedIn', data: { signInId: S, userId: OWNER, clientId: 'scriptorium-cli', deviceName: 'devbox', signedInAt: T1, expiresAt: T3, scope: 'engineer audit:read' } };

test('an app’s password sign-in is listed with its device and scopes, and each recorded use moves "last used"', async (t) => {
  await spec
    .given(signedIn)
    .then(t, APP_SIGN_INS, [{ _id: S, user_id: OWNER, client_id: 'scriptorium-cli', device_name: 'devbox', scope: 'engineer audit:read', status: 'active', signed_in_at: T1, last_used_at: T1, expires_at: T3 }]);
  const { scope: _, ...beforeScopes } = signedIn.data;
  await spec.given({ type: 'AppSignedIn', data: beforeScopes }).then(t, APP_SIGN_INS, [{ _id: S, scope: 'account' }], { filter: { user_id: OWNER } });
  await spec
    .given(signedIn)
    .when({ type: 'AppSignInUsed', data: { signInId: S, usedAt: T2 } })
    .then(t, APP_SIGN_INS, [{ _id: S, status: 'active', signed_in_at: T1, last_used_at: T2 }], { filter: { user_id: OWNER, status: 'active' } });
});

test('a revoked sign-in stays, with when and by whom, and leaves the active list', async (t) => {
  await spec
    .given(signedIn)
    .when({ type: 'AppSignInRevoked', data: { signInId: S, userId: OWNER, reason: 'client', revokedAt: T2 } })
    .then(t, APP_SIGN_INS, [{ _id: S, status: 'revoked', revoked_at: T2, revoked_reason: 'client', last_used_at: T1 }]);
  await spec
    .given(signedIn, { type: 'AppSignInRevoked', data: { signInId: S, userId: OWNER, reason: 'user', revokedAt: T2 } })
    .then(t, APP_SIGN_INS, [], { filter: { user_id: OWNER, status: 'active' } });
});

test('a replayed batch of app sign-ins leaves the same documents', async (t) => {
  await spec
    .given(signedIn)
    .when({ type: 'AppSignInUsed', data: { signInId: S, usedAt: T2 } }, { type: 'AppSignInRevoked', data: { signInId: S, userId: OWNER, reason: 'user', revokedAt: T3 } })
    .replayed()
    .thenDoc(t, APP_SIGN_INS, S, { status: 'revoked', last_used_at: T2, revoked_at: T3, revoked_reason: 'user' });
});

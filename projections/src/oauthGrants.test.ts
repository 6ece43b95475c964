import test from 'ava';
import type { OAuthEvent } from '@scriptorium/domain/oauth/grant';
import { OWNER, T1, T2, T3 } from './fixtures.ts';
import { OAUTH_GRANTS, oauthGrantsProjection } from './oauthGrants.ts';
import { projectionSpec } from './testing.ts';

const spec = projectionSpec<OAuthEvent>(oauthGrantsProjection);
const G = 'a'.repeat(32);
const issued: OAuthEvent = {
  type: 'OAuthCodeIssued',
  data: { grantId: G, userId: OWNER, clientId: 'scriptorium-cli', scope: 'account', redirectUri: 'http://127.0.0.1:5/callback', codeHash: 'h', codeChallenge: 'c', issuedAt: T1, expiresAt: T1 },
};
const exchanged: OAuthEvent = { type: 'OAuthCodeExchanged', data: { grantId: G, refreshHash: 'r1', refreshExpiresAt: T3, exchangedAt: T1 } };

test('a grant is listed once its code is exchanged, and each refresh marks it used', async (t) => {
  await spec.given(issued).then(t, OAUTH_GRANTS, [{ _id: G, user_id: OWNER, client_id: 'scriptorium-cli', status: 'issued', granted_at: null, last_used_at: null }]);
  await spec
    .given(issued, exchanged)
    .when({ type: 'OAuthRefreshRotated', data: { grantId: G, refreshHash: 'r2', refreshExpiresAt: T3, rotatedAt: T2 } })
    .then(t, OAUTH_GRANTS, [{ _id: G, status: 'active', granted_at: T1, last_used_at: T2, revoked_at: null }], { filter: { user_id: OWNER, status: 'active' } });
});

test('a revoked grant stays, with when and why', async (t) => {
  await spec
    .given(issued, exchanged, { type: 'OAuthGrantRevoked', data: { grantId: G, userId: OWNER, reason: 'code_reused', revokedAt: T2 } })
    .then(t, OAUTH_GRANTS, [{ _id: G, status: 'revoked', revoked_at: T2, revoked_reason: 'code_reused', last_used_at: T1 }]);
});

test('a replayed batch of OAuth grants leaves the same documents', async (t) => {
  await spec
    .given(issued)
    .when(exchanged, { type: 'OAuthRefreshRotated', data: { grantId: G, refreshHash: 'r2', refreshExpiresAt: T3, rotatedAt: T2 } })
    .replayed()
    .thenDoc(t, OAUTH_GRANTS, G, { status: 'active', granted_at: T1, last_used_at: T2 });
});

import test from 'ava';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import { grantDecider } from './decide.ts';
import type { OAuthEvent } from './grant.ts';
import { s256 } from './secrets.ts';

const spec = deciderSpec(grantDecider);
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const REDIRECT = 'http://127.0.0.1:51234/callback';
const G = 'a'.repeat(32);

const issued: OAuthEvent = {
  type: 'OAuthCodeIssued',
  data: { grantId: G, userId: 'u1', clientId: 'scriptorium-cli', scope: 'account', redirectUri: REDIRECT, codeHash: 'code-hash', codeChallenge: s256(VERIFIER), issuedAt: '2026-03-01T00:00:00.000Z', expiresAt: '2026-03-01T00:01:00.000Z' },
};
const exchanged: OAuthEvent = { type: 'OAuthCodeExchanged', data: { grantId: G, refreshHash: 'r1', refreshExpiresAt: '2026-03-31T00:00:10.000Z', exchangedAt: '2026-03-01T00:00:10.000Z' } };
const rotated: OAuthEvent = { type: 'OAuthRefreshRotated', data: { grantId: G, refreshHash: 'r2', refreshExpiresAt: '2026-04-01T00:00:00.000Z', rotatedAt: '2026-03-02T00:00:00.000Z' } };
const exchange = (overrides: Partial<{ codeHash: string; clientId: string; redirectUri: string; codeVerifier: string }> = {}, when = '2026-03-01T00:00:10Z') => ({
  type: 'ExchangeCode' as const,
  data: { codeHash: 'code-hash', clientId: 'scriptorium-cli', redirectUri: REDIRECT, codeVerifier: VERIFIER, refreshHash: 'r1', refreshTtlSeconds: 30 * 86_400, ...overrides },
  metadata: at(when),
});
const rotate = (presentedHash: string, when = '2026-03-02T00:00:00Z') => ({
  type: 'RotateRefresh' as const,
  data: { presentedHash, clientId: 'scriptorium-cli', refreshHash: 'r2', refreshTtlSeconds: 30 * 86_400 },
  metadata: at(when),
});

test('consent issues a code that lives for its ttl', (t) => {
  spec([])
    .when({
      type: 'IssueCode',
      data: { grantId: G, userId: 'u1', clientId: 'scriptorium-cli', scope: 'account', redirectUri: REDIRECT, codeHash: 'code-hash', codeChallenge: s256(VERIFIER), ttlSeconds: 60 },
      metadata: at('2026-03-01T00:00:00Z'),
    })
    .then(t, [issued]);
});

test('the code is exchanged once, with its verifier, from its redirect, by its client', (t) => {
  spec([issued]).when(exchange()).then(t, [exchanged]);
});

test('a wrong verifier, another redirect, another client or another code is refused and changes nothing', (t) => {
  spec([issued]).when(exchange({ codeVerifier: 'x'.repeat(43) })).thenThrows(t, 'invalid', 'code_verifier 与 code_challenge 不符');
  spec([issued]).when(exchange({ codeVerifier: 'short' })).thenThrows(t, 'invalid', 'code_verifier 与 code_challenge 不符');
  spec([issued]).when(exchange({ redirectUri: 'http://127.0.0.1:1/callback' })).thenThrows(t, 'invalid', 'redirect_uri 与授权请求时不一致');
  spec([issued]).when(exchange({ clientId: 'other' })).thenThrows(t, 'invalid', '授权码或刷新令牌无效');
  spec([issued]).when(exchange({ codeHash: 'guess' })).thenThrows(t, 'invalid', '授权码或刷新令牌无效');
  spec([]).when(exchange()).thenThrows(t, 'invalid', '授权码或刷新令牌无效');
});

test('a code is refused from its expiry on', (t) => {
  spec([issued]).when(exchange({}, '2026-03-01T00:00:59.999Z')).then(t, [exchanged].map((e) => ({ ...e, data: { ...e.data, refreshExpiresAt: '2026-03-31T00:00:59.999Z', exchangedAt: '2026-03-01T00:00:59.999Z' } })) as OAuthEvent[]);
  spec([issued]).when(exchange({}, '2026-03-01T00:01:00Z')).thenThrows(t, 'invalid', '授权码已过期，请重新授权');
});

test('a code presented again revokes what it issued; a third time it is simply refused', (t) => {
  const revoked: OAuthEvent = { type: 'OAuthGrantRevoked', data: { grantId: G, userId: 'u1', reason: 'code_reused', revokedAt: '2026-03-01T00:00:20.000Z' } };
  spec([issued, exchanged]).when(exchange({}, '2026-03-01T00:00:20Z')).then(t, [revoked]);
  spec([issued, exchanged, revoked]).when(exchange({}, '2026-03-01T00:00:30Z')).thenThrows(t, 'invalid', '授权码已被使用，由它签发的令牌已全部吊销');
});

test('the refresh token rotates; the retired one presented again ends the grant', (t) => {
  spec([issued, exchanged]).when(rotate('r1')).then(t, [rotated]);
  spec([issued, exchanged, rotated])
    .when(rotate('r1', '2026-03-03T00:00:00Z'))
    .then(t, [{ type: 'OAuthGrantRevoked', data: { grantId: G, userId: 'u1', reason: 'refresh_reused', revokedAt: '2026-03-03T00:00:00.000Z' } }]);
  spec([issued, exchanged, rotated]).when(rotate('unknown')).thenThrows(t, 'invalid', '授权码或刷新令牌无效');
  spec([issued]).when(rotate('r1')).thenThrows(t, 'invalid', '授权码或刷新令牌无效');
});

test('an expired refresh token is refused and changes nothing', (t) => {
  spec([issued, exchanged]).when(rotate('r1', '2026-03-31T00:00:10Z')).thenThrows(t, 'invalid', '刷新令牌已过期，请重新登录');
});

test('the user or the client revokes, once; nobody else finds it', (t) => {
  const byUser: OAuthEvent = { type: 'OAuthGrantRevoked', data: { grantId: G, userId: 'u1', reason: 'user', revokedAt: '2026-03-02T00:00:00.000Z' } };
  spec([issued, exchanged]).when({ type: 'RevokeGrant', data: { by: 'user', actorId: 'u1' }, metadata: at('2026-03-02T00:00:00Z') }).then(t, [byUser]);
  spec([issued, exchanged, byUser]).when({ type: 'RevokeGrant', data: { by: 'user', actorId: 'u1' }, metadata: at('2026-03-03T00:00:00Z') }).then(t, []);
  spec([issued, exchanged]).when({ type: 'RevokeGrant', data: { by: 'user', actorId: 'u2' }, metadata: at('2026-03-02T00:00:00Z') }).thenThrows(t, 'not_found');
  spec([issued, exchanged])
    .when({ type: 'RevokeGrant', data: { by: 'client', clientId: 'scriptorium-cli' }, metadata: at('2026-03-02T00:00:00Z') })
    .then(t, [{ type: 'OAuthGrantRevoked', data: { grantId: G, userId: 'u1', reason: 'client', revokedAt: '2026-03-02T00:00:00.000Z' } }]);
  spec([issued, exchanged]).when({ type: 'RevokeGrant', data: { by: 'client', clientId: 'other' }, metadata: at('2026-03-02T00:00:00Z') }).thenThrows(t, 'not_found');
  spec([issued, exchanged]).when({ type: 'RevokeGrant', data: { by: 'client', clientId: 'scriptorium-cli', presentedHash: 'guess' }, metadata: at('2026-03-02T00:00:00Z') }).thenThrows(t, 'not_found');
  spec([issued, exchanged])
    .when({ type: 'RevokeGrant', data: { by: 'client', clientId: 'scriptorium-cli', presentedHash: 'r1' }, metadata: at('2026-03-02T00:00:00Z') })
    .then(t, [{ type: 'OAuthGrantRevoked', data: { grantId: G, userId: 'u1', reason: 'client', revokedAt: '2026-03-02T00:00:00.000Z' } }]);
  // After a revocation the refresh tokens it held are refused as revoked.
  spec([issued, exchanged, byUser]).when(rotate('r1')).thenThrows(t, 'invalid', '授权已撤销，请重新登录');
});

test('a use of an active grant is recorded; a grant not active records none', (t) => {
  const use = { type: 'RecordGrantUse' as const, data: {}, metadata: at('2026-03-02T10:00:00Z') };
  spec([issued, exchanged]).when(use).then(t, [{ type: 'OAuthGrantUsed', data: { grantId: G, usedAt: '2026-03-02T10:00:00.000Z' } }]);
  spec([issued]).when(use).then(t, []);
  spec([issued, exchanged, { type: 'OAuthGrantRevoked', data: { grantId: G, userId: 'u1', reason: 'user', revokedAt: '2026-03-02T00:00:00.000Z' } }]).when(use).then(t, []);
});

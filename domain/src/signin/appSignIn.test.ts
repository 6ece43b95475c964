import test from 'ava';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import type { AppSignInEvent } from './appSignIn.ts';
import { appSignInDecider } from './decide.ts';

const spec = deciderSpec(appSignInDecider);
const S = 'b'.repeat(32);
const signedIn: AppSignInEvent = {
  type: 'AppSignedIn',
  data: { signInId: S, userId: 'u1', clientId: 'scriptorium-cli', deviceName: 'devbox', signedInAt: '2026-03-01T00:00:00.000Z', expiresAt: '2026-03-08T00:00:00.000Z', scope: 'engineer audit:read' },
};
const byUser: AppSignInEvent = { type: 'AppSignInRevoked', data: { signInId: S, userId: 'u1', reason: 'user', revokedAt: '2026-03-02T00:00:00.000Z' } };

test('a password sign-in of an app is recorded with its device and scopes and lives as long as its token', (t) => {
  spec([])
    .when({ type: 'RecordAppSignIn', data: { signInId: S, userId: 'u1', clientId: 'scriptorium-cli', deviceName: 'devbox', scope: 'engineer audit:read', ttlSeconds: 7 * 86_400 }, metadata: at('2026-03-01T00:00:00Z') })
    .then(t, [signedIn]);
  spec([signedIn])
    .when({ type: 'RecordAppSignIn', data: { signInId: S, userId: 'u1', clientId: 'scriptorium-cli', deviceName: 'devbox', scope: 'account', ttlSeconds: 60 }, metadata: at('2026-03-01T00:00:01Z') })
    .thenThrows(t, 'conflict');
});

test('its use is recorded while it holds, and not once it ended or expired', (t) => {
  spec([signedIn]).when({ type: 'RecordAppSignInUse', data: {}, metadata: at('2026-03-01T01:00:00Z') }).then(t, [{ type: 'AppSignInUsed', data: { signInId: S, usedAt: '2026-03-01T01:00:00.000Z' } }]);
  spec([signedIn, byUser]).when({ type: 'RecordAppSignInUse', data: {}, metadata: at('2026-03-02T01:00:00Z') }).then(t, []);
  spec([signedIn]).when({ type: 'RecordAppSignInUse', data: {}, metadata: at('2026-03-08T00:00:00Z') }).then(t, []);
  spec([]).when({ type: 'RecordAppSignInUse', data: {}, metadata: at('2026-03-01T01:00:00Z') }).then(t, []);
});

test('the user or the app itself ends it, once; nobody else finds it', (t) => {
  spec([signedIn]).when({ type: 'RevokeAppSignIn', data: { by: 'user', actorId: 'u1' }, metadata: at('2026-03-02T00:00:00Z') }).then(t, [byUser]);
  spec([signedIn])
    .when({ type: 'RevokeAppSignIn', data: { by: 'client', actorId: 'u1' }, metadata: at('2026-03-02T00:00:00Z') })
    .then(t, [{ type: 'AppSignInRevoked', data: { signInId: S, userId: 'u1', reason: 'client', revokedAt: '2026-03-02T00:00:00.000Z' } }]);
  spec([signedIn, byUser]).when({ type: 'RevokeAppSignIn', data: { by: 'user', actorId: 'u1' }, metadata: at('2026-03-03T00:00:00Z') }).then(t, []);
  spec([signedIn]).when({ type: 'RevokeAppSignIn', data: { by: 'user', actorId: 'u2' }, metadata: at('2026-03-02T00:00:00Z') }).thenThrows(t, 'not_found', '该登录不存在或已撤销');
  spec([]).when({ type: 'RevokeAppSignIn', data: { by: 'user', actorId: 'u1' }, metadata: at('2026-03-02T00:00:00Z') }).thenThrows(t, 'not_found');
});

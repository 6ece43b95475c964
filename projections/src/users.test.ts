import test from 'ava';
import type { UserEvent } from '@scriptorium/domain/user/user';
import { registered, T1, T2, T3 } from './fixtures.ts';
import { projectionSpec } from './testing.ts';
import { REVOKED_TOKENS, USERS, usersProjection } from './users.ts';

const spec = projectionSpec<UserEvent>(usersProjection);

test('a registration lists the user, active, with the name in lower case for look-ups', async (t) => {
  await spec.given(registered('u1', { username: 'Ada_L', inviteCode: 'INV-1' })).thenDoc(t, USERS, 'u1', {
    username: 'Ada_L',
    username_lower: 'ada_l',
    email: 'u1@example.org',
    nickname: '读者u1',
    created_at: T1,
    updated_at: T1,
    is_active: true,
    is_admin: false,
    email_verified: false,
    invite_code: 'INV-1',
  });
  await spec.given(registered('u2', { emailVerified: true, isAdmin: true })).thenDoc(t, USERS, 'u2', { email_verified: true, is_admin: true, invite_code: null });
});

test('the admin console lists the newest registration first', async (t) => {
  await spec
    .given(registered('u1', { registeredAt: T2 }), registered('u2', { registeredAt: T3 }), registered('u3', { registeredAt: T1 }))
    .then(t, USERS, [{ _id: 'u2' }, { _id: 'u1' }, { _id: 'u3' }], { sort: { created_at: -1 } });
});

test('a profile update changes what it names; a new e-mail is unverified again', async (t) => {
  const verified = spec.given(registered('u1', { emailVerified: true }));
  await verified
    .when({ type: 'UserProfileUpdated', data: { userId: 'u1', nickname: '艾达', updatedAt: T2 } })
    .thenDoc(t, USERS, 'u1', { nickname: '艾达', email: 'u1@example.org', email_verified: true, updated_at: T2 });
  await verified
    .when({ type: 'UserProfileUpdated', data: { userId: 'u1', email: 'ada@example.org', updatedAt: T2 } })
    .thenDoc(t, USERS, 'u1', { nickname: '读者u1', email: 'ada@example.org', email_verified: false, updated_at: T2 });
});

test('a verification counts only for the address the user still has', async (t) => {
  const changed = spec.given(registered('u1'), { type: 'UserProfileUpdated', data: { userId: 'u1', email: 'new@example.org', updatedAt: T2 } });
  await changed
    .when({ type: 'EmailVerified', data: { userId: 'u1', email: 'u1@example.org', verifiedAt: T3 } })
    .thenDoc(t, USERS, 'u1', { email_verified: false, updated_at: T2 });
  await changed
    .when({ type: 'EmailVerified', data: { userId: 'u1', email: 'new@example.org', verifiedAt: T3 } })
    .thenDoc(t, USERS, 'u1', { email_verified: true, updated_at: T3 });
});

test('a password change, an admin grant, a deactivation and a reactivation each touch the user', async (t) => {
  const user = spec.given(registered('u1'));
  await user.when({ type: 'UserPasswordChanged', data: { userId: 'u1', passwordHash: 'argon2id$other', changedAt: T2 } }).thenDoc(t, USERS, 'u1', { updated_at: T2, password_changed_at: T2 });
  await user.when({ type: 'AdminRoleGranted', data: { userId: 'u1', grantedAt: T2 } }).thenDoc(t, USERS, 'u1', { is_admin: true, updated_at: T2 });
  const deactivated = user.when({ type: 'UserDeactivated', data: { userId: 'u1', by: 'admin', at: T2 } });
  await deactivated.thenDoc(t, USERS, 'u1', { is_active: false, updated_at: T2 });
  await deactivated.when({ type: 'UserReactivated', data: { userId: 'u1', by: 'admin', at: T3 } }).thenDoc(t, USERS, 'u1', { is_active: true, updated_at: T3 });
});

test('the auditor role is granted and revoked on the user', async (t) => {
  const user = spec.given(registered('u1'));
  await user.thenDoc(t, USERS, 'u1', { is_auditor: false });
  const granted = user.when({ type: 'AuditorRoleGranted', data: { userId: 'u1', by: 'admin', at: T2 } });
  await granted.thenDoc(t, USERS, 'u1', { is_auditor: true, updated_at: T2 });
  await granted.when({ type: 'AuditorRoleRevoked', data: { userId: 'u1', by: 'admin', at: T3 } }).thenDoc(t, USERS, 'u1', { is_auditor: false, updated_at: T3 });
});

test('a revoked token is kept until it expires; a later logout forgets the expired ones', async (t) => {
  const revoke = (tokenHash: string, expiresAt: string, at: string): UserEvent => ({ type: 'AccessTokenRevoked', data: { userId: 'u1', tokenHash, expiresAt, at } });
  const first = spec.given(registered('u1'), revoke('hash-1', T2, T1));
  await first.then(t, REVOKED_TOKENS, [{ _id: 'hash-1', user_id: 'u1', expires_at: T2 }]);
  await first.when(revoke('hash-2', '2026-03-10T00:00:00.000Z', T3)).then(t, REVOKED_TOKENS, [{ _id: 'hash-2' }]);
});

test('replaying the log leaves the same user', async (t) => {
  await spec
    .given(registered('u1'), { type: 'UserProfileUpdated', data: { userId: 'u1', email: 'new@example.org', updatedAt: T2 } }, { type: 'EmailVerified', data: { userId: 'u1', email: 'new@example.org', verifiedAt: T3 } })
    .replayed()
    .then(t, USERS, [{ _id: 'u1', email: 'new@example.org', email_verified: true, updated_at: T3 }]);
});

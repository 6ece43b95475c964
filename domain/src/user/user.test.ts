import test from 'ava';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import { userDecider, type RegisterUser } from './decide.ts';
import { emailClaimDecider } from './emailClaim.ts';
import { nameClaimDecider } from './nameClaim.ts';
import type { UserEvent } from './user.ts';

const spec = deciderSpec(userDecider);
const registration: RegisterUser['data'] = {
  userId: 'u1',
  username: 'lin',
  email: 'lin@example.com',
  nickname: '林',
  passwordHash: 'h1',
  isAdmin: false,
};
const registered: UserEvent = { type: 'UserRegistered', data: { ...registration, registeredAt: '2026-01-01T00:00:00.000Z' } };

test('registering a new user records who registered and when', (t) => {
  spec([])
    .when({ type: 'RegisterUser', data: registration, metadata: at('2026-01-01T00:00:00Z') })
    .then(t, [registered]);
});

test('a username is registered once', (t) => {
  spec([registered])
    .when({ type: 'RegisterUser', data: registration, metadata: at('2026-01-02T00:00:00Z') })
    .thenThrows(t, 'conflict', '用户名已被注册');
});

test('a profile update records only what changed', (t) => {
  spec([registered])
    .when({ type: 'UpdateProfile', data: { nickname: '林', email: 'new@example.com' }, metadata: at('2026-01-02T00:00:00Z') })
    .then(t, [{ type: 'UserProfileUpdated', data: { userId: 'u1', email: 'new@example.com', updatedAt: '2026-01-02T00:00:00.000Z' } }]);
});

test('an update that changes nothing records nothing', (t) => {
  spec([registered]).when({ type: 'UpdateProfile', data: { nickname: '林' }, metadata: at('2026-01-02T00:00:00Z') }).then(t, []);
});

test('an unknown user cannot be updated', (t) => {
  spec([]).when({ type: 'UpdateProfile', data: { nickname: 'x' }, metadata: at('2026-01-02T00:00:00Z') }).thenThrows(t, 'not_found', '未找到用户信息');
});

test('changing the e-mail clears its verification', (t) => {
  const state = [registered, { type: 'UserProfileUpdated', data: { userId: 'u1', email: 'b@example.com', updatedAt: 'x' } } as UserEvent].reduce(
    userDecider.evolve,
    userDecider.initialState(),
  );
  t.is(state.status === 'active' && state.emailVerified, false);
  t.is(state.status === 'active' && state.email, 'b@example.com');
});

test('granting the admin role twice records it once', (t) => {
  const granted: UserEvent = { type: 'AdminRoleGranted', data: { userId: 'u1', grantedAt: '2026-01-02T00:00:00.000Z' } };
  spec([registered]).when({ type: 'GrantAdminRole', data: {}, metadata: at('2026-01-02T00:00:00Z') }).then(t, [granted]);
  spec([registered, granted]).when({ type: 'GrantAdminRole', data: {}, metadata: at('2026-01-03T00:00:00Z') }).then(t, []);
});

test('a verified address is recorded once, and only for the address the account still has', (t) => {
  const verified: UserEvent = { type: 'EmailVerified', data: { userId: 'u1', email: 'lin@example.com', verifiedAt: '2026-01-02T00:00:00.000Z' } };
  spec([registered]).when({ type: 'VerifyEmail', data: { email: 'lin@example.com' }, metadata: at('2026-01-02T00:00:00Z') }).then(t, [verified]);
  spec([registered, verified]).when({ type: 'VerifyEmail', data: { email: 'lin@example.com' }, metadata: at('2026-01-03T00:00:00Z') }).then(t, []);
  spec([registered])
    .when({ type: 'VerifyEmail', data: { email: 'old@example.com' }, metadata: at('2026-01-02T00:00:00Z') })
    .thenThrows(t, 'conflict', '该邮箱已不是此账户的邮箱');
});

test('a registration with a valid code starts verified and remembers its invite code', (t) => {
  const state = [{ type: 'UserRegistered', data: { ...registered.data, inviteCode: 'ABCD2345', emailVerified: true } } as UserEvent].reduce(
    userDecider.evolve,
    userDecider.initialState(),
  );
  t.is(state.status === 'active' && state.emailVerified, true);
});

test('an admin switches an account off and on; nobody switches themselves off', (t) => {
  const off: UserEvent = { type: 'UserDeactivated', data: { userId: 'u1', by: 'admin', at: '2026-01-02T00:00:00.000Z' } };
  spec([registered]).when({ type: 'SetActive', data: { active: false, by: 'admin' }, metadata: at('2026-01-02T00:00:00Z') }).then(t, [off]);
  spec([registered, off]).when({ type: 'SetActive', data: { active: false, by: 'admin' }, metadata: at('2026-01-03T00:00:00Z') }).then(t, []);
  spec([registered, off])
    .when({ type: 'SetActive', data: { active: true, by: 'admin' }, metadata: at('2026-01-03T00:00:00Z') })
    .then(t, [{ type: 'UserReactivated', data: { userId: 'u1', by: 'admin', at: '2026-01-03T00:00:00.000Z' } }]);
  spec([registered]).when({ type: 'SetActive', data: { active: true, by: 'admin' }, metadata: at('2026-01-02T00:00:00Z') }).then(t, []);
  spec([registered]).when({ type: 'SetActive', data: { active: false, by: 'u1' }, metadata: at('2026-01-02T00:00:00Z') }).thenThrows(t, 'forbidden');
  const state = [registered, off].reduce(userDecider.evolve, userDecider.initialState());
  t.is(state.status, 'deactivated');
});

test('a logout revokes the token until it expires', (t) => {
  spec([registered])
    .when({ type: 'RevokeToken', data: { tokenHash: 'h', expiresAt: '2026-01-09T00:00:00.000Z' }, metadata: at('2026-01-02T00:00:00Z') })
    .then(t, [{ type: 'AccessTokenRevoked', data: { userId: 'u1', tokenHash: 'h', expiresAt: '2026-01-09T00:00:00.000Z', at: '2026-01-02T00:00:00.000Z' } }]);
  spec([]).when({ type: 'RevokeToken', data: { tokenHash: 'h', expiresAt: 'x' }, metadata: at('2026-01-02T00:00:00Z') }).thenThrows(t, 'not_found');
});

const claims = deciderSpec(emailClaimDecider);

test('an e-mail address is held by one user at a time', (t) => {
  const reserved = { type: 'EmailReserved' as const, data: { email: 'a@x.com', userId: 'u1' } };
  claims([]).when({ type: 'ReserveEmail', data: { email: 'a@x.com', userId: 'u1' }, metadata: at('2026-01-01T00:00:00Z') }).then(t, [reserved]);
  claims([reserved]).when({ type: 'ReserveEmail', data: { email: 'a@x.com', userId: 'u1' }, metadata: at('2026-01-01T00:00:00Z') }).then(t, []);
  claims([reserved])
    .when({ type: 'ReserveEmail', data: { email: 'a@x.com', userId: 'u2' }, metadata: at('2026-01-01T00:00:00Z') })
    .thenThrows(t, 'conflict', '该邮箱已被注册');
  const released = { type: 'EmailReleased' as const, data: { email: 'a@x.com', userId: 'u1' } };
  claims([reserved, released])
    .when({ type: 'ReserveEmail', data: { email: 'a@x.com', userId: 'u2' }, metadata: at('2026-01-01T00:00:00Z') })
    .then(t, [{ type: 'EmailReserved', data: { email: 'a@x.com', userId: 'u2' } }]);
});

const names = deciderSpec(nameClaimDecider);

test('a name skeleton is held by one user at a time, so look-alike names racing cannot both register', (t) => {
  const reserved = { type: 'UsernameKeyReserved' as const, data: { usernameKey: 'lin', userId: 'u1' } };
  names([]).when({ type: 'ReserveUsernameKey', data: { usernameKey: 'lin', userId: 'u1' }, metadata: at('2026-01-01T00:00:00Z') }).then(t, [reserved]);
  names([reserved]).when({ type: 'ReserveUsernameKey', data: { usernameKey: 'lin', userId: 'u1' }, metadata: at('2026-01-01T00:00:00Z') }).then(t, []);
  names([reserved])
    .when({ type: 'ReserveUsernameKey', data: { usernameKey: 'lin', userId: 'u2' }, metadata: at('2026-01-01T00:00:00Z') })
    .thenThrows(t, 'conflict');
  names([reserved]).when({ type: 'ReleaseUsernameKey', data: { usernameKey: 'lin', userId: 'u2' }, metadata: at('2026-01-01T00:00:00Z') }).then(t, []);
  const released = { type: 'UsernameKeyReleased' as const, data: { usernameKey: 'lin', userId: 'u1' } };
  names([reserved]).when({ type: 'ReleaseUsernameKey', data: { usernameKey: 'lin', userId: 'u1' }, metadata: at('2026-01-01T00:00:00Z') }).then(t, [released]);
  names([reserved, released])
    .when({ type: 'ReserveUsernameKey', data: { usernameKey: 'lin', userId: 'u2' }, metadata: at('2026-01-01T00:00:00Z') })
    .then(t, [{ type: 'UsernameKeyReserved', data: { usernameKey: 'lin', userId: 'u2' } }]);
});

test('an admin grants and revokes the auditor role; granting it twice records nothing', (t) => {
  const granted: UserEvent = { type: 'AuditorRoleGranted', data: { userId: 'u1', by: 'root', at: '2026-01-02T00:00:00.000Z' } };
  spec([registered]).when({ type: 'SetAuditor', data: { auditor: true, by: 'root' }, metadata: at('2026-01-02T00:00:00Z') }).then(t, [granted]);
  spec([registered, granted]).when({ type: 'SetAuditor', data: { auditor: true, by: 'root' }, metadata: at('2026-01-03T00:00:00Z') }).then(t, []);
  spec([registered, granted])
    .when({ type: 'SetAuditor', data: { auditor: false, by: 'root' }, metadata: at('2026-01-03T00:00:00Z') })
    .then(t, [{ type: 'AuditorRoleRevoked', data: { userId: 'u1', by: 'root', at: '2026-01-03T00:00:00.000Z' } }]);
  spec([]).when({ type: 'SetAuditor', data: { auditor: true, by: 'root' }, metadata: at('2026-01-02T00:00:00Z') }).thenThrows(t, 'not_found', '未找到用户信息');
});

test('a password change records the new hash, why and by whom: the user, a mailed code or an administrator', (t) => {
  spec([registered])
    .when({ type: 'ChangePassword', data: { passwordHash: 'h2', reason: 'changed' }, metadata: at('2026-01-03T00:00:00Z') })
    .then(t, [{ type: 'UserPasswordChanged', data: { userId: 'u1', passwordHash: 'h2', changedAt: '2026-01-03T00:00:00.000Z', reason: 'changed' } }]);
  spec([registered])
    .when({ type: 'ChangePassword', data: { passwordHash: 'h3', reason: 'reset_by_admin', by: 'admin' }, metadata: at('2026-01-03T00:00:00Z') })
    .then(t, [{ type: 'UserPasswordChanged', data: { userId: 'u1', passwordHash: 'h3', changedAt: '2026-01-03T00:00:00.000Z', reason: 'reset_by_admin', by: 'admin' } }]);
});

test('a deactivated account may be reset by an administrator, but not by itself or a mailed code', (t) => {
  const deactivated: UserEvent = { type: 'UserDeactivated', data: { userId: 'u1', by: 'admin', at: '2026-01-02T00:00:00.000Z' } };
  spec([registered, deactivated])
    .when({ type: 'ChangePassword', data: { passwordHash: 'h2', reason: 'reset_by_code' }, metadata: at('2026-01-03T00:00:00Z') })
    .thenThrows(t, 'forbidden', '账户已停用，请联系管理员');
  spec([registered, deactivated])
    .when({ type: 'ChangePassword', data: { passwordHash: 'h2', reason: 'reset_by_admin', by: 'admin' }, metadata: at('2026-01-03T00:00:00Z') })
    .then(t, [{ type: 'UserPasswordChanged', data: { userId: 'u1', passwordHash: 'h2', changedAt: '2026-01-03T00:00:00.000Z', reason: 'reset_by_admin', by: 'admin' } }]);
});

test('nobody changes the password of an account that does not exist', (t) => {
  spec([])
    .when({ type: 'ChangePassword', data: { passwordHash: 'h2', reason: 'reset_by_admin', by: 'admin' }, metadata: at('2026-01-03T00:00:00Z') })
    .thenThrows(t, 'not_found');
});

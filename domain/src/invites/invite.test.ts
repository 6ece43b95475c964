import test from 'ava';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import { inviteDecider, randomInviteCode } from './decide.ts';
import { INVITE_ALPHABET, INVITE_LENGTH, InviteRefused, type InviteEvent } from './invite.ts';

const spec = deciderSpec(inviteDecider);
const generated: InviteEvent = { type: 'InviteCodeGenerated', data: { code: 'ABCD2345', createdBy: 'admin', at: '2026-01-01T00:00:00.000Z' } };
const redeemed: InviteEvent = { type: 'InviteCodeRedeemed', data: { code: 'ABCD2345', userId: 'u1', username: 'lin', at: '2026-01-02T00:00:00.000Z' } };
const redeem = (userId: string) => ({ type: 'RedeemInviteCode' as const, data: { code: 'ABCD2345', userId, username: userId === 'u1' ? 'lin' : 'other' }, metadata: at('2026-01-02T00:00:00Z') });

test('an admin generates a code once', (t) => {
  spec([]).when({ type: 'GenerateInviteCode', data: { code: 'ABCD2345', createdBy: 'admin' }, metadata: at('2026-01-01T00:00:00Z') }).then(t, [generated]);
  spec([generated]).when({ type: 'GenerateInviteCode', data: { code: 'ABCD2345', createdBy: 'admin' }, metadata: at('2026-01-01T00:00:00Z') }).thenThrows(t, 'conflict');
});

test('a code is redeemed once and records who used it', (t) => {
  spec([generated]).when(redeem('u1')).then(t, [redeemed]);
  spec([generated, redeemed]).when(redeem('u1')).then(t, []);
  spec([generated, redeemed]).when(redeem('u2')).thenThrows(t, 'invalid', '邀请码已被使用');
});

test('an unknown code is refused', (t) => {
  spec([]).when(redeem('u1')).thenThrows(t, 'invalid', '邀请码无效');
  t.throws(() => inviteDecider.decide(redeem('u1'), inviteDecider.initialState()), { instanceOf: InviteRefused });
});

test('a redemption whose registration failed gives the code back', (t) => {
  const reverted: InviteEvent = { type: 'InviteRedemptionReverted', data: { code: 'ABCD2345', userId: 'u1', at: '2026-01-02T00:00:00.000Z' } };
  spec([generated, redeemed]).when({ type: 'RevertRedemption', data: { code: 'ABCD2345', userId: 'u1' }, metadata: at('2026-01-02T00:00:00Z') }).then(t, [reverted]);
  spec([generated, redeemed]).when({ type: 'RevertRedemption', data: { code: 'ABCD2345', userId: 'u2' }, metadata: at('2026-01-02T00:00:00Z') }).then(t, []);
  spec([generated, redeemed, reverted]).when(redeem('u2')).then(t, [{ type: 'InviteCodeRedeemed', data: { code: 'ABCD2345', userId: 'u2', username: 'other', at: '2026-01-02T00:00:00.000Z' } }]);
});

test('generated codes use the unambiguous alphabet', (t) => {
  for (let i = 0; i < 50; i++) {
    const code = randomInviteCode();
    t.is(code.length, INVITE_LENGTH);
    t.true([...code].every((char) => INVITE_ALPHABET.includes(char)));
  }
});

test('an administrator withdraws an unused code once: it then reads as invalid; a used code cannot be withdrawn', (t) => {
  const revoke = { type: 'RevokeInviteCode' as const, data: { revokedBy: 'admin' }, metadata: at('2026-01-03T00:00:00Z') };
  const revoked: InviteEvent = { type: 'InviteCodeRevoked', data: { code: 'ABCD2345', revokedBy: 'admin', at: '2026-01-03T00:00:00.000Z' } };
  spec([generated]).when(revoke).then(t, [revoked]);
  spec([generated, revoked]).when(revoke).then(t, []);
  spec([generated, revoked]).when(redeem('u1')).thenThrows(t, 'invalid', '邀请码无效');
  spec([generated, redeemed]).when(revoke).thenThrows(t, 'conflict', '邀请码已被使用，无法作废');
  spec([]).when(revoke).thenThrows(t, 'not_found', '邀请码不存在');
});

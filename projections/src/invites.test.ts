import test from 'ava';
import type { InviteEvent } from '@scriptorium/domain/invites/invite';
import { T1, T2, T3 } from './fixtures.ts';
import { INVITE_CODES, invitesProjection } from './invites.ts';
import { projectionSpec } from './testing.ts';

const spec = projectionSpec<InviteEvent>(invitesProjection);
const generated = (code: string, at: string): InviteEvent => ({ type: 'InviteCodeGenerated', data: { code, createdBy: 'admin', at } });
const redeemed: InviteEvent = { type: 'InviteCodeRedeemed', data: { code: 'INV-1', userId: 'u1', username: 'ada', at: T2 } };

test('a generated code is unused', async (t) => {
  await spec.given(generated('INV-1', T1)).thenDoc(t, INVITE_CODES, 'INV-1', { code: 'INV-1', status: 'unused', created_by: 'admin', created_at: T1, used_by: null, used_by_username: null, used_at: null });
});

test('a redeemed code names who used it; a reverted redemption frees it again', async (t) => {
  const used = spec.given(generated('INV-1', T1), redeemed);
  await used.thenDoc(t, INVITE_CODES, 'INV-1', { status: 'used', used_by: 'u1', used_by_username: 'ada', used_at: T2 });
  await used
    .when({ type: 'InviteRedemptionReverted', data: { code: 'INV-1', userId: 'u1', at: T3 } })
    .thenDoc(t, INVITE_CODES, 'INV-1', { status: 'unused', used_by: null, used_by_username: null, used_at: null, created_at: T1 });
});

test('the admin lists codes newest first, filtered by status', async (t) => {
  await spec
    .given(generated('INV-1', T1), generated('INV-2', T3), generated('INV-3', T2), redeemed)
    .then(t, INVITE_CODES, [{ _id: 'INV-2' }, { _id: 'INV-3' }], { filter: { status: 'unused' }, sort: { created_at: -1 } });
});

test('a withdrawn code is marked revoked, with when', async (t) => {
  await spec
    .given(generated('INV-1', T1))
    .when({ type: 'InviteCodeRevoked', data: { code: 'INV-1', revokedBy: 'admin', at: T2 } })
    .thenDoc(t, INVITE_CODES, 'INV-1', { status: 'revoked', revoked_at: T2, used_by: null });
});

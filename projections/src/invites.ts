import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import type { InviteEvent } from '@scriptorium/domain/invites/invite';
import type { Projection } from './projection.ts';

/** The admin's list of invite codes. */
export interface InviteCodeDoc extends Doc {
  code: string;
  status: 'unused' | 'used' | 'revoked';
  created_by: string;
  created_at: string;
  used_by: string | null;
  used_by_username: string | null;
  used_at: string | null;
  revoked_at?: string;
}

export const INVITE_CODES = 'invite_codes';

export const invitesProjection: Projection = {
  name: 'invites',
  collections: [INVITE_CODES],
  handles: ['InviteCodeGenerated', 'InviteCodeRedeemed', 'InviteRedemptionReverted', 'InviteCodeRevoked'] satisfies InviteEvent['type'][],
  async setup(store) {
    await store.collection(INVITE_CODES).ensureIndex({ fields: { created_at: -1 } });
    await store.collection(INVITE_CODES).ensureIndex({ fields: { status: 1, created_at: -1 } });
  },
  async apply(recorded: RecordedEvent, tx) {
    const codes = tx.collection<InviteCodeDoc>(INVITE_CODES);
    const event = { type: recorded.type, data: recorded.data } as InviteEvent;
    switch (event.type) {
      case 'InviteCodeGenerated':
        await codes.put({ _id: event.data.code, code: event.data.code, status: 'unused', created_by: event.data.createdBy, created_at: event.data.at, used_by: null, used_by_username: null, used_at: null });
        return;
      case 'InviteCodeRedeemed':
        await codes.update(event.data.code, { $set: { status: 'used', used_by: event.data.userId, used_by_username: event.data.username, used_at: event.data.at } });
        return;
      case 'InviteRedemptionReverted':
        await codes.update(event.data.code, { $set: { status: 'unused', used_by: null, used_by_username: null, used_at: null } });
        return;
      case 'InviteCodeRevoked':
        await codes.update(event.data.code, { $set: { status: 'revoked', revoked_at: event.data.at } });
        return;
      default:
        assertNever(event);
    }
  },
};

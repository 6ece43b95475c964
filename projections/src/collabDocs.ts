import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import { COLLAB_EVENT_TYPES, type CollabDocEvent } from '@scriptorium/domain/collabdoc/collabdoc';
import type { CollabAccess, CollabRole } from '@scriptorium/domain/protocol/collab';
import type { Projection } from './projection.ts';

/**
 * Shared documents: one document each (title, owner, current version, member count), one per member
 * (what "my documents" lists, by user; a removed or departed member's is deleted), one per invitation
 * link (what its owner lists and revokes), and the snapshots the decider records every
 * `COLLAB_SNAPSHOT_EVERY` steps, from which opening a document or replaying its history starts
 * instead of folding every step since the beginning.
 */
export interface CollabDocDoc extends Doc {
  title: string;
  report: { session_id: string; version: number } | null;
  owner_id: string;
  version: number;
  member_count: number;
  created_at: string;
  updated_at: string;
}

export interface CollabMemberDoc extends Doc {
  doc_id: string;
  user_id: string;
  access: CollabAccess;
  joined_at: string;
}

/** An invitation link as its owner manages it (its secret is never kept): who joined through it, and whether it was revoked. */
export interface CollabInviteDoc extends Doc {
  doc_id: string;
  role: CollabRole;
  created_at: string;
  /** Each person once, however often they joined or were upgraded through it. */
  joined_by: string[];
  revoked_at: string | null;
}

export interface CollabSnapshotDoc extends Doc {
  doc_id: string;
  version: number;
  /** The stream revision of the snapshot event: the steps after it are read from the next one. */
  revision: number;
  doc: unknown;
}

export const COLLAB_DOCS = 'collab_docs';
export const COLLAB_MEMBERS = 'collab_members';
export const COLLAB_SNAPSHOTS = 'collab_snapshots';
export const COLLAB_INVITES = 'collab_invites';

export const collabMemberId = (docId: string, userId: string): string => `${docId}:${userId}`;

export const collabDocsProjection: Projection = {
  name: 'collabDocs',
  collections: [COLLAB_DOCS, COLLAB_MEMBERS, COLLAB_SNAPSHOTS, COLLAB_INVITES],
  handles: COLLAB_EVENT_TYPES,
  async setup(store) {
    await store.collection(COLLAB_MEMBERS).ensureIndex({ fields: { user_id: 1 } });
    await store.collection(COLLAB_MEMBERS).ensureIndex({ fields: { doc_id: 1 } });
    await store.collection(COLLAB_SNAPSHOTS).ensureIndex({ fields: { doc_id: 1, version: -1 } });
    await store.collection(COLLAB_INVITES).ensureIndex({ fields: { doc_id: 1 } });
  },
  async apply(recorded: RecordedEvent, tx) {
    const docs = tx.collection<CollabDocDoc>(COLLAB_DOCS);
    const members = tx.collection<CollabMemberDoc>(COLLAB_MEMBERS);
    const invites = tx.collection<CollabInviteDoc>(COLLAB_INVITES);
    const event = { type: recorded.type, data: recorded.data } as CollabDocEvent;
    switch (event.type) {
      case 'CollabDocCreated': {
        const { docId, ownerId, title, report, at } = event.data;
        await docs.put({ _id: docId, title, report: report ? { session_id: report.sessionId, version: report.version } : null, owner_id: ownerId, version: 0, member_count: 1, created_at: at, updated_at: at });
        await members.put({ _id: collabMemberId(docId, ownerId), doc_id: docId, user_id: ownerId, access: 'owner', joined_at: at });
        return;
      }
      case 'CollabStepsAccepted': {
        const { docId, version, steps, at } = event.data;
        await docs.update(docId, { $set: { version: version + steps.length, updated_at: at } });
        return;
      }
      case 'CollabDocSnapshotted': {
        const { docId, version, doc } = event.data;
        await tx.collection<CollabSnapshotDoc>(COLLAB_SNAPSHOTS).put({ _id: `${docId}:${version}`, doc_id: docId, version, revision: recorded.revision, doc });
        return;
      }
      case 'CollabMemberJoined': {
        const { docId, userId, role, inviteId, at } = event.data;
        const id = collabMemberId(docId, userId);
        // An upgraded reader keeps the day it first joined.
        const joinedAt = (await members.get(id))?.joined_at ?? at;
        await members.put({ _id: id, doc_id: docId, user_id: userId, access: role, joined_at: joinedAt });
        await docs.update(docId, { $set: { member_count: await members.count({ doc_id: docId }) } });
        const invite = await invites.get(inviteId);
        if (invite && !invite.joined_by.includes(userId)) await invites.update(inviteId, { $set: { joined_by: [...invite.joined_by, userId] } });
        return;
      }
      case 'CollabInviteCreated': {
        const { docId, inviteId, role, at } = event.data;
        await invites.put({ _id: inviteId, doc_id: docId, role, created_at: at, joined_by: [], revoked_at: null });
        return;
      }
      case 'CollabInviteRevoked':
        await invites.update(event.data.inviteId, { $set: { revoked_at: event.data.at } });
        return;
      case 'CollabDocRenamed':
        await docs.update(event.data.docId, { $set: { title: event.data.title, updated_at: event.data.at } });
        return;
      case 'CollabMemberRoleChanged':
        await members.update(collabMemberId(event.data.docId, event.data.userId), { $set: { access: event.data.role } });
        return;
      case 'CollabMemberRemoved':
      case 'CollabMemberLeft': {
        const { docId, userId } = event.data;
        await members.delete(collabMemberId(docId, userId));
        await docs.update(docId, { $set: { member_count: await members.count({ doc_id: docId }) } });
        return;
      }
      default:
        assertNever(event);
    }
  },
};

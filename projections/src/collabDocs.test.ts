import test from 'ava';
import type { CollabDocEvent } from '@scriptorium/domain/collabdoc/collabdoc';
import { COLLAB_DOCS, COLLAB_INVITES, COLLAB_MEMBERS, COLLAB_SNAPSHOTS, collabDocsProjection } from './collabDocs.ts';
import { T1, T2, T3 } from './fixtures.ts';
import { projectionSpec } from './testing.ts';

const spec = projectionSpec<CollabDocEvent>(collabDocsProjection);
const D = 'd'.repeat(32);
const streamId = `collabdoc-${D}`;
const created: CollabDocEvent & { streamId: string } = { type: 'CollabDocCreated', data: { docId: D, ownerId: 'u1', title: '周报', at: T1 }, streamId };
const step = { stepType: 'replace', from: 1, to: 1, slice: { content: [{ type: 'text', text: 'a' }] } };
const accepted = (version: number, count: number, at = T2) => ({ type: 'CollabStepsAccepted' as const, data: { docId: D, userId: 'u1', clientId: 'c', version, steps: Array.from({ length: count }, () => step), at }, streamId });
const joined = (userId: string, role: 'edit' | 'read', at = T2) => ({ type: 'CollabMemberJoined' as const, data: { docId: D, userId, role, inviteId: 'i', at }, streamId });

test('a new document lists its owner as its one member, at version 0', async (t) => {
  await spec.given(created).thenDoc(t, COLLAB_DOCS, D, { title: '周报', report: null, owner_id: 'u1', version: 0, member_count: 1, updated_at: T1 });
  await spec.given(created).then(t, COLLAB_MEMBERS, [{ doc_id: D, user_id: 'u1', access: 'owner', joined_at: T1 }]);
});

test('accepted steps move the version on by their count', async (t) => {
  await spec.given(created, accepted(0, 3)).when(accepted(3, 2, T3)).thenDoc(t, COLLAB_DOCS, D, { version: 5, updated_at: T3 });
});

test('members are listed by user; an upgraded reader keeps the day they joined', async (t) => {
  const scenario = spec.given(created, joined('u2', 'read', T2)).when(joined('u3', 'edit', T2), joined('u2', 'edit', T3));
  await scenario.then(t, COLLAB_MEMBERS, [{ user_id: 'u2', access: 'edit', joined_at: T2 }], { filter: { user_id: 'u2' } });
  await scenario.thenDoc(t, COLLAB_DOCS, D, { member_count: 3 });
});

test('snapshots keep the version, the stream revision to read on from, and the document', async (t) => {
  const doc = { type: 'doc', content: [{ type: 'paragraph' }] };
  await spec
    .given(created, accepted(0, 100))
    .when({ type: 'CollabDocSnapshotted', data: { docId: D, version: 100, doc, at: T2 }, streamId })
    .then(t, COLLAB_SNAPSHOTS, [{ _id: `${D}:100`, doc_id: D, version: 100, revision: 2, doc }]);
});

test('a replayed batch of collaboration documents leaves the same documents', async (t) => {
  await spec
    .given(created)
    .when(accepted(0, 2), joined('u2', 'read'))
    .replayed()
    .thenDoc(t, COLLAB_DOCS, D, { version: 2, member_count: 2 });
});

test("a report's co-edit names its session and the canvas version it started from", async (t) => {
  await spec
    .given({ type: 'CollabDocCreated', data: { docId: D, ownerId: 'u1', title: '报告', report: { sessionId: 's1', version: 3 }, at: T1 }, streamId })
    .thenDoc(t, COLLAB_DOCS, D, { report: { session_id: 's1', version: 3 } });
});

const invited = (inviteId: string, role: 'edit' | 'read') => ({ type: 'CollabInviteCreated' as const, data: { docId: D, inviteId, tokenHash: `h-${inviteId}`, role, createdBy: 'u1', at: T1 }, streamId });
const joinedBy = (userId: string, inviteId: string, role: 'edit' | 'read', at = T2) => ({ type: 'CollabMemberJoined' as const, data: { docId: D, userId, role, inviteId, at }, streamId });

test('a rename changes the title for every member', async (t) => {
  await spec.given(created).when({ type: 'CollabDocRenamed', data: { docId: D, title: '月报', by: 'u1', at: T3 }, streamId }).thenDoc(t, COLLAB_DOCS, D, { title: '月报', updated_at: T3 });
});

test('links are listed with who joined through each, once a person; a revoked link keeps its count and says when', async (t) => {
  const scenario = spec
    .given(created, invited('i1', 'read'), invited('i2', 'edit'))
    .when(joinedBy('u2', 'i1', 'read'), joinedBy('u3', 'i1', 'read'), joinedBy('u2', 'i2', 'edit'), joinedBy('u2', 'i1', 'read', T3), { type: 'CollabInviteRevoked', data: { docId: D, inviteId: 'i1', by: 'u1', at: T3 }, streamId });
  await scenario.then(t, COLLAB_INVITES, [
    { _id: 'i1', doc_id: D, role: 'read', created_at: T1, joined_by: ['u2', 'u3'], revoked_at: T3 },
    { _id: 'i2', doc_id: D, role: 'edit', created_at: T1, joined_by: ['u2'], revoked_at: null },
  ]);
});

test('a removed or departed member is no longer listed, and the count follows; a role change keeps the day they joined', async (t) => {
  const scenario = spec
    .given(created, joined('u2', 'edit'), joined('u3', 'edit'), joined('u4', 'read'))
    .when(
      { type: 'CollabMemberRemoved', data: { docId: D, userId: 'u2', by: 'u1', at: T3 }, streamId },
      { type: 'CollabMemberLeft', data: { docId: D, userId: 'u4', at: T3 }, streamId },
      { type: 'CollabMemberRoleChanged', data: { docId: D, userId: 'u3', role: 'read', by: 'u1', at: T3 }, streamId },
    );
  await scenario.then(t, COLLAB_MEMBERS, [
    { user_id: 'u1', access: 'owner' },
    { user_id: 'u3', access: 'read', joined_at: T2 },
  ], { sort: { user_id: 1 } });
  await scenario.thenDoc(t, COLLAB_DOCS, D, { member_count: 2 });
});

test('a replayed removal leaves the same documents', async (t) => {
  await spec
    .given(created, invited('i1', 'edit'))
    .when(joinedBy('u2', 'i1', 'edit'), { type: 'CollabMemberRemoved', data: { docId: D, userId: 'u2', by: 'u1', at: T3 }, streamId })
    .replayed()
    .thenDoc(t, COLLAB_DOCS, D, { member_count: 1 });
});

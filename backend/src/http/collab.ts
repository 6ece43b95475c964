import Router from '@koa/router';
import { z } from 'zod';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import {
  COLLAB_DOCS,
  COLLAB_INVITES,
  COLLAB_MEMBERS,
  COLLAB_SNAPSHOTS,
  collabMemberId,
  type CollabDocDoc,
  type CollabInviteDoc,
  type CollabMemberDoc,
  type CollabSnapshotDoc,
} from '@scriptorium/projections/collabDocs';
import type { CollabService, CollabSnapshot } from '@scriptorium/domain/collabdoc/service';
import {
  acceptCollabInviteSchema,
  changeCollabRoleSchema,
  collabDocIdSchema,
  collabInviteIdSchema,
  collabMemberIdSchema,
  createCollabDocSchema,
  createCollabInviteSchema,
  collabDocListSchema,
  collabDocSchema,
  collabDocSummarySchema,
  collabHistorySchema,
  collabInviteSchema,
  collabInvitesSchema,
  collabMembersSchema,
  collabVersionSchema,
  renameCollabDocSchema,
  COLLAB_LIMITS,
  type CollabDocDto,
  type CollabDocSummaryDto,
  type CollabHistoryDto,
  type CollabInviteDto,
  type CollabInvitesDto,
  type CollabMemberDto,
  type CollabMembersDto,
  type CollabVersionDto,
} from '@scriptorium/domain/protocol/collab';
import type { ReadStore } from '@scriptorium/infra/readstore/port';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { contract } from './contract.ts';
import { httpError } from './errors.ts';
import { ownedChat } from './ownedChat.ts';
import { parseBody, parseParams, parseQuery } from './validate.ts';
import { usersById } from './usersById.ts';

const docParam = z.object({ id: collabDocIdSchema });
const versionParam = z.object({ id: collabDocIdSchema, version: z.coerce.number({ error: 'collab.version_invalid' }).int('collab.version_invalid').min(0, 'collab.version_invalid') });
const inviteParam = z.object({ id: collabDocIdSchema, inviteId: collabInviteIdSchema });
const memberParam = z.object({ id: collabDocIdSchema, userId: collabMemberIdSchema });
const historyQuery = z.object({ after: z.coerce.number().int().min(0).default(0) });

/** The names members and history show: the nickname, else the user name. */
export async function displayNames(readStore: ReadStore, userIds: Iterable<string>): Promise<Map<string, string>> {
  const users = await usersById(readStore, userIds);
  return new Map([...users.values()].map((user) => [user._id, user.nickname || user.username]));
}

/** The nearest snapshot at or before `version` (the latest when not given): where a rebuild starts. */
export async function nearestSnapshot(readStore: ReadStore, docId: string, version?: number): Promise<CollabSnapshot | null> {
  const snapshot = await readStore
    .collection<CollabSnapshotDoc>(COLLAB_SNAPSHOTS)
    .findOne({ doc_id: docId, ...(version !== undefined && { version: { $lte: version } }) }, { sort: { version: -1 } });
  return snapshot ? { version: snapshot.version, revision: snapshot.revision, doc: snapshot.doc } : null;
}

const summary = (doc: CollabDocDoc, member: CollabMemberDoc): CollabDocSummaryDto => ({
  id: doc._id,
  title: doc.title,
  report: doc.report ?? null,
  owner_id: doc.owner_id,
  access: member.access,
  version: doc.version,
  member_count: doc.member_count,
  created_at: doc.created_at,
  updated_at: doc.updated_at,
});

/**
 * Shared documents edited live (`/collaboration`): create, list, open (the content at the latest
 * version, from the nearest snapshot and the log after it), invite by link with edit or read rights,
 * accept a link, and the history: its batches and the document rebuilt at any version. Its owner
 * renames it, lists and revokes its links, removes members or changes their role; a member lists the
 * members and may leave. The steps themselves travel over the document's socket (`ws/collab.ts`).
 */
export function collabRoutes(services: Services, collab: CollabService, progress: ProjectionProgress): Router {
  const router = new Router({ prefix: '/api/collab' });
  const docs = () => services.readStore.collection<CollabDocDoc>(COLLAB_DOCS);
  const members = () => services.readStore.collection<CollabMemberDoc>(COLLAB_MEMBERS);

  /** A document someone is not a member of answers as a missing one. */
  async function membership(userId: string, docId: string, position = 0): Promise<{ doc: CollabDocDoc; member: CollabMemberDoc }> {
    await progress.waitFor(position);
    const [doc, member] = await Promise.all([docs().get(docId), members().get(collabMemberId(docId, userId))]);
    if (!doc || !member) throw httpError(404, 'collab.not_found');
    return { doc, member };
  }

  /** Reads of what only the owner manages: a member is told so, anyone else that there is no such document. */
  async function ownership(userId: string, docId: string): Promise<{ doc: CollabDocDoc; member: CollabMemberDoc }> {
    const found = await membership(userId, docId);
    if (found.member.access !== 'owner') throw httpError(403, 'collab.owner_only_manage');
    return found;
  }

  async function memberList(docId: string): Promise<CollabMemberDto[]> {
    const all = await members().find({ doc_id: docId }, { sort: { joined_at: 1 } });
    const names = await displayNames(services.readStore, all.map((one) => one.user_id));
    return all.map((one) => ({ user_id: one.user_id, name: names.get(one.user_id) ?? one.user_id, access: one.access, joined_at: one.joined_at }));
  }

  router.post('/docs', contract({ access: 'user', body: createCollabDocSchema, responses: { 201: collabDocSummarySchema }, refusals: [404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { title, report, doc: content } = parseBody(ctx, createCollabDocSchema);
    // Only a session's owner opens its report to co-editing.
    if (report) await ownedChat(services.readStore, user.id, report.session_id);
    const start = report && content ? { report: { sessionId: report.session_id, version: report.version }, doc: content } : undefined;
    const { docId, position } = await collab.create(user.id, title, start);
    const { doc, member } = await membership(user.id, docId, position);
    ctx.status = 201;
    ctx.body = summary(doc, member);
  });

  router.get('/docs', contract({ access: 'user', responses: { 200: collabDocListSchema } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const mine = await members().find({ user_id: user.id });
    const found = mine.length === 0 ? [] : await docs().find({ _id: { $in: mine.map((member) => member.doc_id) } }, { sort: { updated_at: -1 } });
    const byDoc = new Map(mine.map((member) => [member.doc_id, member]));
    ctx.body = { docs: found.map((doc) => summary(doc, byDoc.get(doc._id)!)) };
  });

  router.get('/docs/:id', contract({ access: 'user', params: docParam, responses: { 200: collabDocSchema }, refusals: [404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, docParam);
    const { doc, member } = await membership(user.id, id);
    const [all, current] = await Promise.all([memberList(id), collab.docAt(id, await nearestSnapshot(services.readStore, id))]);
    const body: CollabDocDto = { ...summary(doc, member), version: current.version, members: all, doc: current.doc.toJSON() };
    ctx.body = body;
  });

  router.post('/docs/:id/invites', contract({ access: 'user', params: docParam, body: createCollabInviteSchema, responses: { 201: collabInviteSchema }, refusals: [403, 404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, docParam);
    const { role } = parseBody(ctx, createCollabInviteSchema);
    const { inviteId, token } = await collab.invite(user.id, id, role);
    const body: CollabInviteDto = { id: inviteId, token, role, created_at: services.clock().toISOString() };
    ctx.status = 201;
    ctx.body = body;
  });

  router.patch('/docs/:id', contract({ access: 'user', summary: "Rename a shared document (its owner's)", params: docParam, body: renameCollabDocSchema, responses: { 200: collabDocSummarySchema }, refusals: [403, 404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, docParam);
    const { title } = parseBody(ctx, renameCollabDocSchema);
    const { position } = await collab.rename(user.id, id, title);
    const { doc, member } = await membership(user.id, id, position);
    ctx.body = summary(doc, member);
  });

  /** The live links (a revoked one is left out), with how many people joined through each. */
  router.get('/docs/:id/invites', contract({ access: 'user', summary: "A shared document's invitation links (its owner's)", params: docParam, responses: { 200: collabInvitesSchema }, refusals: [403, 404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, docParam);
    await ownership(user.id, id);
    const invites = await services.readStore.collection<CollabInviteDoc>(COLLAB_INVITES).find({ doc_id: id, revoked_at: null }, { sort: { created_at: -1 } });
    const body: CollabInvitesDto = { invites: invites.map((invite) => ({ id: invite._id, role: invite.role, created_at: invite.created_at, joined_count: invite.joined_by.length })) };
    ctx.body = body;
  });

  router.delete('/docs/:id/invites/:inviteId', contract({ access: 'user', summary: 'Revoke an invitation link; who joined through it stays a member', params: inviteParam, responses: { 204: null }, refusals: [403, 404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id, inviteId } = parseParams(ctx.params, inviteParam);
    const { position } = await collab.revokeInvite(user.id, id, inviteId);
    await progress.waitFor(position);
    ctx.status = 204;
  });

  router.get('/docs/:id/members', contract({ access: 'user', params: docParam, responses: { 200: collabMembersSchema }, refusals: [404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, docParam);
    await membership(user.id, id);
    const body: CollabMembersDto = { members: await memberList(id) };
    ctx.body = body;
  });

  /** The owner removes a member; a member's own id is leaving. Their open sockets on it close (`ws/collab.ts`). */
  router.delete('/docs/:id/members/:userId', contract({ access: 'user', summary: 'Remove a member (the owner), or leave (the member)', params: memberParam, responses: { 204: null }, refusals: [403, 404, 409] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id, userId } = parseParams(ctx.params, memberParam);
    const { position } = await collab.removeMember(user.id, id, userId);
    await progress.waitFor(position);
    ctx.status = 204;
  });

  router.put('/docs/:id/members/:userId', contract({ access: 'user', summary: "Change a member's role (the owner)", params: memberParam, body: changeCollabRoleSchema, responses: { 200: collabMembersSchema }, refusals: [403, 404, 409] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id, userId } = parseParams(ctx.params, memberParam);
    const { role } = parseBody(ctx, changeCollabRoleSchema);
    const { position } = await collab.changeRole(user.id, id, userId, role);
    await progress.waitFor(position);
    const body: CollabMembersDto = { members: await memberList(id) };
    ctx.body = body;
  });

  router.post('/invites/accept', contract({ access: 'user', body: acceptCollabInviteSchema, responses: { 200: collabDocSummarySchema }, refusals: [404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { token } = parseBody(ctx, acceptCollabInviteSchema);
    const { docId, position } = await collab.accept(user.id, token);
    const { doc, member } = await membership(user.id, docId, position);
    ctx.body = summary(doc, member);
  });

  /** The accepted batches after version `after`, oldest first, a page at a time: what the history slider steps through. */
  router.get('/docs/:id/history', contract({ access: 'user', params: docParam, query: historyQuery, responses: { 200: collabHistorySchema }, refusals: [404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, docParam);
    const { after } = parseQuery(ctx, historyQuery);
    await membership(user.id, id);
    const snapshot = after > 0 ? await nearestSnapshot(services.readStore, id, after) : null;
    const batches = (await collab.batches(id, snapshot ? snapshot.revision + 1 : 0)).filter((batch) => batch.version + batch.steps.length > after).slice(0, COLLAB_LIMITS.historyPage);
    const names = await displayNames(services.readStore, batches.map((batch) => batch.userId));
    const { version } = await collab.access(user.id, id);
    const body: CollabHistoryDto = {
      version,
      entries: batches.map((batch) => ({ version: batch.version, steps: batch.steps.length, user_id: batch.userId, name: names.get(batch.userId) ?? batch.userId, at: batch.at })),
    };
    ctx.body = body;
  });

  router.get('/docs/:id/versions/:version', contract({ access: 'user', params: versionParam, responses: { 200: collabVersionSchema }, refusals: [404, 422] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id, version } = parseParams(ctx.params, versionParam);
    await membership(user.id, id);
    const { version: current } = await collab.access(user.id, id);
    if (version > current) throw httpError(422, 'collab.version_ahead', { version: current });
    const rebuilt = await collab.docAt(id, await nearestSnapshot(services.readStore, id, version), version);
    const body: CollabVersionDto = { version: rebuilt.version, doc: rebuilt.doc.toJSON() };
    ctx.body = body;
  });

  return router;
}

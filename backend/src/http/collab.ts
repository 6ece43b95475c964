import Router from '@koa/router';
import { z } from 'zod';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import { COLLAB_DOCS, COLLAB_MEMBERS, COLLAB_SNAPSHOTS, collabMemberId, type CollabDocDoc, type CollabMemberDoc, type CollabSnapshotDoc } from '@scriptorium/projections/collabDocs';
import { USERS, type UserDoc } from '@scriptorium/projections/users';
import type { CollabService, CollabSnapshot } from '@scriptorium/domain/collabdoc/service';
import {
  acceptCollabInviteSchema,
  collabDocIdSchema,
  createCollabDocSchema,
  createCollabInviteSchema,
  COLLAB_LIMITS,
  type CollabDocDto,
  type CollabDocSummaryDto,
  type CollabHistoryDto,
  type CollabInviteDto,
  type CollabVersionDto,
} from '@scriptorium/domain/protocol/collab';
import type { ReadStore } from '@scriptorium/infra/readstore/port';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { contract } from './contract.ts';
import { httpError } from './errors.ts';
import { ownedChat } from './ownedChat.ts';
import { parseBody, parseParams, parseQuery } from './validate.ts';

const docParam = z.object({ id: collabDocIdSchema });
const versionParam = z.object({ id: collabDocIdSchema, version: z.coerce.number({ error: 'collab.version_invalid' }).int('collab.version_invalid').min(0, 'collab.version_invalid') });
const historyQuery = z.object({ after: z.coerce.number().int().min(0).default(0) });

/** The names members and history show: the nickname, else the user name. */
export async function displayNames(readStore: ReadStore, userIds: Iterable<string>): Promise<Map<string, string>> {
  const ids = [...new Set(userIds)];
  const users = ids.length === 0 ? [] : await readStore.collection<UserDoc>(USERS).find({ _id: { $in: ids } });
  return new Map(users.map((user) => [user._id, user.nickname || user.username]));
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
 * accept a link, and the history: its batches and the document rebuilt at any version. The steps
 * themselves travel over the document's socket (`ws/collab.ts`).
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

  router.post('/docs', contract({ access: 'user', body: createCollabDocSchema, refusals: [404] }), async (ctx) => {
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

  router.get('/docs', contract({ access: 'user' }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const mine = await members().find({ user_id: user.id });
    const found = mine.length === 0 ? [] : await docs().find({ _id: { $in: mine.map((member) => member.doc_id) } }, { sort: { updated_at: -1 } });
    const byDoc = new Map(mine.map((member) => [member.doc_id, member]));
    ctx.body = { docs: found.map((doc) => summary(doc, byDoc.get(doc._id)!)) };
  });

  router.get('/docs/:id', contract({ access: 'user', params: docParam, refusals: [404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, docParam);
    const { doc, member } = await membership(user.id, id);
    const [all, current] = await Promise.all([members().find({ doc_id: id }, { sort: { joined_at: 1 } }), collab.docAt(id, await nearestSnapshot(services.readStore, id))]);
    const names = await displayNames(services.readStore, all.map((one) => one.user_id));
    const body: CollabDocDto = {
      ...summary(doc, member),
      version: current.version,
      members: all.map((one) => ({ user_id: one.user_id, name: names.get(one.user_id) ?? one.user_id, access: one.access, joined_at: one.joined_at })),
      doc: current.doc.toJSON(),
    };
    ctx.body = body;
  });

  router.post('/docs/:id/invites', contract({ access: 'user', params: docParam, body: createCollabInviteSchema, refusals: [403, 404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, docParam);
    const { role } = parseBody(ctx, createCollabInviteSchema);
    const { token } = await collab.invite(user.id, id, role);
    const body: CollabInviteDto = { token, role, created_at: services.clock().toISOString() };
    ctx.status = 201;
    ctx.body = body;
  });

  router.post('/invites/accept', contract({ access: 'user', body: acceptCollabInviteSchema, refusals: [404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { token } = parseBody(ctx, acceptCollabInviteSchema);
    const { docId, position } = await collab.accept(user.id, token);
    const { doc, member } = await membership(user.id, docId, position);
    ctx.body = summary(doc, member);
  });

  /** The accepted batches after version `after`, oldest first, a page at a time: what the history slider steps through. */
  router.get('/docs/:id/history', contract({ access: 'user', params: docParam, query: historyQuery, refusals: [404] }), async (ctx) => {
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

  router.get('/docs/:id/versions/:version', contract({ access: 'user', params: versionParam, refusals: [404, 422] }), async (ctx) => {
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

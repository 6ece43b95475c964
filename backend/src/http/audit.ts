import Router from '@koa/router';
import type { ParameterizedContext as Context } from 'koa';
import { z } from 'zod';
import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Filter } from '@scriptorium/infra/readstore/port';
import { CHATS, type ChatDoc } from '@scriptorium/projections/chats';
import { ENGINEER_SESSIONS, type EngineerSessionDoc } from '@scriptorium/projections/engineer';
import { TRAJECTORIES, type TrajectoryDoc } from '@scriptorium/projections/trajectories';
import { USERS, type UserDoc } from '@scriptorium/projections/users';
import { auditStream, type AuditAction } from '@scriptorium/domain/audit/audit';
import { auditDecider } from '@scriptorium/domain/audit/decide';
import { toWire } from '@scriptorium/domain/conversation/wire';
import { engineerStream } from '@scriptorium/domain/engineer/session';
import type { Services } from '../services.ts';
import { requireAuditor, type CurrentUser } from './authenticate.ts';
import { contract } from './contract.ts';
import { AUDIT_PAGE, auditEvents, auditEventsQuery, auditSearch, auditSearchQuery } from '@scriptorium/domain/protocol/http/audit';
import { parseParams, parseQuery } from './validate.ts';
import { usersById } from './usersById.ts';

const streamParam = z.object({ stream: z.string().regex(/^[a-z]+-[A-Za-z0-9_.:-]+$/).max(200) });

/** What the timeline shows of one event; `wire` is what a client was sent for it (conversations only). */
/**
 * Fields of event data that hold a credential's hash or a secret: an auditor reads what people did,
 * and a password hash or a token's hash is neither that nor harmless to hand on. The log keeps them.
 * Connection keys are sealed in the log, but a sealed key is still a key to whoever holds the box's.
 */
const SECRET_FIELDS = new Set(['passwordHash', 'codeHash', 'tokenHash', 'refreshHash', 'retiredRefreshHashes', 'presentedHash', 'secret', 'password', 'encryptedKey', 'encryptedPassword']);
export const REDACTED = '[redacted]';

export function redacted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redacted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, SECRET_FIELDS.has(key) ? REDACTED : redacted(field)]));
}

export function auditRow(event: RecordedEvent) {
  const { at, userId, correlationId, causationId } = event.metadata;
  const data = redacted(event.data);
  return {
    position: event.position,
    revision: event.revision,
    id: event.id,
    type: event.type,
    at,
    actor: userId ?? null,
    correlation_id: correlationId ?? null,
    causation_id: causationId ?? null,
    size: Buffer.byteLength(JSON.stringify(event.data)),
    data,
    wire: event.streamId.startsWith('conversation-') ? toWire(event) : null,
  };
}

/** How many candidates a search reads before matching the text, newest first. */
const SEARCH_SCAN = 500;
const SEARCH_LIMIT = 50;

/** Read-only routes for auditors and administrators; every one records what was read. */
export function auditRoutes(services: Services): Router {
  const router = new Router();

  async function recorded(ctx: Context, read: (auditor: CurrentUser) => { streamId: string; action: AuditAction; after?: number; count?: number }) {
    const auditor = await requireAuditor(services, ctx);
    const now = services.clock();
    await services.commands.handle(auditDecider, auditStream(auditor.id, now.toISOString().slice(0, 10)), {
      type: 'RecordAuditRead',
      data: { auditorId: auditor.id, ...read(auditor) },
      metadata: { now, userId: auditor.id },
    });
    return auditor;
  }

  router.get('/audit/search', contract({ access: 'auditor', summary: 'Find conversations, engineer sessions, trajectories and users by id, owner, title or date', query: auditSearchQuery, responses: { 200: auditSearch } }), async (ctx) => {
    const query = parseQuery(ctx, auditSearchQuery);
    await recorded(ctx, () => ({ streamId: JSON.stringify(query), action: 'search' }));
    const term = query.q?.toLowerCase() ?? '';
    const owner = query.user ? await services.readStore.collection<UserDoc>(USERS).findOne({ username_lower: query.user.toLowerCase() }) : null;
    if (query.user && !owner) {
      ctx.body = { conversations: [], engineer_sessions: [], trajectories: [], users: [] };
      return;
    }
    const created: Filter = query.from || query.to ? { created_at: { ...(query.from && { $gte: query.from }), ...(query.to && { $lt: `${query.to}T24` }) } } : {};
    const matches = (...fields: Array<string | null>) => !term || fields.some((field) => field?.toLowerCase().includes(term));
    const wants = (kind: string) => query.kind === 'all' || query.kind === kind;
    const [chats, engineerSessions, trajectories, users] = await Promise.all([
      wants('conversation') ? services.readStore.collection<ChatDoc>(CHATS).find({ ...created, ...(owner && { user_id: owner._id }) }, { sort: { created_at: -1 }, limit: SEARCH_SCAN }) : [],
      wants('engineer') ? services.readStore.collection<EngineerSessionDoc>(ENGINEER_SESSIONS).find({ ...created, ...(owner && { owner_id: owner._id }) }, { sort: { created_at: -1 }, limit: SEARCH_SCAN }) : [],
      wants('trajectory') ? services.readStore.collection<TrajectoryDoc>(TRAJECTORIES).find({ ...created, ...(owner && { owner_id: owner._id }) }, { sort: { created_at: -1 }, limit: SEARCH_SCAN }) : [],
      wants('user') ? services.readStore.collection<UserDoc>(USERS).find({ ...created, ...(owner && { _id: owner._id }) }, { sort: { created_at: -1 }, limit: SEARCH_SCAN }) : [],
    ]);
    const foundChats = chats.filter((chat) => matches(chat._id, chat.title, chat.name)).slice(0, SEARCH_LIMIT);
    const foundSessions = engineerSessions.filter((session) => matches(session._id, session.title, session.task_description)).slice(0, SEARCH_LIMIT);
    const foundFiles = trajectories.filter((file) => matches(file._id, file.title, file.project_name)).slice(0, SEARCH_LIMIT);
    // Titles repeat across users (every first session is 默认会话): each record names its owner.
    const owners = await usersById(services.readStore, [...foundChats.map((chat) => chat.user_id), ...foundSessions.map((session) => session.owner_id), ...foundFiles.map((file) => file.owner_id)]);
    const ownedBy = (userId: string) => ({ user_id: userId, username: owners.get(userId)?.username ?? null });
    ctx.body = {
      conversations: foundChats.map((chat) => ({ stream: `conversation-${chat._id}`, id: chat._id, ...ownedBy(chat.user_id), title: chat.title ?? chat.name, created_at: chat.created_at, canvas_version: chat.canvas_version })),
      engineer_sessions: foundSessions.map((session) => ({ stream: engineerStream(session._id), id: session._id, ...ownedBy(session.owner_id), title: session.title, created_at: session.created_at })),
      trajectories: foundFiles.map((file) => ({ stream: `trajectory-${file._id}`, id: file._id, ...ownedBy(file.owner_id), title: file.title, created_at: file.created_at })),
      users: users
        .filter((user) => matches(user._id, user.username, user.nickname))
        .slice(0, SEARCH_LIMIT)
        .map((user) => ({ stream: `user-${user._id}`, id: user._id, username: user.username, nickname: user.nickname, created_at: user.created_at })),
    };
  });

  router.get('/audit/streams/:stream/events', contract({ access: 'auditor', summary: "A page of one stream's events, each with what a client was sent for it", params: streamParam, query: auditEventsQuery, responses: { 200: auditEvents } }), async (ctx) => {
    const { stream } = parseParams(ctx.params, streamParam);
    const query = parseQuery(ctx, auditEventsQuery);
    await recorded(ctx, () => ({ streamId: stream, action: 'events', after: query.from, count: query.limit }));
    const [events, [last]] = await Promise.all([
      services.events.readStream(stream, { fromRevision: query.from, maxCount: query.limit }),
      services.events.readStream(stream, { direction: 'backwards', maxCount: 1 }),
    ]);
    const total = last ? last.revision + 1 : 0;
    const next = query.from + events.length;
    // Who acted, by name as the search names owners: an id alone tells an auditor nothing.
    const actors = await usersById(services.readStore, events.flatMap((event) => (event.metadata.userId ? [event.metadata.userId] : [])));
    ctx.body = {
      stream,
      total,
      events: events.map((event) => ({ ...auditRow(event), actor_name: (event.metadata.userId && actors.get(event.metadata.userId)?.username) || null })),
      next: next < total ? next : null,
    };
  });

  router.get('/audit/streams/:stream/export.jsonl', contract({ access: 'auditor', summary: 'The whole stream, one event a line', params: streamParam, responses: { 200: { type: 'application/x-ndjson' } } }), async (ctx) => {
    const { stream } = parseParams(ctx.params, streamParam);
    await recorded(ctx, () => ({ streamId: stream, action: 'export' }));
    const lines: string[] = [];
    for (let from = 0; ; from += AUDIT_PAGE) {
      const page = await services.events.readStream(stream, { fromRevision: from, maxCount: AUDIT_PAGE });
      for (const event of page) lines.push(JSON.stringify({ ...event, data: redacted(event.data) }));
      if (page.length < AUDIT_PAGE) break;
    }
    ctx.set('Content-Disposition', `attachment; filename="${stream}.jsonl"`);
    ctx.type = 'application/x-ndjson';
    ctx.body = lines.map((line) => `${line}\n`).join('');
  });

  return router;
}

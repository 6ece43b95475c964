import { createHash, randomBytes } from 'node:crypto';
import Router from '@koa/router';
import type { ParameterizedContext as Context } from 'koa';
import { z } from 'zod';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import { CLI_USAGE, type CliUsageDoc } from '@scriptorium/projections/cliLeaderboard';
import { TRAJECTORIES, TRAJECTORY_SHARES, type TrajectoryDoc, type TrajectoryShareDoc } from '@scriptorium/projections/trajectories';
import { USERS, type UserDoc } from '@scriptorium/projections/users';
import { deterministicId } from '@scriptorium/infra/eventsourcing/ids';
import { trajectoryDecider, type TrajectoryCommand } from '@scriptorium/domain/trajectories/decide';
import { EVENT_TYPES, trajectoryStream } from '@scriptorium/domain/trajectories/trajectory';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { httpError, invalidField } from './errors.ts';
import { safeFilename } from './files.ts';
import { parseBody, parseParams, parseQuery } from './validate.ts';
import { contract } from './contract.ts';
import {
  cliLeaderboard,
  sharedTrajectory,
  trajectoryFavorite,
  trajectoryFavoriteBody,
  trajectoryFile,
  trajectoryFiles,
  trajectoryShareBody,
  trajectoryShared,
  trajectoryShares,
  trajectoryWithEvents,
  leaderboardQuery,
  trajectoryListQuery,
} from '@scriptorium/domain/protocol/http/trajectories';
import { deleted, revoked } from '@scriptorium/domain/protocol/http/acknowledged';
import { isOpen } from '@scriptorium/domain/share/decide';

const TITLE_CHARS = 200;
const PREVIEW_QUERIES = 5;
/** The JSON body limit (1 MB) bounds an upload first; this bounds the count of tiny events. */
const MAX_EVENTS = 20_000;

const text = (max: number) => z.string().max(max);
const trajectoryEvent = z
  .object({
    event_type: z.enum(EVENT_TYPES, { error: 'trajectories.event_type_invalid' }),
    timestamp: z.iso.datetime({ offset: true, error: 'trajectories.timestamp_invalid' }),
    query: text(20_000).optional(),
    content: text(200_000).optional(),
    command: text(5_000).optional(),
    exit_code: z.number().int().optional(),
    model: text(200).optional(),
    tokens: z.number().int().min(0).optional(),
  })
  .strict();
type TrajectoryEventDto = z.infer<typeof trajectoryEvent>;

const uploadBody = z.object({
  filename: text(200).optional(),
  title: text(TITLE_CHARS * 2).optional(),
  description: text(2000).default(''),
  metadata: z.object({ session_id: z.string().trim().min(1, 'trajectories.session_required').max(200), project_name: z.string().trim().max(200).default('') }),
  events: z.array(trajectoryEvent, { error: 'trajectories.events_required' }).min(1, 'trajectories.events_empty').max(MAX_EVENTS, 'trajectories.too_many_events'),
});
const idParam = z.object({ id: z.uuid('trajectories.id_invalid') });
const tokenParam = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'share.token_invalid') });

const fileDto = (doc: TrajectoryDoc) => ({
  file_id: doc._id,
  id: doc._id,
  filename: doc.filename,
  title: doc.title,
  description: doc.description,
  created_at: doc.created_at,
  updated_at: doc.updated_at,
  trajectory_count: doc.event_count,
  preview_data: doc.preview,
  metadata: { session_id: doc.session_id, project_name: doc.project_name },
  favorite: doc.favorite,
  active: doc.active,
  size: doc.size,
});

const clip = (value: string, max: number) => (Array.from(value).length > max ? `${Array.from(value).slice(0, max - 1).join('')}…` : value);

/** Session trajectories recorded by the command-line tool: upload, list, read, download, favourite, share. */
export function trajectoryRoutes(services: Services, progress: ProjectionProgress): Router {
  const router = new Router();
  const files = () => services.readStore.collection<TrajectoryDoc>(TRAJECTORIES);
  const run = (fileId: string, userId: string, command: Omit<TrajectoryCommand, 'metadata'>) =>
    services.commands.handle(trajectoryDecider, trajectoryStream(fileId), { ...command, metadata: { now: services.clock(), userId } } as TrajectoryCommand);

  async function owned(userId: string, fileId: string): Promise<TrajectoryDoc> {
    const doc = await files().get(fileId);
    if (!doc || doc.owner_id !== userId) throw httpError(404, 'trajectories.not_found');
    return doc;
  }

  async function readEvents(doc: TrajectoryDoc): Promise<TrajectoryEventDto[]> {
    const chunks: Buffer[] = [];
    for await (const chunk of await services.blobs.get(doc.blob_key)) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    return Buffer.concat(chunks)
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as TrajectoryEventDto);
  }

  async function sendFile(ctx: Context, doc: TrajectoryDoc) {
    const info = await services.blobs.stat(doc.blob_key);
    if (!info) throw httpError(404, 'trajectories.not_found');
    ctx.attachment(safeFilename(doc.filename));
    ctx.type = 'application/x-ndjson; charset=utf-8';
    ctx.length = info.size;
    ctx.body = await services.blobs.get(doc.blob_key);
  }

  async function openShare(token: string): Promise<{ share: TrajectoryShareDoc; doc: TrajectoryDoc }> {
    const share = await services.readStore.collection<TrajectoryShareDoc>(TRAJECTORY_SHARES).get(token);
    if (!share || !isOpen({ revoked: false, expiresAt: share.expires_at }, services.clock())) throw httpError(404, 'share.gone');
    const doc = await files().get(share.file_id);
    if (!doc) throw httpError(404, 'share.gone');
    return { share, doc };
  }

  router.post('/engineer/trajectory/files', contract({ access: 'user', body: uploadBody, responses: { 201: trajectoryFile } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const body = parseBody(ctx, uploadBody);
    const fileId = deterministicId('trajectory', user.id, body.metadata.session_id);
    const jsonl = Buffer.from(body.events.map((event) => JSON.stringify(event)).join('\n') + '\n', 'utf8');
    const sha256 = createHash('sha256').update(jsonl).digest('hex');
    const blobKey = `trajectories/${user.id}/${fileId}/${sha256}.jsonl`;
    const stored = await services.blobs.put(blobKey, jsonl, { contentType: 'application/x-ndjson', metadata: { owner: user.id } });
    const queries = body.events.filter((event) => event.event_type === 'user_query' && event.query?.trim());
    const started = body.events[0]!.timestamp.slice(0, 16).replace(/[:T]/g, '-');
    const previous = await files().get(fileId);
    const result = await run(fileId, user.id, {
      type: 'UploadTrajectory',
      data: {
        fileId,
        ownerId: user.id,
        sessionId: body.metadata.session_id,
        projectName: body.metadata.project_name,
        filename: body.filename?.trim() || `${body.metadata.project_name || 'session'}-${started}.jsonl`,
        title: clip((body.title?.trim() || queries[0]?.query?.trim() || body.metadata.project_name || body.metadata.session_id).replace(/\s+/g, ' '), TITLE_CHARS),
        description: body.description.trim(),
        blobKey,
        size: stored.size,
        eventCount: body.events.length,
        preview: queries.slice(0, PREVIEW_QUERIES).map((event) => ({ event_type: event.event_type, query: clip(event.query!.trim(), TITLE_CHARS) })),
        active: !body.events.some((event) => event.event_type === 'session_end'),
      },
    });
    // The earlier upload of this session is superseded; its bytes are no longer read by anyone.
    if (previous && previous.blob_key !== blobKey && result.newEvents.length > 0) await services.blobs.delete(previous.blob_key);
    await progress.waitFor(result.position);
    ctx.status = 201;
    ctx.body = fileDto(await owned(user.id, fileId));
  });

  router.get('/engineer/trajectory/files', contract({ access: 'user', query: trajectoryListQuery, responses: { 200: trajectoryFiles } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const query = parseQuery(ctx, trajectoryListQuery);
    const filter = { owner_id: user.id };
    const [found, total, active] = await Promise.all([
      files().find(filter, { sort: { updated_at: -1 }, skip: query.offset, limit: query.limit }),
      files().count(filter),
      files().count({ ...filter, active: true }),
    ]);
    ctx.body = { files: found.map(fileDto), total, active_sessions: active };
  });

  router.get('/engineer/trajectory/files/:id', contract({ access: 'user', params: idParam, responses: { 200: trajectoryWithEvents } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    const doc = await owned(user.id, id);
    ctx.body = { ...fileDto(doc), events: await readEvents(doc) };
  });

  router.get('/engineer/trajectory/files/:id/download', contract({ access: 'user', params: idParam, responses: { 200: { type: 'application/x-ndjson' } } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    await sendFile(ctx, await owned(user.id, id));
  });

  router.get('/engineer/trajectory/files/:id/favorite', contract({ access: 'user', params: idParam, responses: { 200: trajectoryFavorite } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    ctx.body = { file_id: id, favorite: (await owned(user.id, id)).favorite };
  });

  router.put('/engineer/trajectory/files/:id/favorite', contract({ access: 'user', params: idParam, body: trajectoryFavoriteBody, responses: { 200: trajectoryFavorite } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    const body = parseBody(ctx, trajectoryFavoriteBody);
    if (body.file_id !== undefined && body.file_id !== id) throw invalidField(['file_id'], 'trajectories.file_id_mismatch');
    const { position } = await run(id, user.id, { type: 'SetTrajectoryFavorite', data: { fileId: id, actorId: user.id, favorite: body.favorite } });
    await progress.waitFor(position);
    ctx.body = { file_id: id, favorite: body.favorite };
  });

  router.delete('/engineer/trajectory/files/:id', contract({ access: 'user', params: idParam, responses: { 200: deleted } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    const result = await run(id, user.id, { type: 'DeleteTrajectory', data: { fileId: id, actorId: user.id } });
    for (const event of result.newEvents) if (event.type === 'TrajectoryDeleted') await services.blobs.delete(event.data.blobKey);
    await progress.waitFor(result.position);
    ctx.body = { deleted: true };
  });

  /** The links that open a trajectory now, newest first, so its owner can copy or revoke one at any time. */
  router.get('/engineer/trajectory/files/:id/shares', contract({ access: 'user', params: idParam, responses: { 200: trajectoryShares } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    await owned(user.id, id);
    const now = services.clock().getTime();
    const shares = await services.readStore.collection<TrajectoryShareDoc>(TRAJECTORY_SHARES).find({ file_id: id }, { sort: { created_at: -1 } });
    ctx.body = {
      shares: shares
        .filter((share) => share.expires_at === null || Date.parse(share.expires_at) > now)
        .map((share) => ({ token: share._id, share_url: `/shared/trajectory/${share._id}`, allow_download: share.allow_download, expires_at: share.expires_at, created_at: share.created_at })),
    };
  });

  router.post('/engineer/trajectory/share', contract({ access: 'user', body: trajectoryShareBody, responses: { 200: trajectoryShared }, refusals: [404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const body = parseBody(ctx, trajectoryShareBody);
    const token = randomBytes(18).toString('base64url');
    const { position, newEvents } = await run(body.file_id, user.id, {
      type: 'ShareTrajectory',
      data: { fileId: body.file_id, actorId: user.id, token, allowDownload: body.share_settings.allow_download, expiresInSeconds: body.expires_in },
    });
    await progress.waitFor(position);
    const shared = newEvents.find((event) => event.type === 'TrajectoryShared');
    ctx.body = { token, share_url: `/shared/trajectory/${token}`, expires_at: shared?.type === 'TrajectoryShared' ? shared.data.expiresAt : null };
  });

  router.delete('/engineer/trajectory/share/:token', contract({ access: 'user', params: tokenParam, responses: { 200: revoked }, refusals: [404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { token } = parseParams(ctx.params, tokenParam);
    const share = await services.readStore.collection<TrajectoryShareDoc>(TRAJECTORY_SHARES).get(token);
    if (!share || share.owner_id !== user.id) throw httpError(404, 'share.gone');
    const { position } = await run(share.file_id, user.id, { type: 'RevokeTrajectoryShare', data: { fileId: share.file_id, actorId: user.id, token } });
    await progress.waitFor(position);
    ctx.body = { revoked: true };
  });

  /** Public: who uses the command-line assistant most (spec 01's CLI usage leaderboard). */
  router.get('/engineer/leaderboard', contract({ access: 'public', query: leaderboardQuery, responses: { 200: cliLeaderboard } }), async (ctx) => {
    const { limit } = parseQuery(ctx, leaderboardQuery);
    const rows = await services.readStore.collection<CliUsageDoc>(CLI_USAGE).find({}, { sort: { sessions: -1, events: -1 }, limit });
    const users = await Promise.all(rows.map((row) => services.readStore.collection<UserDoc>(USERS).get(row._id)));
    ctx.body = {
      leaders: rows.map((row, index) => ({ rank: index + 1, username: users[index]?.username ?? '—', sessions: row.sessions, events: row.events, last_active: row.last_active })),
      total_users: await services.readStore.collection(CLI_USAGE).count(),
    };
  });

  router.get('/engineer/trajectory/shared/:token', contract({ access: 'public', params: tokenParam, responses: { 200: sharedTrajectory } }), async (ctx) => {
    const { token } = parseParams(ctx.params, tokenParam);
    const { share, doc } = await openShare(token);
    const { favorite: _favorite, ...file } = fileDto(doc);
    ctx.body = { ...file, events: await readEvents(doc), share_settings: { allow_download: share.allow_download }, expires_at: share.expires_at };
  });

  router.get('/engineer/trajectory/shared/:token/download', contract({ access: 'public', params: tokenParam, responses: { 200: { type: 'application/x-ndjson' } }, refusals: [403] }), async (ctx) => {
    const { token } = parseParams(ctx.params, tokenParam);
    const { share, doc } = await openShare(token);
    if (!share.allow_download) throw httpError(403, 'share.download_not_allowed');
    await sendFile(ctx, doc);
  });

  return router;
}

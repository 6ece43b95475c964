import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { ParameterizedContext as Context } from 'koa';
import { z } from 'zod';
import type { ErrorCode } from '@scriptorium/domain/protocol/errors';
import {
  COGNITIONS,
  COLLECTION_ITEMS,
  COLLECTIONS,
  EXTRACTIONS,
  type CognitionDoc,
  type CollectionDoc,
  type CollectionItemDoc,
  type ExtractionDoc,
} from '@scriptorium/projections/cognitions';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import type { Filter } from '@scriptorium/infra/readstore/port';
import { cognitionStream, readableBy } from '@scriptorium/domain/cognition/cognition';
import { collectionStream } from '@scriptorium/domain/cognition/collection';
import { collectionDecider, type CollectionCommand } from '@scriptorium/domain/cognition/collectionDecide';
import { cognitionDecider, type CognitionCommand } from '@scriptorium/domain/cognition/decide';
import { extractionStream, type ExtractionInput } from '@scriptorium/domain/cognition/extraction';
import { extractionDecider, MAX_EXTRACT_NOTES, MAX_SYNTHESIS, MIN_SYNTHESIS } from '@scriptorium/domain/cognition/extractionDecide';
import { matchScore } from '@scriptorium/domain/cognition/search';
import { notebookDecider } from '@scriptorium/domain/notes/decide';
import { notebookStream } from '@scriptorium/domain/notes/notes';
import type { Services } from '../services.ts';
import { bearerToken, requireUser, userFromToken } from './authenticate.ts';
import { httpError, invalidField } from './errors.ts';
import { parseBody, parseParams, parseQuery } from './validate.ts';
import { contract } from './contract.ts';
import { deleted } from '@scriptorium/domain/protocol/http/acknowledged';
import {
  cognitionDetail,
  cognitionEditBody,
  cognitionPage,
  cognitionViewed,
  collectionBody,
  collectionDetail,
  collectionEditBody,
  collectionItemBody,
  collectionList,
  collectionReply,
  extractBody,
  extractionStarted,
  extractionStatus,
  extractUrlBody,
  synthesizeBody,
  cognitionListQuery,
} from '@scriptorium/domain/protocol/http/cognition';

/** Scored in memory when searching: the newest this many candidates (see `search.ts`). */
const SEARCH_WINDOW = 2000;

const uuid = (code: ErrorCode) => z.uuid(code);
const idParam = z.object({ id: uuid('cognition.id_invalid') });
const collectionParam = z.object({ id: uuid('collection.id_invalid') });


const summaryDto = (doc: CognitionDoc, userId: string | null) => ({
  id: doc._id,
  title: doc.title,
  summary: doc.summary,
  tags: doc.tags,
  source_kind: doc.source_kind,
  public: doc.public,
  owner: doc.owner_name,
  mine: doc.owner_id === userId,
  view_count: doc.view_count,
  created_at: doc.created_at,
  updated_at: doc.updated_at,
});

const detailDto = (doc: CognitionDoc, userId: string | null) => ({
  ...summaryDto(doc, userId),
  insights: doc.insights,
  content: doc.content,
  sources: doc.sources.map((source) => ({ n: source.n, title: source.title, url: source.url, kind: source.kind, ref_id: source.refId })),
});

/** The cognition platform (public browsing), extraction from notes, pages and cognitions, and the library. */
export function cognitionRoutes(services: Services, progress: ProjectionProgress): Router {
  const router = new Router();
  const cognitions = () => services.readStore.collection<CognitionDoc>(COGNITIONS);
  const collections = () => services.readStore.collection<CollectionDoc>(COLLECTIONS);
  const items = () => services.readStore.collection<CollectionItemDoc>(COLLECTION_ITEMS);
  const meta = (userId: string) => ({ now: services.clock(), userId });

  const viewerOf = async (ctx: Context) => (await userFromToken(services, bearerToken(ctx)))?.id ?? null;

  const onCognition = (cognitionId: string, userId: string, command: Omit<CognitionCommand, 'metadata'>) =>
    services.commands.handle(cognitionDecider, cognitionStream(cognitionId), { ...command, metadata: meta(userId) } as CognitionCommand);
  const onCollection = (collectionId: string, userId: string, command: Omit<CollectionCommand, 'metadata'>) =>
    services.commands.handle(collectionDecider, collectionStream(collectionId), { ...command, metadata: meta(userId) } as CollectionCommand);

  async function readable(id: string, userId: string | null): Promise<CognitionDoc> {
    const doc = await cognitions().get(id);
    if (!doc || (!doc.public && doc.owner_id !== userId)) throw httpError(404, 'cognition.not_found');
    return doc;
  }

  async function ownedCollection(id: string, userId: string) {
    const doc = await collections().get(id);
    if (!doc || doc.owner_id !== userId) throw httpError(404, 'collection.not_found');
    const entries = await items().find({ collection_id: id }, { sort: { added_at: -1 } });
    const docs = await Promise.all(entries.map((entry) => cognitions().get(entry.cognition_id)));
    // A cognition someone else made private since it was collected drops out of sight, not out of the collection.
    const visible = docs.filter((item): item is CognitionDoc => item !== null && (item.public || item.owner_id === userId));
    return { doc, visible };
  }

  const collectionDto = (doc: CollectionDoc, count: number) => ({ id: doc._id, name: doc.name, description: doc.description, count, updated_at: doc.updated_at });

  async function requestExtraction(ctx: Context, userId: string, username: string, input: ExtractionInput) {
    await services.budget.ensureAvailable(userId);
    const extractionId = randomUUID();
    const result = await services.commands.handle(extractionDecider, extractionStream(extractionId), {
      type: 'RequestExtraction',
      data: { ...input, extractionId, userId, ownerName: username },
      metadata: meta(userId),
    });
    await progress.waitFor(result.position);
    ctx.status = 202;
    ctx.body = { extraction_id: extractionId, status: 'pending' };
  }

  router.get('/api/cognition', contract({ access: 'optional', query: cognitionListQuery, responses: { 200: cognitionPage }, refusals: [401, 403] }), async (ctx) => {
    const query = parseQuery(ctx, cognitionListQuery);
    const userId = query.scope === 'mine' ? (await requireUser(services, ctx)).id : await viewerOf(ctx);
    const filter: Filter = query.scope === 'mine' ? { owner_id: userId! } : { public: true };
    if (!query.q) {
      const [found, total] = await Promise.all([cognitions().find(filter, { sort: { created_at: -1 }, skip: query.skip, limit: query.limit }), cognitions().count(filter)]);
      ctx.body = { items: found.map((doc) => summaryDto(doc, userId)), total };
      return;
    }
    const candidates = await cognitions().find(filter, { sort: { created_at: -1 }, limit: SEARCH_WINDOW });
    const ranked = candidates
      .map((doc) => ({ doc, score: matchScore(query.q, { title: doc.title, body: [doc.summary, ...doc.insights, ...doc.tags].join('\n') }) }))
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score);
    ctx.body = { items: ranked.slice(query.skip, query.skip + query.limit).map((entry) => summaryDto(entry.doc, userId)), total: ranked.length };
  });

  router.post('/api/cognition/extract', contract({ access: 'user', body: extractBody, responses: { 202: extractionStarted }, refusals: [402, 404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const body = parseBody(ctx, extractBody);
    const noteIds = [...new Set(body.note_ids)];
    if (noteIds.length === 0) throw invalidField(['note_ids'], 'extraction.select_first');
    if (noteIds.length > MAX_EXTRACT_NOTES) throw invalidField(['note_ids'], 'extraction.too_many_notes');
    const { state } = await services.commands.load(notebookDecider, notebookStream(user.id));
    if (noteIds.some((id) => state.status !== 'open' || !state.notes[id])) throw httpError(404, 'notes.not_found');
    await requestExtraction(ctx, user.id, user.doc.username, { kind: 'notes', noteIds, url: null, cognitionIds: [] });
  });

  router.post('/api/cognition/extract-url', contract({ access: 'user', body: extractUrlBody, responses: { 202: extractionStarted }, refusals: [402] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const body = parseBody(ctx, extractUrlBody);
    await requestExtraction(ctx, user.id, user.doc.username, { kind: 'url', noteIds: [], url: body.url, cognitionIds: [] });
  });

  router.post('/api/cognition/synthesize', contract({ access: 'user', body: synthesizeBody, responses: { 202: extractionStarted }, refusals: [402, 404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const body = parseBody(ctx, synthesizeBody);
    const cognitionIds = [...new Set(body.cognition_ids)];
    if (cognitionIds.length < MIN_SYNTHESIS) throw invalidField(['cognition_ids'], 'extraction.too_few_cognitions', { min: MIN_SYNTHESIS });
    if (cognitionIds.length > MAX_SYNTHESIS) throw invalidField(['cognition_ids'], 'extraction.too_many_cognitions', { max: MAX_SYNTHESIS });
    for (const id of cognitionIds) {
      const { state } = await services.commands.load(cognitionDecider, cognitionStream(id));
      if (!readableBy(state, user.id)) throw httpError(404, 'cognition.not_found');
    }
    await requestExtraction(ctx, user.id, user.doc.username, { kind: 'synthesis', noteIds: [], url: null, cognitionIds });
  });

  const cognitionExtractionsParams = z.object({ id: uuid('extraction.id_invalid') });
  router.get('/api/cognition/extractions/:id', contract({ access: 'user', params: cognitionExtractionsParams, responses: { 200: extractionStatus }, refusals: [404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, cognitionExtractionsParams);
    const doc = await services.readStore.collection<ExtractionDoc>(EXTRACTIONS).get(id);
    if (!doc || doc.user_id !== user.id) throw httpError(404, 'extraction.not_found');
    ctx.body = { extraction_id: id, status: doc.status, cognition_id: doc.cognition_id, error: doc.error, ...doc.refusal, created_at: doc.created_at };
  });

  router.get('/api/cognition/collections', contract({ access: 'user', responses: { 200: collectionList } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const docs = await collections().find({ owner_id: user.id }, { sort: { updated_at: -1 } });
    const counts = await Promise.all(docs.map((doc) => items().count({ collection_id: doc._id })));
    ctx.body = { collections: docs.map((doc, index) => collectionDto(doc, counts[index]!)) };
  });

  router.post('/api/cognition/collections', contract({ access: 'user', body: collectionBody, responses: { 201: collectionReply } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const body = parseBody(ctx, collectionBody);
    const id = randomUUID();
    const { position } = await onCollection(id, user.id, { type: 'CreateCollection', data: { collectionId: id, actorId: user.id, name: body.name, description: body.description } });
    await progress.waitFor(position);
    ctx.status = 201;
    ctx.body = collectionDto((await ownedCollection(id, user.id)).doc, 0);
  });

  router.get('/api/cognition/collections/:id', contract({ access: 'user', params: collectionParam, responses: { 200: collectionDetail } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, collectionParam);
    const { doc, visible } = await ownedCollection(id, user.id);
    ctx.body = { ...collectionDto(doc, visible.length), items: visible.map((item) => summaryDto(item, user.id)) };
  });

  router.patch('/api/cognition/collections/:id', contract({ access: 'user', params: collectionParam, body: collectionEditBody, responses: { 200: collectionReply } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, collectionParam);
    const body = parseBody(ctx, collectionEditBody);
    const { position } = await onCollection(id, user.id, {
      type: 'EditCollection',
      data: { collectionId: id, actorId: user.id, ...(body.name !== undefined && { name: body.name }), ...(body.description !== undefined && { description: body.description }) },
    });
    await progress.waitFor(position);
    const { doc, visible } = await ownedCollection(id, user.id);
    ctx.body = collectionDto(doc, visible.length);
  });

  router.delete('/api/cognition/collections/:id', contract({ access: 'user', params: collectionParam, responses: { 200: deleted } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, collectionParam);
    const { position } = await onCollection(id, user.id, { type: 'DeleteCollection', data: { collectionId: id, actorId: user.id } });
    await progress.waitFor(position);
    ctx.body = { deleted: true };
  });

  router.post('/api/cognition/collections/:id/items', contract({ access: 'user', params: collectionParam, body: collectionItemBody, responses: { 200: collectionReply }, refusals: [404, 409] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, collectionParam);
    const body = parseBody(ctx, collectionItemBody);
    const { state } = await services.commands.load(cognitionDecider, cognitionStream(body.cognition_id));
    if (!readableBy(state, user.id)) throw httpError(404, 'cognition.not_found');
    const { position } = await onCollection(id, user.id, { type: 'AddToCollection', data: { collectionId: id, actorId: user.id, cognitionId: body.cognition_id } });
    await progress.waitFor(position);
    const { doc, visible } = await ownedCollection(id, user.id);
    ctx.body = collectionDto(doc, visible.length);
  });

  const collectionsItemsParams = z.object({ id: uuid('collection.id_invalid'), cognitionId: uuid('cognition.id_invalid') });
  router.delete('/api/cognition/collections/:id/items/:cognitionId', contract({ access: 'user', params: collectionsItemsParams, responses: { 200: collectionReply } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id, cognitionId } = parseParams(ctx.params, collectionsItemsParams);
    const { position } = await onCollection(id, user.id, { type: 'RemoveFromCollection', data: { collectionId: id, actorId: user.id, cognitionId } });
    await progress.waitFor(position);
    const { doc, visible } = await ownedCollection(id, user.id);
    ctx.body = collectionDto(doc, visible.length);
  });

  router.get('/api/cognition/:id', contract({ access: 'optional', params: idParam, responses: { 200: cognitionDetail } }), async (ctx) => {
    const { id } = parseParams(ctx.params, idParam);
    const userId = await viewerOf(ctx);
    ctx.body = detailDto(await readable(id, userId), userId);
  });

  /** Opening a cognition: the first view by each reader counts (and, through the task process manager, towards the daily task). */
  router.post('/api/cognition/:id/view', contract({ access: 'user', params: idParam, responses: { 200: cognitionViewed } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    const { position } = await onCognition(id, user.id, { type: 'ViewCognition', data: { cognitionId: id, viewerId: user.id } });
    await progress.waitFor(position);
    ctx.body = { cognition_id: id, viewed: true };
  });

  router.patch('/api/cognition/:id', contract({ access: 'user', params: idParam, body: cognitionEditBody, responses: { 200: cognitionDetail } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    const body = parseBody(ctx, cognitionEditBody);
    const { public: visible, ...changes } = body;
    let position = 0;
    if (Object.keys(changes).length > 0) position = (await onCognition(id, user.id, { type: 'EditCognition', data: { cognitionId: id, actorId: user.id, changes } })).position || position;
    if (visible !== undefined) position = (await onCognition(id, user.id, { type: 'SetCognitionVisibility', data: { cognitionId: id, actorId: user.id, public: visible } })).position || position;
    await progress.waitFor(position);
    ctx.body = detailDto(await readable(id, user.id), user.id);
  });

  router.delete('/api/cognition/:id', contract({ access: 'user', params: idParam, responses: { 200: deleted } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    const { position } = await onCognition(id, user.id, { type: 'DeleteCognition', data: { cognitionId: id, actorId: user.id } });
    await progress.waitFor(position);
    ctx.body = { deleted: true };
  });

  return router;
}

import test from 'ava';
import type { CognitionEvent } from '@scriptorium/domain/cognition/cognition';
import type { CollectionEvent } from '@scriptorium/domain/cognition/collection';
import type { ExtractionEvent } from '@scriptorium/domain/cognition/extraction';
import { COGNITIONS, COLLECTION_ITEMS, COLLECTIONS, cognitionsProjection, EXTRACTIONS } from './cognitions.ts';
import { OWNER, T1, T2, T3 } from './fixtures.ts';
import { projectionSpec } from './testing.ts';

const spec = projectionSpec<CognitionEvent | CollectionEvent | ExtractionEvent>(cognitionsProjection);
const body = { title: '书院与科举', summary: '书院如何应对科举', insights: ['书院兼顾讲学与应试'], content: '正文', tags: ['宋史'] };
const created = (cognitionId: string, at: string): CognitionEvent => ({
  type: 'CognitionCreated',
  data: { cognitionId, ownerId: OWNER, ownerName: 'Ada', extractionId: `x-${cognitionId}`, sourceKind: 'notes', sources: [{ n: 1, title: '读书笔记', url: null, kind: 'note', refId: 'n1' }], ...body, at },
});
const collection: CollectionEvent = { type: 'CollectionCreated', data: { collectionId: 'k1', ownerId: OWNER, name: '宋史', description: '', at: T1 } };
const added = (cognitionId: string, at: string): CollectionEvent => ({ type: 'CollectionItemAdded', data: { collectionId: 'k1', ownerId: OWNER, cognitionId, at } });

test('a new cognition is private and unviewed', async (t) => {
  await spec.given(created('c1', T1)).thenDoc(t, COGNITIONS, 'c1', {
    owner_id: OWNER,
    owner_name: 'Ada',
    ...body,
    sources: [{ n: 1, title: '读书笔记', url: null, kind: 'note', refId: 'n1' }],
    source_kind: 'notes',
    public: false,
    view_count: 0,
    created_at: T1,
    updated_at: T1,
  });
});

test('edits change only what they name; publishing and views are recorded', async (t) => {
  await spec
    .given(
      created('c1', T1),
      { type: 'CognitionEdited', data: { cognitionId: 'c1', ownerId: OWNER, changes: { title: '书院', tags: [] }, at: T2 } },
      { type: 'CognitionVisibilitySet', data: { cognitionId: 'c1', ownerId: OWNER, public: true, at: T3 } },
      { type: 'CognitionViewed', data: { cognitionId: 'c1', viewerId: 'u2', at: T3 } },
      { type: 'CognitionViewed', data: { cognitionId: 'c1', viewerId: 'u3', at: T3 } },
    )
    .thenDoc(t, COGNITIONS, 'c1', { title: '书院', summary: body.summary, tags: [], public: true, view_count: 2, updated_at: T3 });
});

test('the public square lists public cognitions newest first', async (t) => {
  const visible = (cognitionId: string): CognitionEvent => ({ type: 'CognitionVisibilitySet', data: { cognitionId, ownerId: OWNER, public: true, at: T3 } });
  await spec
    .given(created('c1', T1), created('c2', T3), created('c3', T2), visible('c1'), visible('c2'))
    .then(t, COGNITIONS, [{ _id: 'c2' }, { _id: 'c1' }], { filter: { public: true }, sort: { created_at: -1 } });
});

test('an extraction goes from pending to running to its outcome', async (t) => {
  const requested = spec.given({ type: 'CognitionExtractionRequested', data: { extractionId: 'x1', userId: OWNER, ownerName: 'Ada', kind: 'url', noteIds: [], url: 'https://example.org', cognitionIds: [], at: T1 } });
  await requested.thenDoc(t, EXTRACTIONS, 'x1', { user_id: OWNER, kind: 'url', status: 'pending', cognition_id: null, error: null, created_at: T1, updated_at: T1 });
  const running = requested.when({ type: 'CognitionExtractionStarted', data: { extractionId: 'x1', userId: OWNER, at: T2 } });
  await running.thenDoc(t, EXTRACTIONS, 'x1', { status: 'running', updated_at: T2 });
  await running
    .when({ type: 'CognitionExtractionFinished', data: { extractionId: 'x1', userId: OWNER, outcome: 'completed', cognitionId: 'c1', error: null, at: T3 } })
    .thenDoc(t, EXTRACTIONS, 'x1', { status: 'completed', cognition_id: 'c1', error: null, updated_at: T3 });
  await running
    .when({ type: 'CognitionExtractionFinished', data: { extractionId: 'x1', userId: OWNER, outcome: 'failed', cognitionId: null, error: '页面打不开', at: T3 } })
    .thenDoc(t, EXTRACTIONS, 'x1', { status: 'failed', error: '页面打不开' });
  const refusal = { code: 'fetch.dns_failed', params: { host: 'example.org' } };
  await running
    .when({ type: 'CognitionExtractionFinished', data: { extractionId: 'x1', userId: OWNER, outcome: 'failed', cognitionId: null, error: '无法解析域名 example.org', refusal, at: T3 } })
    .thenDoc(t, EXTRACTIONS, 'x1', { status: 'failed', error: '无法解析域名 example.org', refusal });
});

test('a collection lists its cognitions newest first and is touched by every change', async (t) => {
  const filled = spec.given(collection, created('c1', T1), created('c2', T1), added('c1', T2), added('c2', T3));
  await filled.then(t, COLLECTION_ITEMS, [{ _id: 'k1:c2', cognition_id: 'c2', owner_id: OWNER, added_at: T3 }, { _id: 'k1:c1' }], { filter: { collection_id: 'k1' }, sort: { added_at: -1 } });
  await filled.thenDoc(t, COLLECTIONS, 'k1', { owner_id: OWNER, name: '宋史', updated_at: T3 });
  const edited = filled.when({ type: 'CollectionEdited', data: { collectionId: 'k1', ownerId: OWNER, name: '宋代', description: '两宋', at: T3 } });
  await edited.thenDoc(t, COLLECTIONS, 'k1', { name: '宋代', description: '两宋', created_at: T1 });
  const removed = '2026-03-04T00:00:00.000Z';
  const less = filled.when({ type: 'CollectionItemRemoved', data: { collectionId: 'k1', ownerId: OWNER, cognitionId: 'c1', at: removed } });
  await less.then(t, COLLECTION_ITEMS, [{ _id: 'k1:c2' }]);
  await less.thenDoc(t, COLLECTIONS, 'k1', { updated_at: removed });
});

test('a deleted cognition leaves every collection; a deleted collection takes its items', async (t) => {
  const filled = spec.given(collection, created('c1', T1), created('c2', T1), added('c1', T2), added('c2', T2));
  const withoutC1 = filled.when({ type: 'CognitionDeleted', data: { cognitionId: 'c1', ownerId: OWNER, at: T3 } });
  await withoutC1.thenDoc(t, COGNITIONS, 'c1', null);
  await withoutC1.then(t, COLLECTION_ITEMS, [{ _id: 'k1:c2' }]);
  const gone = filled.when({ type: 'CollectionDeleted', data: { collectionId: 'k1', ownerId: OWNER, at: T3 } });
  await gone.then(t, COLLECTIONS, []);
  await gone.then(t, COLLECTION_ITEMS, []);
});

test('a cognition view replayed after a crash (standalone Mongo) is counted once', async (t) => {
  await spec.given(created('c1', T1)).when({ type: 'CognitionViewed', data: { cognitionId: 'c1', viewerId: 'u2', at: T2 } }).replayed().thenDoc(t, COGNITIONS, 'c1', { view_count: 1 });
});

import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import type { CognitionEvent, CognitionSource, CognitionSourceKind } from '@scriptorium/domain/cognition/cognition';
import type { CollectionEvent } from '@scriptorium/domain/cognition/collection';
import type { ExtractionEvent } from '@scriptorium/domain/cognition/extraction';
import type { CodedError } from '@scriptorium/domain/protocol/errors';
import { countOnce, type Projection } from './projection.ts';

export interface CognitionDoc extends Doc {
  owner_id: string;
  owner_name: string;
  title: string;
  summary: string;
  insights: string[];
  content: string;
  tags: string[];
  sources: CognitionSource[];
  source_kind: CognitionSourceKind;
  public: boolean;
  view_count: number;
  created_at: string;
  updated_at: string;
}

export interface ExtractionDoc extends Doc {
  user_id: string;
  kind: CognitionSourceKind;
  status: 'pending' | 'running' | 'completed' | 'failed';
  cognition_id: string | null;
  error: string | null;
  /** A failure's reason as a code and params, when the catalogue words it. */
  refusal?: CodedError;
  created_at: string;
  updated_at: string;
}

export interface CollectionDoc extends Doc {
  owner_id: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

/** One cognition in one collection; kept apart so a deleted cognition leaves every collection at once. */
export interface CollectionItemDoc extends Doc {
  collection_id: string;
  cognition_id: string;
  owner_id: string;
  added_at: string;
}

export const COGNITIONS = 'cognitions';
export const EXTRACTIONS = 'cognition_extractions';
export const COLLECTIONS = 'cognition_collections';
export const COLLECTION_ITEMS = 'cognition_collection_items';

type Handled = CognitionEvent | Exclude<ExtractionEvent, { type: 'TokensConsumed' }> | CollectionEvent;

export const cognitionsProjection: Projection = {
  name: 'cognitions',
  collections: [COGNITIONS, EXTRACTIONS, COLLECTIONS, COLLECTION_ITEMS],
  handles: [
    'CognitionCreated',
    'CognitionEdited',
    'CognitionVisibilitySet',
    'CognitionDeleted',
    'CognitionViewed',
    'CognitionExtractionRequested',
    'CognitionExtractionStarted',
    'CognitionExtractionFinished',
    'CollectionCreated',
    'CollectionEdited',
    'CollectionDeleted',
    'CollectionItemAdded',
    'CollectionItemRemoved',
  ] satisfies Handled['type'][],
  async setup(store) {
    await store.collection(COGNITIONS).ensureIndex({ fields: { public: 1, created_at: -1 } });
    await store.collection(COGNITIONS).ensureIndex({ fields: { owner_id: 1, created_at: -1 } });
    await store.collection(COLLECTIONS).ensureIndex({ fields: { owner_id: 1, updated_at: -1 } });
    await store.collection(COLLECTION_ITEMS).ensureIndex({ fields: { collection_id: 1, added_at: -1 } });
    await store.collection(COLLECTION_ITEMS).ensureIndex({ fields: { cognition_id: 1 } });
  },
  async apply(recorded: RecordedEvent, tx) {
    const cognitions = tx.collection<CognitionDoc>(COGNITIONS);
    const extractions = tx.collection<ExtractionDoc>(EXTRACTIONS);
    const collections = tx.collection<CollectionDoc>(COLLECTIONS);
    const items = tx.collection<CollectionItemDoc>(COLLECTION_ITEMS);
    const event = { type: recorded.type, data: recorded.data } as Handled;
    switch (event.type) {
      case 'CognitionCreated': {
        const { cognitionId, ownerId, ownerName, title, summary, insights, content, tags, sources, sourceKind, at } = event.data;
        await cognitions.put({ _id: cognitionId, owner_id: ownerId, owner_name: ownerName, title, summary, insights, content, tags, sources, source_kind: sourceKind, public: false, view_count: 0, created_at: at, updated_at: at });
        return;
      }
      case 'CognitionEdited':
        await cognitions.update(event.data.cognitionId, { $set: { ...event.data.changes, updated_at: event.data.at } });
        return;
      case 'CognitionVisibilitySet':
        await cognitions.update(event.data.cognitionId, { $set: { public: event.data.public, updated_at: event.data.at } });
        return;
      case 'CognitionDeleted':
        await cognitions.delete(event.data.cognitionId);
        await items.deleteMany({ cognition_id: event.data.cognitionId });
        return;
      case 'CognitionViewed':
        await countOnce(cognitions, event.data.cognitionId, recorded.position, { $inc: { view_count: 1 } });
        return;
      case 'CognitionExtractionRequested': {
        const { extractionId, userId, kind, at } = event.data;
        await extractions.put({ _id: extractionId, user_id: userId, kind, status: 'pending', cognition_id: null, error: null, created_at: at, updated_at: at });
        return;
      }
      case 'CognitionExtractionStarted':
        await extractions.update(event.data.extractionId, { $set: { status: 'running', updated_at: event.data.at } });
        return;
      case 'CognitionExtractionFinished': {
        const { extractionId, outcome, cognitionId, error, refusal, at } = event.data;
        await extractions.update(extractionId, { $set: { status: outcome, cognition_id: cognitionId, error, ...(refusal && { refusal }), updated_at: at } });
        return;
      }
      case 'CollectionCreated': {
        const { collectionId, ownerId, name, description, at } = event.data;
        await collections.put({ _id: collectionId, owner_id: ownerId, name, description, created_at: at, updated_at: at });
        return;
      }
      case 'CollectionEdited':
        await collections.update(event.data.collectionId, { $set: { name: event.data.name, description: event.data.description, updated_at: event.data.at } });
        return;
      case 'CollectionDeleted':
        await collections.delete(event.data.collectionId);
        await items.deleteMany({ collection_id: event.data.collectionId });
        return;
      case 'CollectionItemAdded': {
        const { collectionId, cognitionId, ownerId, at } = event.data;
        await items.put({ _id: `${collectionId}:${cognitionId}`, collection_id: collectionId, cognition_id: cognitionId, owner_id: ownerId, added_at: at });
        await collections.update(collectionId, { $set: { updated_at: at } });
        return;
      }
      case 'CollectionItemRemoved':
        await items.delete(`${event.data.collectionId}:${event.data.cognitionId}`);
        await collections.update(event.data.collectionId, { $set: { updated_at: event.data.at } });
        return;
      default:
        assertNever(event);
    }
  },
};

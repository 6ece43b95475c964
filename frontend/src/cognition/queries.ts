import type { CognitionEditBody, CollectionBody } from '@scriptorium/domain/protocol/http/cognition';
import {
  addToCollection,
  createCollection,
  deleteCognition,
  deleteCollection,
  getCognition,
  getCollection,
  listCollections,
  recordCognitionView,
  removeFromCollection,
  updateCognition,
  updateCollection,
  type Cognition,
  type Collection,
  type CollectionDetail,
} from './api.ts';
import { queryClient, queryKeys, useApiMutation, useApiQuery } from '../api/query.ts';
import { withCollection, withoutItem } from './collections.ts';

/**
 * The cognition screens' read models in the query cache, and what each write changes there, so a
 * change made in one dialog shows on every screen that has the same thing cached.
 */
export const useCognition = (id: string) => useApiQuery({ queryKey: queryKeys.cognition(id), queryFn: () => getCognition(id) });

export const useCollections = () => useApiQuery({ queryKey: queryKeys.collections, queryFn: async () => (await listCollections()).collections });

export const useCollection = (id: string) => useApiQuery({ queryKey: queryKeys.collection(id), queryFn: () => getCollection(id) });

/** 404 for an unknown id, 422 for one that is not an id at all: either way there is nothing to show. */
export const isMissing = (error: { status: number } | null): boolean => error !== null && (error.status === 404 || error.status === 422);

export function cognitionSaved(cognition: Cognition): void {
  queryClient.setQueryData(queryKeys.cognition(cognition.id), cognition);
  // Its card in the lists changed (title, visibility): they are read again when next shown.
  void queryClient.invalidateQueries({ queryKey: queryKeys.cognitions() });
}

export function cognitionDeleted(id: string): void {
  queryClient.removeQueries({ queryKey: queryKeys.cognition(id) });
  void queryClient.invalidateQueries({ queryKey: queryKeys.cognitions() });
  // The collections that held it count one fewer.
  void queryClient.invalidateQueries({ queryKey: queryKeys.collections });
}

/** A collection created, renamed or given a cognition: the server's answer replaces what is cached. */
export function collectionSaved(saved: Collection): void {
  queryClient.setQueryData<Collection[]>(queryKeys.collections, (collections) => collections && withCollection(collections, saved));
  queryClient.setQueryData<CollectionDetail>(queryKeys.collection(saved.id), (detail) => detail && { ...detail, ...saved });
}

/** A cognition went into a collection: the collection's page must list it when next shown. */
export function addedToCollection(updated: Collection): void {
  collectionSaved(updated);
  void queryClient.invalidateQueries({ queryKey: queryKeys.collection(updated.id) });
}

export function removedFromCollection(updated: Collection, cognitionId: string): void {
  queryClient.setQueryData<Collection[]>(queryKeys.collections, (collections) => collections && withCollection(collections, updated));
  queryClient.setQueryData<CollectionDetail>(queryKeys.collection(updated.id), (detail) => detail && withoutItem(detail, updated, cognitionId));
}

export function collectionDeleted(id: string): void {
  queryClient.setQueryData<Collection[]>(queryKeys.collections, (collections) => collections?.filter((collection) => collection.id !== id));
  queryClient.removeQueries({ queryKey: queryKeys.collection(id) });
}

/** Edits a cognition (title, summary, tags, visibility); every screen showing it gets the server's answer. */
export const useUpdateCognition = (id: string) => useApiMutation({ mutationFn: (patch: CognitionEditBody) => updateCognition(id, patch), onSuccess: cognitionSaved });

/** Deletes a cognition; `leave` runs first, so the page showing it is gone before the cache forgets it. */
export const useDeleteCognition = (id: string, leave: () => void) =>
  useApiMutation({
    mutationFn: () => deleteCognition(id),
    onSuccess: () => {
      leave();
      cognitionDeleted(id);
    },
  });

/** Counts the signed-in reader's view; the count is read again after, as only the server knows whether this reader had been counted before. */
export const useRecordCognitionView = (id: string) =>
  useApiMutation({ mutationFn: () => recordCognitionView(id), onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.cognition(id) }) });

/** Takes a cognition out of collection `id` (the cognition itself stays). */
export const useRemoveFromCollection = (id: string) => useApiMutation({ mutationFn: (cognitionId: string) => removeFromCollection(id, cognitionId), onSuccess: removedFromCollection });

/** Deletes a collection by the id given to `mutate`; `leave` runs first when the page showing it goes. */
export const useDeleteCollection = (leave?: () => void) =>
  useApiMutation({
    mutationFn: (id: string) => deleteCollection(id),
    onSuccess: (_, id) => {
      leave?.();
      collectionDeleted(id);
    },
  });

/** Creates a collection, or changes `collection`'s name and description; the cache gets the server's answer, then `saved` runs. */
export const useSaveCollection = (collection: Collection | undefined, saved: () => void) =>
  useApiMutation({
    mutationFn: (input: Required<CollectionBody>) => (collection ? updateCollection(collection.id, input) : createCollection(input.name, input.description)),
    onSuccess: (answer) => {
      collectionSaved(answer);
      saved();
    },
  });

/** Where a cognition goes: a collection already there, or one to make first under this name. */
export type CollectTarget = Collection | { name: string };

/** Puts cognition `cognitionId` into a collection, making it first when it is new (`created` runs then); `added` gets the collection as it now is. */
export const useCollect = (cognitionId: string, created: () => void, added: (collection: Collection) => void) =>
  useApiMutation({
    mutationFn: async (target: CollectTarget) => {
      const collection = 'id' in target ? target : await createCollection(target.name);
      if (!('id' in target)) {
        collectionSaved(collection);
        created();
      }
      return addToCollection(collection.id, cognitionId);
    },
    onSuccess: (updated) => {
      added(updated);
      addedToCollection(updated);
    },
  });

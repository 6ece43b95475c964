import { getCognition, getCollection, listCollections, updateCognition, type Cognition, type Collection, type CollectionDetail } from '../api/cognition.ts';
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
export const useUpdateCognition = (id: string) =>
  useApiMutation({ mutationFn: (patch: Partial<Pick<Cognition, 'title' | 'summary' | 'tags' | 'public'>>) => updateCognition(id, patch), onSuccess: cognitionSaved });

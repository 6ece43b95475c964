import { queryKeys, useApiMutation, useApiQuery } from '../api/query.ts';
import { notesApi } from './api.ts';
import { noteShared } from './live.ts';

/**
 * A note's text for its editor, read afresh at every opening and never kept once closed: from the
 * moment it is loaded the editor owns the text (its saves move the revision on), so a cached copy
 * would only be an older one; and nothing refreshes it behind the editor's back, since a new copy
 * rebuilds the editor.
 */
export const useNote = (noteId: string) =>
  useApiQuery({ queryKey: queryKeys.note(noteId), queryFn: () => notesApi.get(noteId), staleTime: 0, gcTime: 0, refetchOnReconnect: false });

/** A shared note (and the notes below it) as anyone with the link reads it; a gone link is not retried. */
export const useSharedNote = (token: string) => useApiQuery({ queryKey: queryKeys.shared('note', token), queryFn: () => notesApi.shared(token), retry: false });

/**
 * Share a note for `expiresDays` (after `beforeShare`, the editor's pending save, so the link opens
 * the text as written) or revoke its link; the tree's public mark follows either.
 */
export function useNoteShare(noteId: string, beforeShare: () => Promise<void>) {
  const share = useApiMutation({
    mutationFn: async (expiresDays: number | null) => {
      await beforeShare();
      return notesApi.share(noteId, expiresDays);
    },
    onSuccess: () => noteShared(noteId, true),
  });
  const revoke = useApiMutation({ mutationFn: () => notesApi.revokeShare(noteId), onSuccess: () => noteShared(noteId, false) });
  return { share, revoke };
}

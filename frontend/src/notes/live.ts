import { useSelector } from '@xstate/react';
import { createActor, fromPromise } from 'xstate';
import { hashKey, type UseQueryResult } from '@tanstack/react-query';
import type { ApiError } from '../api/client.ts';
import { auth } from '../app/auth/index.ts';
import { notesApi, type NoteSummary } from './api.ts';
import { queryClient, queryKeys, useApiQuery } from '../api/query.ts';
import { notesMachine, type NotesContext, type NoteWrite, type NoteWriteResult, type TreeUpdate } from './notesMachine.ts';

/** Local storage (spec §3, §9): the tree for an instant first paint, the current note, the selection. */
export const NOTE_TREE_KEY = 'note_tree';
export const CURRENT_NOTE_KEY = 'current_note_id';
export const SELECTED_NOTES_KEY = 'selected_note_ids';
/** The notes open in the tree, so a reload finds the folders as the user left them. */
export const EXPANDED_NOTES_KEY = 'expanded_note_ids';

function readJson<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

async function writeToServer(write: NoteWrite): Promise<NoteWriteResult> {
  switch (write.kind) {
    case 'create':
      return { kind: 'create', note: await notesApi.create({ name: write.name, parent_id: write.parentId }) };
    case 'rename':
      return { kind: 'rename', note: await notesApi.rename(write.id, write.name) };
    case 'move':
      return { kind: 'move', notes: (await notesApi.move(write.id, write.targetId, write.position)).notes };
    case 'remove':
      return { kind: 'remove', deleted: (await notesApi.remove(write.id)).deleted };
  }
}

/**
 * Tabs of the same browser tell each other when they change notes: the others fetch the tree again,
 * and an open note that was saved elsewhere is read again where it holds no unsaved edit. (Other
 * devices learn of it at their next fetch, and a save over an older revision is refused as before.)
 */
type NotesNews = { userId: string; noteSaved?: string };
const tabs = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('scriptorium-notes');
const savedElsewhere = new Set<(noteId: string) => void>();

function tellOtherTabs(news: Omit<NotesNews, 'userId'> = {}): void {
  const userId = auth.getSnapshot().context.user?.id;
  if (userId) tabs?.postMessage({ userId, ...news } satisfies NotesNews);
}

tabs?.addEventListener('message', (event: MessageEvent<NotesNews>) => {
  if (event.data?.userId !== auth.getSnapshot().context.user?.id) return;
  void queryClient.invalidateQueries({ queryKey: queryKeys.notes, exact: true });
  const saved = event.data.noteSaved;
  if (saved) for (const listener of savedElsewhere) listener(saved);
});

/** Hears of a note saved in another tab of this browser; returns how to stop hearing. */
export function onNoteSavedElsewhere(listener: (noteId: string) => void): () => void {
  savedElsewhere.add(listener);
  return () => savedElsewhere.delete(listener);
}

/** Changes the cached tree (before the first fetch there is nothing to change: the fetch brings it). */
export function updateTree(update: TreeUpdate): void {
  queryClient.setQueryData<NoteSummary[]>(queryKeys.notes, (notes) => notes && update(notes));
}

/** The tree as cached now, for a command sent outside render. */
export const cachedTree = (): NoteSummary[] => queryClient.getQueryData<NoteSummary[]>(queryKeys.notes) ?? [];

/** The editor saved: the tree shows the new time. */
export const noteTouched = (id: string, updatedAt: string): void => {
  updateTree((notes) => notes.map((note) => (note.id === id ? { ...note, updated_at: updatedAt } : note)));
  tellOtherTabs({ noteSaved: id });
};

/** The tree's marker of a note a link opens, at once after sharing or revoking. */
export const noteShared = (id: string, shared: boolean): void => {
  updateTree((notes) => notes.map((note) => (note.id === id ? { ...note, shared } : note)));
  tellOtherTabs();
};

/** The page's note tree UI, shared by the /note sub-panel, the note page and the research view's note panel. */
export const notesActor = createActor(
  notesMachine.provide({
    actors: { write: fromPromise<NoteWriteResult, NoteWrite>(({ input }) => writeToServer(input)) },
    actions: {
      updateTree: (_, { update }) => {
        if (!update) return;
        updateTree(update);
        tellOtherTabs();
      },
    },
  }),
  { input: { currentId: localStorage.getItem(CURRENT_NOTE_KEY), selected: readJson<string[]>(SELECTED_NOTES_KEY, []), expanded: [readJson<unknown>(EXPANDED_NOTES_KEY, [])].flat().filter((id): id is string => typeof id === 'string') } },
).start();

// The cache holds the tree; local storage mirrors it for the next first paint, and the machine hears
// of every change so the current note and the selection keep to notes that exist.
queryClient.getQueryCache().subscribe((event) => {
  if (event.type !== 'updated' || event.action.type !== 'success' || event.query.queryHash !== hashKey(queryKeys.notes)) return;
  const notes = event.query.state.data as NoteSummary[] | undefined;
  if (!notes) return;
  localStorage.setItem(NOTE_TREE_KEY, JSON.stringify(notes));
  notesActor.send({ type: 'notes.loaded', notes });
});

let remembered: NotesContext = notesActor.getSnapshot().context;
notesActor.subscribe(({ context }) => {
  if (context.currentId !== remembered.currentId) {
    if (context.currentId === null) localStorage.removeItem(CURRENT_NOTE_KEY);
    else localStorage.setItem(CURRENT_NOTE_KEY, context.currentId);
  }
  if (context.selected !== remembered.selected) localStorage.setItem(SELECTED_NOTES_KEY, JSON.stringify([...context.selected]));
  if (context.expanded !== remembered.expanded) localStorage.setItem(EXPANDED_NOTES_KEY, JSON.stringify([...context.expanded]));
  remembered = context;
});

// Another user's notes must never show: when the signed-in user goes, so does what was remembered of
// the tree (the cached tree goes with the rest of the query cache, app/auth).
let owner = auth.getSnapshot().context.user?.id ?? null;
auth.subscribe(({ context }) => {
  const user = context.user?.id ?? null;
  if (user === owner) return;
  if (owner !== null) for (const key of [NOTE_TREE_KEY, CURRENT_NOTE_KEY, SELECTED_NOTES_KEY, EXPANDED_NOTES_KEY]) localStorage.removeItem(key);
  owner = user;
});

/** The tree, from the query cache; the last one seen (local storage) paints at once while it loads. */
export const useNoteTree = (signedIn: boolean): UseQueryResult<NoteSummary[], ApiError> =>
  useApiQuery({
    queryKey: queryKeys.notes,
    queryFn: async () => (await notesApi.list()).notes,
    initialData: () => readJson<NoteSummary[] | undefined>(NOTE_TREE_KEY, undefined),
    // Stale from the start: the stored tree is only for the first paint, the server's is fetched.
    initialDataUpdatedAt: 0,
    enabled: signedIn,
  });

export const useNotesUi = (): NotesContext => useSelector(notesActor, (snapshot) => snapshot.context);

export const useSelecting = (): boolean => useSelector(notesActor, (snapshot) => snapshot.matches({ selection: 'selecting' }));

import { useSyncExternalStore } from 'react';
import { toApiError, type ApiError } from '../api/client.ts';
import { notesApi, type DropPosition, type NoteSummary } from '../api/notes.ts';
import { ancestors, descendants, hiddenIds, toggleSelection } from './tree.ts';

/** Local storage (spec §3, §9): the tree for an instant first paint, the current note, the selection. */
export const NOTE_TREE_KEY = 'note_tree';
export const CURRENT_NOTE_KEY = 'current_note_id';
export const SELECTED_NOTES_KEY = 'selected_note_ids';

export interface NotesState {
  notes: NoteSummary[] | null;
  loading: boolean;
  error: ApiError | null;
  currentId: string | null;
  selecting: boolean;
  selected: ReadonlySet<string>;
  expanded: ReadonlySet<string>;
  /** The note whose name is being edited in the tree. */
  editingId: string | null;
  /**
   * Notes deleted in the tree but not yet on the server: the server has no restore, so the delete is
   * sent only when the undo toast goes away. Hidden with their descendants meanwhile.
   */
  pendingDelete: ReadonlySet<string>;
}

function readJson<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

class NotesStore {
  private state: NotesState = {
    notes: readJson<NoteSummary[] | null>(NOTE_TREE_KEY, null),
    loading: false,
    error: null,
    currentId: localStorage.getItem(CURRENT_NOTE_KEY),
    selecting: false,
    selected: new Set(readJson<string[]>(SELECTED_NOTES_KEY, [])),
    expanded: new Set(),
    editingId: null,
    pendingDelete: new Set(),
  };
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = () => this.state;

  private set(patch: Partial<NotesState>) {
    this.state = { ...this.state, ...patch };
    if (patch.notes !== undefined) localStorage.setItem(NOTE_TREE_KEY, JSON.stringify(patch.notes));
    if (patch.currentId !== undefined) {
      if (patch.currentId === null) localStorage.removeItem(CURRENT_NOTE_KEY);
      else localStorage.setItem(CURRENT_NOTE_KEY, patch.currentId);
    }
    if (patch.selected !== undefined) localStorage.setItem(SELECTED_NOTES_KEY, JSON.stringify([...patch.selected]));
    for (const listener of this.listeners) listener();
  }

  private fail(error: unknown) {
    this.set({ error: toApiError(error) });
  }

  /** Forgets everything of the signed-out user. */
  clear() {
    for (const key of [NOTE_TREE_KEY, CURRENT_NOTE_KEY, SELECTED_NOTES_KEY]) localStorage.removeItem(key);
    this.state = { notes: null, loading: false, error: null, currentId: null, selecting: false, selected: new Set(), expanded: new Set(), editingId: null, pendingDelete: new Set() };
    for (const listener of this.listeners) listener();
  }

  async load() {
    this.set({ loading: true, error: null });
    try {
      const { notes } = await notesApi.list();
      const known = new Set(notes.map((note) => note.id));
      const currentId = this.state.currentId && known.has(this.state.currentId) ? this.state.currentId : (notes.find((note) => note.parent_id === null)?.id ?? null);
      const selected = new Set([...this.state.selected].filter((id) => known.has(id)));
      const expanded = new Set([...this.state.expanded, ...(currentId ? ancestors(notes, currentId) : [])]);
      this.set({ notes, loading: false, currentId, selected, expanded });
    } catch (error) {
      this.set({ loading: false });
      this.fail(error);
    }
  }

  open(id: string) {
    const notes = this.state.notes ?? [];
    this.set({ currentId: id, expanded: new Set([...this.state.expanded, ...ancestors(notes, id)]) });
  }

  toggleExpanded(id: string) {
    const expanded = new Set(this.state.expanded);
    if (expanded.has(id)) expanded.delete(id);
    else expanded.add(id);
    this.set({ expanded });
  }

  async create(name: string, parentId: string | null = null): Promise<string | null> {
    try {
      const created = await notesApi.create({ name, parent_id: parentId });
      const notes = [...(this.state.notes ?? []), created];
      this.set({ notes, currentId: created.id, editingId: created.id, expanded: new Set([...this.state.expanded, ...(parentId ? [parentId, ...ancestors(notes, parentId)] : [])]) });
      return created.id;
    } catch (error) {
      this.fail(error);
      return null;
    }
  }

  startRename(id: string | null) {
    this.set({ editingId: id });
  }

  async rename(id: string, name: string) {
    this.set({ editingId: null });
    const before = this.state.notes ?? [];
    this.set({ notes: before.map((note) => (note.id === id ? { ...note, name } : note)) });
    try {
      const renamed = await notesApi.rename(id, name);
      this.set({ notes: (this.state.notes ?? []).map((note) => (note.id === id ? renamed : note)) });
    } catch (error) {
      this.set({ notes: before });
      this.fail(error);
    }
  }

  /** Hides a note and its descendants until `remove` or `cancelRemove`; the editor moves off them. */
  scheduleRemove(id: string) {
    const notes = this.state.notes ?? [];
    const pendingDelete = new Set([...this.state.pendingDelete, id]);
    const hidden = hiddenIds(notes, pendingDelete);
    const currentId = this.state.currentId && hidden.has(this.state.currentId) ? (notes.find((note) => note.parent_id === null && !hidden.has(note.id))?.id ?? null) : this.state.currentId;
    this.set({ pendingDelete, currentId });
  }

  cancelRemove(id: string) {
    const pendingDelete = new Set(this.state.pendingDelete);
    pendingDelete.delete(id);
    this.set({ pendingDelete });
  }

  async remove(id: string) {
    const settled = () => {
      const pendingDelete = new Set(this.state.pendingDelete);
      pendingDelete.delete(id);
      return pendingDelete;
    };
    try {
      const { deleted } = await notesApi.remove(id);
      const gone = new Set(deleted);
      const notes = (this.state.notes ?? []).filter((note) => !gone.has(note.id));
      const currentId = this.state.currentId && gone.has(this.state.currentId) ? (notes.find((note) => note.parent_id === null)?.id ?? null) : this.state.currentId;
      this.set({ notes, currentId, pendingDelete: settled(), selected: new Set([...this.state.selected].filter((selected) => !gone.has(selected))) });
    } catch (error) {
      this.set({ pendingDelete: settled() });
      this.fail(error);
    }
  }

  async move(id: string, targetId: string | null, position: DropPosition) {
    try {
      const { notes } = await notesApi.move(id, targetId, position);
      this.set({ notes, expanded: position === 'inside' && targetId ? new Set([...this.state.expanded, targetId]) : this.state.expanded });
    } catch (error) {
      this.fail(error);
    }
  }

  /** Updates the tree after the editor saved (the time shown) or the share changed. */
  touched(id: string, updatedAt: string) {
    this.set({ notes: (this.state.notes ?? []).map((note) => (note.id === id ? { ...note, updated_at: updatedAt } : note)) });
  }

  setSelecting(on: boolean, keepSelection: boolean) {
    // Leaving selection mode clears the selection, unless an extraction is using it (spec §4).
    this.set({ selecting: on, ...(!on && !keepSelection && { selected: new Set<string>() }) });
  }

  toggleSelected(id: string, on: boolean) {
    this.set({ selected: toggleSelection(this.state.notes ?? [], this.state.selected, id, on) });
  }

  dismissError() {
    this.set({ error: null });
  }

  hasChildren(id: string): boolean {
    return descendants(this.state.notes ?? [], id).size > 0;
  }
}

export const notesStore = new NotesStore();

export const useNotes = (): NotesState => useSyncExternalStore(notesStore.subscribe, notesStore.getSnapshot);

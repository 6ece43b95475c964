import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';

/**
 * A user's notebook (stream `notebook-<userId>`): the tree of notes, their names, order and share
 * links. Each note's text lives in its own stream `note-<noteId>` (see `content.ts`), so saving
 * a page does not make every tree command read every save ever made.
 */

/**
 * `content`: the text a note was created with, when it was (one request, one append); the note's
 * own stream then starts from it as revision 1 (see `currentContent` in content.ts).
 */
export type NoteCreated = DomainEvent<'NoteCreated', { noteId: string; userId: string; name: string; parentId: string | null; order: number; content?: string; at: string }>;
export type NoteRenamed = DomainEvent<'NoteRenamed', { noteId: string; userId: string; name: string; at: string }>;
export type NoteMoved = DomainEvent<'NoteMoved', { noteId: string; userId: string; parentId: string | null; order: number; at: string }>;
/** The note and every note below it, deepest first. */
export type NotesDeleted = DomainEvent<'NotesDeleted', { noteId: string; userId: string; noteIds: string[]; at: string }>;
export type NoteShared = DomainEvent<'NoteShared', { noteId: string; userId: string; token: string; expiresAt: string | null; at: string }>;
export type NoteShareRevoked = DomainEvent<'NoteShareRevoked', { noteId: string; userId: string; token: string; at: string }>;
export type NotebookEvent = NoteCreated | NoteRenamed | NoteMoved | NotesDeleted | NoteShared | NoteShareRevoked;

export interface NoteNode {
  name: string;
  /** The text the note was created with, if any: what its content stream starts from. */
  initialContent?: string;
  parentId: string | null;
  order: number;
  share: { token: string; expiresAt: string | null } | null;
}

export type Notebook = { status: 'empty' } | { status: 'open'; userId: string; notes: Record<string, NoteNode> };

export const initialState = (): Notebook => ({ status: 'empty' });

export const notebookStream = (userId: string): string => `notebook-${userId}`;

function update(state: Notebook, noteId: string, change: (node: NoteNode) => NoteNode): Notebook {
  if (state.status !== 'open') return state;
  const node = state.notes[noteId];
  return node ? { ...state, notes: { ...state.notes, [noteId]: change(node) } } : state;
}

export function evolve(state: Notebook, event: NotebookEvent): Notebook {
  switch (event.type) {
    case 'NoteCreated': {
      const { noteId, userId, name, parentId, order, content } = event.data;
      const notes = state.status === 'open' ? state.notes : {};
      return { status: 'open', userId, notes: { ...notes, [noteId]: { name, parentId, order, share: null, ...(content && { initialContent: content }) } } };
    }
    case 'NoteRenamed':
      return update(state, event.data.noteId, (node) => ({ ...node, name: event.data.name }));
    case 'NoteMoved':
      return update(state, event.data.noteId, (node) => ({ ...node, parentId: event.data.parentId, order: event.data.order }));
    case 'NotesDeleted': {
      if (state.status !== 'open') return state;
      const notes = { ...state.notes };
      for (const id of event.data.noteIds) delete notes[id];
      return { ...state, notes };
    }
    case 'NoteShared':
      return update(state, event.data.noteId, (node) => ({ ...node, share: { token: event.data.token, expiresAt: event.data.expiresAt } }));
    case 'NoteShareRevoked':
      return update(state, event.data.noteId, (node) => ({ ...node, share: null }));
    default:
      return assertNever(event);
  }
}

/** The ids of `noteId` and everything below it, deepest first. */
export function subtree(notes: Record<string, NoteNode>, noteId: string): string[] {
  const children = Object.entries(notes)
    .filter(([, node]) => node.parentId === noteId)
    .map(([id]) => id);
  return [...children.flatMap((child) => subtree(notes, child)), noteId];
}

/** Siblings under `parentId` in display order. */
export function childrenOf(notes: Record<string, NoteNode>, parentId: string | null): Array<[string, NoteNode]> {
  return Object.entries(notes)
    .filter(([, node]) => node.parentId === parentId)
    .sort(([, a], [, b]) => a.order - b.order);
}

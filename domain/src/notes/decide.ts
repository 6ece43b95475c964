import { errorText } from '../protocol/errors.ts';
import { refuse } from '../refuse.ts';
import { assertNever, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { MAX_NOTE_CHARS, MAX_NOTE_NAME } from '../protocol/http/notes.ts';
import { childrenOf, evolve, initialState, subtree, type Notebook, type NotebookEvent, type NoteNode } from './notes.ts';

/** A notebook is for a person's notes; a tree past this is a script, not a person. */
export const MAX_NOTES = 5000;
export const NOTE_NOT_FOUND = errorText('notes.not_found');
export const MOVE_INTO_ITSELF = errorText('notes.move_into_itself');

export type DropPosition = 'before' | 'after' | 'inside';

type Owner = { userId: string };
/** `content`: the note's first text, recorded with its creation so a refused request leaves no empty note behind. */
export type CreateNote = Command<'CreateNote', Owner & { noteId: string; name: string; parentId: string | null; content?: string }>;
export type RenameNote = Command<'RenameNote', Owner & { noteId: string; name: string }>;
export type MoveNote = Command<'MoveNote', Owner & { noteId: string; targetId: string | null; position: DropPosition }>;
export type DeleteNote = Command<'DeleteNote', Owner & { noteId: string }>;
export type ShareNote = Command<'ShareNote', Owner & { noteId: string; token: string; expiresDays: number | null }>;
export type RevokeNoteShare = Command<'RevokeNoteShare', Owner & { noteId: string }>;
export type NotebookCommand = CreateNote | RenameNote | MoveNote | DeleteNote | ShareNote | RevokeNoteShare;

const notesOf = (state: Notebook): Record<string, NoteNode> => (state.status === 'open' ? state.notes : {});

function existing(state: Notebook, noteId: string | null): NoteNode {
  const node = noteId === null ? undefined : notesOf(state)[noteId];
  if (!node) throw refuse('not_found', 'notes.not_found');
  return node;
}

function validName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0) throw refuse('invalid', 'notes.name_empty', {}, 'name');
  if (name.length > MAX_NOTE_NAME) throw refuse('invalid', 'notes.name_too_long', { max: MAX_NOTE_NAME }, 'name');
  return name;
}

/** After the last sibling under `parentId`. */
function lastOrder(notes: Record<string, NoteNode>, parentId: string | null, except?: string): number {
  const siblings = childrenOf(notes, parentId).filter(([id]) => id !== except);
  return (siblings.at(-1)?.[1].order ?? 0) + 1;
}

/** Between the target and its neighbour on the dropped side, so no other note has to move. */
function placeBeside(notes: Record<string, NoteNode>, noteId: string, targetId: string, side: 'before' | 'after'): { parentId: string | null; order: number } {
  const target = notes[targetId]!;
  const siblings = childrenOf(notes, target.parentId).filter(([id]) => id !== noteId);
  const at = siblings.findIndex(([id]) => id === targetId);
  const neighbour = siblings[side === 'before' ? at - 1 : at + 1]?.[1].order;
  const bound = neighbour ?? (side === 'before' ? target.order - 1 : target.order + 1);
  return { parentId: target.parentId, order: (target.order + bound) / 2 };
}

export const createNote = (command: CreateNote, state: Notebook): NotebookEvent[] => {
  const { noteId, userId, parentId } = command.data;
  const notes = notesOf(state);
  if (notes[noteId]) return [];
  if (parentId !== null) existing(state, parentId);
  if (Object.keys(notes).length >= MAX_NOTES) throw refuse('conflict', 'notes.too_many', { max: MAX_NOTES });
  const name = validName(command.data.name);
  const content = command.data.content ?? '';
  if (content.length > MAX_NOTE_CHARS) throw refuse('invalid', 'notes.content_too_long', { max: MAX_NOTE_CHARS }, 'content');
  return [{ type: 'NoteCreated', data: { noteId, userId, name, parentId, order: lastOrder(notes, parentId), ...(content && { content }), at: command.metadata.now.toISOString() } }];
};

export const renameNote = (command: RenameNote, state: Notebook): NotebookEvent[] => {
  const { noteId, userId } = command.data;
  const node = existing(state, noteId);
  const name = validName(command.data.name);
  if (name === node.name) return [];
  return [{ type: 'NoteRenamed', data: { noteId, userId, name, at: command.metadata.now.toISOString() } }];
};

export const moveNote = (command: MoveNote, state: Notebook): NotebookEvent[] => {
  const { noteId, userId, targetId, position } = command.data;
  const notes = notesOf(state);
  const node = existing(state, noteId);
  if (targetId !== null) {
    existing(state, targetId);
    if (subtree(notes, noteId).includes(targetId)) throw refuse('invalid', 'notes.move_into_itself', {}, 'target_id');
  }
  const place =
    targetId === null
      ? { parentId: null, order: lastOrder(notes, null, noteId) }
      : position === 'inside'
        ? { parentId: targetId, order: lastOrder(notes, targetId, noteId) }
        : placeBeside(notes, noteId, targetId, position);
  if (place.parentId === node.parentId && place.order === node.order) return [];
  return [{ type: 'NoteMoved', data: { noteId, userId, ...place, at: command.metadata.now.toISOString() } }];
};

export const deleteNote = (command: DeleteNote, state: Notebook): NotebookEvent[] => {
  const { noteId, userId } = command.data;
  existing(state, noteId);
  return [{ type: 'NotesDeleted', data: { noteId, userId, noteIds: subtree(notesOf(state), noteId), at: command.metadata.now.toISOString() } }];
};

/** One link per note: sharing again replaces the old link, so an owner can always cut off who has it. */
export const shareNote = (command: ShareNote, state: Notebook): NotebookEvent[] => {
  const { noteId, userId, token, expiresDays } = command.data;
  const node = existing(state, noteId);
  const now = command.metadata.now;
  if (node.share?.token === token) return [];
  const expiresAt = expiresDays === null ? null : new Date(now.getTime() + expiresDays * 86_400_000).toISOString();
  const revoke: NotebookEvent[] = node.share ? [{ type: 'NoteShareRevoked', data: { noteId, userId, token: node.share.token, at: now.toISOString() } }] : [];
  return [...revoke, { type: 'NoteShared', data: { noteId, userId, token, expiresAt, at: now.toISOString() } }];
};

export const revokeNoteShare = (command: RevokeNoteShare, state: Notebook): NotebookEvent[] => {
  const { noteId, userId } = command.data;
  const node = existing(state, noteId);
  if (!node.share) return [];
  return [{ type: 'NoteShareRevoked', data: { noteId, userId, token: node.share.token, at: command.metadata.now.toISOString() } }];
};

export function decide(command: NotebookCommand, state: Notebook): NotebookEvent[] {
  switch (command.type) {
    case 'CreateNote':
      return createNote(command, state);
    case 'RenameNote':
      return renameNote(command, state);
    case 'MoveNote':
      return moveNote(command, state);
    case 'DeleteNote':
      return deleteNote(command, state);
    case 'ShareNote':
      return shareNote(command, state);
    case 'RevokeNoteShare':
      return revokeNoteShare(command, state);
    default:
      return assertNever(command);
  }
}

export const notebookDecider: Decider<Notebook, NotebookCommand, NotebookEvent> = { initialState, evolve, decide };

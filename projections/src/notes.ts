import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import type { NoteContentEvent } from '@scriptorium/domain/notes/content';
import type { NotebookEvent } from '@scriptorium/domain/notes/notes';
import type { Projection } from './projection.ts';

/** A note as its owner lists and opens it. */
export interface NoteDoc extends Doc {
  user_id: string;
  name: string;
  parent_id: string | null;
  order: number;
  content: string;
  revision: number;
  share_token: string | null;
  share_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A public link to a note, looked up by its token; whether it still opens is decided at read time. */
export interface NoteShareDoc extends Doc {
  note_id: string;
  user_id: string;
  expires_at: string | null;
  created_at: string;
}

export const NOTES = 'notes';
export const NOTE_SHARES = 'note_shares';

type NoteEvent = NotebookEvent | NoteContentEvent;

export const notesProjection: Projection = {
  name: 'notes',
  collections: [NOTES, NOTE_SHARES],
  handles: ['NoteCreated', 'NoteRenamed', 'NoteMoved', 'NotesDeleted', 'NoteShared', 'NoteShareRevoked', 'NoteContentSaved'] satisfies NoteEvent['type'][],
  async setup(store) {
    await store.collection(NOTES).ensureIndex({ fields: { user_id: 1, order: 1 } });
  },
  async apply(recorded: RecordedEvent, tx) {
    const notes = tx.collection<NoteDoc>(NOTES);
    const shares = tx.collection<NoteShareDoc>(NOTE_SHARES);
    const event = { type: recorded.type, data: recorded.data } as NoteEvent;
    switch (event.type) {
      case 'NoteCreated': {
        const { noteId, userId, name, parentId, order, content, at } = event.data;
        await notes.put({ _id: noteId, user_id: userId, name, parent_id: parentId, order, content: content ?? '', revision: content ? 1 : 0, share_token: null, share_expires_at: null, created_at: at, updated_at: at });
        return;
      }
      case 'NoteRenamed':
        await notes.update(event.data.noteId, { $set: { name: event.data.name, updated_at: event.data.at } });
        return;
      case 'NoteMoved':
        await notes.update(event.data.noteId, { $set: { parent_id: event.data.parentId, order: event.data.order } });
        return;
      case 'NotesDeleted':
        for (const noteId of event.data.noteIds) {
          await notes.delete(noteId);
          await shares.deleteMany({ note_id: noteId });
        }
        return;
      case 'NoteShared': {
        const { noteId, userId, token, expiresAt, at } = event.data;
        await shares.put({ _id: token, note_id: noteId, user_id: userId, expires_at: expiresAt, created_at: at });
        await notes.update(noteId, { $set: { share_token: token, share_expires_at: expiresAt } });
        return;
      }
      case 'NoteShareRevoked':
        await shares.delete(event.data.token);
        await notes.update(event.data.noteId, { $set: { share_token: null, share_expires_at: null } });
        return;
      case 'NoteContentSaved': {
        const { noteId, content, revision, at } = event.data;
        await notes.update(noteId, { $set: { content, revision, updated_at: at } });
        return;
      }
      default:
        assertNever(event);
    }
  },
};

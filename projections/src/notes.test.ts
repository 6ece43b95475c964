import test from 'ava';
import type { NoteContentEvent } from '@scriptorium/domain/notes/content';
import type { NotebookEvent } from '@scriptorium/domain/notes/notes';
import { T1, T2, T3 } from './fixtures.ts';
import { NOTE_SHARES, NOTES, notesProjection } from './notes.ts';
import { projectionSpec } from './testing.ts';

const spec = projectionSpec<NotebookEvent | NoteContentEvent>(notesProjection);
const created = (noteId: string, parentId: string | null, order: number): NotebookEvent => ({ type: 'NoteCreated', data: { noteId, userId: 'u1', name: `笔记 ${noteId}`, parentId, order, at: T1 } });
const notebook = spec.given(created('n1', null, 0), created('n2', 'n1', 0), created('n3', null, 1));
const shared: NotebookEvent = { type: 'NoteShared', data: { noteId: 'n2', userId: 'u1', token: 'tok-1', expiresAt: T3, at: T2 } };

test('a new note is empty, unshared, at its place in the tree', async (t) => {
  await notebook.thenDoc(t, NOTES, 'n2', { user_id: 'u1', name: '笔记 n2', parent_id: 'n1', order: 0, content: '', revision: 0, share_token: null, share_expires_at: null, created_at: T1, updated_at: T1 });
});

test("the owner's notes are listed in their order", async (t) => {
  await notebook
    .when({ type: 'NoteMoved', data: { noteId: 'n3', userId: 'u1', parentId: null, order: -1, at: T2 } })
    .then(t, NOTES, [{ _id: 'n3', parent_id: null }, { _id: 'n1' }, { _id: 'n2', parent_id: 'n1' }], { filter: { user_id: 'u1' }, sort: { order: 1, created_at: 1 } });
});

test('renaming and saving content change the note', async (t) => {
  await notebook
    .when({ type: 'NoteRenamed', data: { noteId: 'n1', userId: 'u1', name: '读书', at: T2 } }, { type: 'NoteContentSaved', data: { noteId: 'n1', userId: 'u1', content: '# 读书', revision: 3, at: T3 } })
    .thenDoc(t, NOTES, 'n1', { name: '读书', content: '# 读书', revision: 3, updated_at: T3 });
});

test('a share is looked up by its token and shown on the note; revoking removes both', async (t) => {
  const sharing = notebook.when(shared);
  await sharing.then(t, NOTE_SHARES, [{ _id: 'tok-1', note_id: 'n2', user_id: 'u1', expires_at: T3, created_at: T2 }]);
  await sharing.thenDoc(t, NOTES, 'n2', { share_token: 'tok-1', share_expires_at: T3 });
  const revoked = sharing.when({ type: 'NoteShareRevoked', data: { noteId: 'n2', userId: 'u1', token: 'tok-1', at: T3 } });
  await revoked.then(t, NOTE_SHARES, []);
  await revoked.thenDoc(t, NOTES, 'n2', { share_token: null, share_expires_at: null });
});

test('deleting a note deletes the notes below it and their shares', async (t) => {
  const deleted = notebook.when(shared, { type: 'NotesDeleted', data: { noteId: 'n1', userId: 'u1', noteIds: ['n2', 'n1'], at: T3 } });
  await deleted.then(t, NOTES, [{ _id: 'n3' }]);
  await deleted.then(t, NOTE_SHARES, []);
});

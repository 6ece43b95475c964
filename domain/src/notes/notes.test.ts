import test from 'ava';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import { noteContentDecider, EDITED_ELSEWHERE } from './contentDecide.ts';
import type { NoteContentEvent } from './content.ts';
import { MOVE_INTO_ITSELF, NOTE_NOT_FOUND, notebookDecider } from './decide.ts';
import type { NotebookEvent } from './notes.ts';

const spec = deciderSpec(notebookDecider);
const contentSpec = deciderSpec(noteContentDecider);
const T1 = '2026-04-01T08:00:00.000Z';
const userId = 'u1';

const created = (noteId: string, parentId: string | null, order: number, name = noteId): NotebookEvent => ({ type: 'NoteCreated', data: { noteId, userId, name, parentId, order, at: T1 } });
const moved = (noteId: string, parentId: string | null, order: number): NotebookEvent => ({ type: 'NoteMoved', data: { noteId, userId, parentId, order, at: T1 } });
// a, b, c at the root; a1 and a2 under a; a1x under a1.
const tree = [created('a', null, 1), created('b', null, 2), created('c', null, 3), created('a1', 'a', 1), created('a2', 'a', 2), created('a1x', 'a1', 1)];
const move = (noteId: string, targetId: string | null, position: 'before' | 'after' | 'inside') => ({ type: 'MoveNote' as const, data: { userId, noteId, targetId, position }, metadata: at(T1) });

test('a new note goes after its last sibling, with its name trimmed', (t) => {
  spec([]).when({ type: 'CreateNote', data: { userId, noteId: 'a', name: '  新建笔记 ', parentId: null }, metadata: at(T1) }).then(t, [created('a', null, 1, '新建笔记')]);
  spec(tree).when({ type: 'CreateNote', data: { userId, noteId: 'a3', name: '第三节', parentId: 'a' }, metadata: at(T1) }).then(t, [created('a3', 'a', 3, '第三节')]);
});

test('a note is not created twice, nor under a missing parent, nor with a blank name', (t) => {
  spec(tree).when({ type: 'CreateNote', data: { userId, noteId: 'a', name: 'again', parentId: null }, metadata: at(T1) }).then(t, []);
  spec(tree).when({ type: 'CreateNote', data: { userId, noteId: 'z', name: 'z', parentId: 'gone' }, metadata: at(T1) }).thenThrows(t, 'not_found', NOTE_NOT_FOUND);
  spec(tree).when({ type: 'CreateNote', data: { userId, noteId: 'z', name: '   ', parentId: null }, metadata: at(T1) }).thenThrows(t, 'invalid', '笔记名称不能为空');
});

test('renaming to the same name records nothing', (t) => {
  spec(tree).when({ type: 'RenameNote', data: { userId, noteId: 'b', name: ' b ' }, metadata: at(T1) }).then(t, []);
  spec(tree).when({ type: 'RenameNote', data: { userId, noteId: 'b', name: '读书' }, metadata: at(T1) }).then(t, [{ type: 'NoteRenamed', data: { noteId: 'b', userId, name: '读书', at: T1 } }]);
});

test('dropping before or after a note lands between it and its neighbour; inside lands last', (t) => {
  spec(tree).when(move('c', 'b', 'before')).then(t, [moved('c', null, 1.5)]);
  spec(tree).when(move('a', 'b', 'after')).then(t, [moved('a', null, 2.5)]);
  spec(tree).when(move('c', 'a', 'before')).then(t, [moved('c', null, 0.5)]);
  spec(tree).when(move('a2', 'c', 'after')).then(t, [moved('a2', null, 3.5)]);
  spec(tree).when(move('c', 'a', 'inside')).then(t, [moved('c', 'a', 3)]);
  spec(tree).when(move('a1x', null, 'inside')).then(t, [moved('a1x', null, 4)]);
});

test('a drop that changes nothing records nothing', (t) => {
  spec(tree).when(move('b', 'a', 'after')).then(t, []);
  spec(tree).when(move('a2', 'a', 'inside')).then(t, []);
});

test('a note cannot be dropped onto itself or below itself', (t) => {
  spec(tree).when(move('a', 'a', 'inside')).thenThrows(t, 'invalid', MOVE_INTO_ITSELF);
  spec(tree).when(move('a', 'a1x', 'after')).thenThrows(t, 'invalid', MOVE_INTO_ITSELF);
  spec(tree).when(move('a', 'gone', 'after')).thenThrows(t, 'not_found', NOTE_NOT_FOUND);
});

test('deleting a note deletes everything below it, deepest first', (t) => {
  spec(tree).when({ type: 'DeleteNote', data: { userId, noteId: 'a' }, metadata: at(T1) }).then(t, [{ type: 'NotesDeleted', data: { noteId: 'a', userId, noteIds: ['a1x', 'a1', 'a2', 'a'], at: T1 } }]);
  spec([...tree, { type: 'NotesDeleted', data: { noteId: 'b', userId, noteIds: ['b'], at: T1 } }])
    .when({ type: 'RenameNote', data: { userId, noteId: 'b', name: 'x' }, metadata: at(T1) })
    .thenThrows(t, 'not_found', NOTE_NOT_FOUND);
});

test('sharing again replaces the link; revoking an unshared note records nothing', (t) => {
  const shared: NotebookEvent = { type: 'NoteShared', data: { noteId: 'b', userId, token: 'tok1', expiresAt: null, at: T1 } };
  spec(tree).when({ type: 'ShareNote', data: { userId, noteId: 'b', token: 'tok1', expiresDays: 7 }, metadata: at(T1) }).then(t, [{ type: 'NoteShared', data: { noteId: 'b', userId, token: 'tok1', expiresAt: '2026-04-08T08:00:00.000Z', at: T1 } }]);
  spec([...tree, shared])
    .when({ type: 'ShareNote', data: { userId, noteId: 'b', token: 'tok2', expiresDays: null }, metadata: at(T1) })
    .then(t, [
      { type: 'NoteShareRevoked', data: { noteId: 'b', userId, token: 'tok1', at: T1 } },
      { type: 'NoteShared', data: { noteId: 'b', userId, token: 'tok2', expiresAt: null, at: T1 } },
    ]);
  spec(tree).when({ type: 'RevokeNoteShare', data: { userId, noteId: 'b' }, metadata: at(T1) }).then(t, []);
});

const saved = (revision: number, content: string): NoteContentEvent => ({ type: 'NoteContentSaved', data: { noteId: 'a', userId, content, revision, at: T1 } });
const save = (content: string, baseRevision: number) => ({ type: 'SaveNoteContent' as const, data: { noteId: 'a', userId, content, baseRevision }, metadata: at(T1) });

test('a save from the current revision makes the next one; unchanged text makes none', (t) => {
  contentSpec([]).when(save('# 提纲', 0)).then(t, [saved(1, '# 提纲')]);
  contentSpec([saved(1, '# 提纲')]).when(save('# 提纲\n\n正文', 1)).then(t, [saved(2, '# 提纲\n\n正文')]);
  contentSpec([saved(1, '# 提纲')]).when(save('# 提纲', 1)).then(t, []);
  contentSpec([]).when(save('', 0)).then(t, []);
});

test('a save from an older revision is refused, so the newer text is not lost', (t) => {
  contentSpec([saved(1, 'one'), saved(2, 'two')]).when(save('from one', 1)).thenThrows(t, 'conflict', EDITED_ELSEWHERE);
});

test('a note created with its text records it in its creation, one event; an overlong text is refused', (t) => {
  spec([]).when({ type: 'CreateNote', data: { userId, noteId: 'a', name: '摘录', parentId: null, content: '第一段' }, metadata: at(T1) }).then(t, [{ type: 'NoteCreated', data: { noteId: 'a', userId, name: '摘录', parentId: null, order: 1, content: '第一段', at: T1 } }]);
  spec([]).when({ type: 'CreateNote', data: { userId, noteId: 'a', name: '摘录', parentId: null, content: 'x'.repeat(300_001) }, metadata: at(T1) }).thenThrows(t, 'invalid');
});

test('a note created with text is at revision 1: saves go on from it, and saving it unchanged records nothing', (t) => {
  const seeded = (content: string, baseRevision: number) => ({ ...save(content, baseRevision), data: { ...save(content, baseRevision).data, initialContent: '第一段' } });
  contentSpec([]).when(seeded('第一段', 1)).then(t, []);
  contentSpec([]).when(seeded('', 1)).then(t, [saved(2, '')]);
  contentSpec([]).when(seeded('改过', 0)).thenThrows(t, 'conflict', EDITED_ELSEWHERE);
});

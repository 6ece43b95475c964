import test from 'ava';
import type { NoteSummary } from './api.ts';
import { ancestors, buildTree, canDrop, cleanName, dropPosition, hiddenIds, keyboardMove, searchNotes, sharedThrough, toggleSelection, visibleRows } from './tree.ts';

const note = (id: string, parent: string | null, order: number, shared = false): NoteSummary => ({ id, name: id, parent_id: parent, order, created_at: '', updated_at: '', shared });
const NOTES = [note('b', null, 2), note('a', null, 1), note('a2', 'a', 2), note('a1', 'a', 1), note('a1x', 'a1', 1), note('orphan', 'gone', 1)];

test('the tree sorts siblings by order and keeps orphans at the root', (t) => {
  const tree = buildTree(NOTES);
  t.deepEqual(
    tree.map((node) => node.note.id),
    ['a', 'orphan', 'b'],
  );
  t.deepEqual(
    tree[0]!.children.map((node) => node.note.id),
    ['a1', 'a2'],
  );
  t.is(tree[0]!.children[0]!.children[0]!.note.id, 'a1x');
});

test('a note is not dropped onto itself or below itself', (t) => {
  t.false(canDrop(NOTES, 'a', 'a'));
  t.false(canDrop(NOTES, 'a', 'a1x'));
  t.true(canDrop(NOTES, 'a1x', 'a'));
  t.true(canDrop(NOTES, 'b', 'a2'));
});

test('the drop position follows the pointer', (t) => {
  t.is(dropPosition(2, 32), 'before');
  t.is(dropPosition(16, 32), 'inside');
  t.is(dropPosition(30, 32), 'after');
});

test('selecting a note selects its children, and unselecting unselects them', (t) => {
  const on = toggleSelection(NOTES, new Set(), 'a', true);
  t.deepEqual([...on].sort(), ['a', 'a1', 'a1x', 'a2']);
  t.deepEqual([...toggleSelection(NOTES, on, 'a1', false)].sort(), ['a', 'a2']);
});

test('the path up to a note, and names', (t) => {
  t.deepEqual(ancestors(NOTES, 'a1x'), ['a1', 'a']);
  t.is(cleanName('  读书  '), '读书');
  t.is(cleanName('   '), null);
});

test('a pending delete hides the note and everything below it', (t) => {
  t.deepEqual([...hiddenIds(NOTES, new Set(['a1']))].sort(), ['a1', 'a1x']);
  t.deepEqual([...hiddenIds(NOTES, new Set())], []);
});

test('arrow keys walk the rows a reader sees: children of expanded notes only', (t) => {
  const tree = buildTree(NOTES);
  t.deepEqual(
    visibleRows(tree, new Set()).map((row) => row.id),
    ['a', 'orphan', 'b'],
  );
  t.deepEqual(
    visibleRows(tree, new Set(['a', 'a1'])).map((row) => row.id),
    ['a', 'a1', 'a1x', 'a2', 'orphan', 'b'],
  );
  t.like(visibleRows(tree, new Set(['a']))[1], { id: 'a1', parentId: 'a', hasChildren: true });
});

test('a shared note makes itself and everything below it public through its link; the nearest link names it', (t) => {
  const notes = [note('top', null, 1, true), note('child', 'top', 1), note('grand', 'child', 1, true), note('deep', 'grand', 1), note('other', null, 2)];
  const through = sharedThrough(buildTree(notes));
  t.deepEqual(
    Object.fromEntries([...through].map(([id, sharer]) => [id, sharer.id])),
    { top: 'top', child: 'top', grand: 'grand', deep: 'grand' },
    'a note with a link of its own is named by it; below it, the nearest link',
  );
  t.false(through.has('other'));
});

test('Alt+arrows move a note past its neighbour, into the note above it, or out beside its parent; at an edge nowhere', (t) => {
  const tree = buildTree(NOTES);
  t.deepEqual(keyboardMove(tree, 'a2', 'ArrowUp'), { targetId: 'a1', position: 'before' });
  t.is(keyboardMove(tree, 'a1', 'ArrowUp'), null, 'already first among its siblings');
  t.deepEqual(keyboardMove(tree, 'a1', 'ArrowDown'), { targetId: 'a2', position: 'after' });
  t.is(keyboardMove(tree, 'b', 'ArrowDown'), null);
  t.deepEqual(keyboardMove(tree, 'a2', 'ArrowRight'), { targetId: 'a1', position: 'inside' });
  t.is(keyboardMove(tree, 'a', 'ArrowRight'), null, 'nothing above it to go into');
  t.deepEqual(keyboardMove(tree, 'a1x', 'ArrowLeft'), { targetId: 'a1', position: 'after' });
  t.is(keyboardMove(tree, 'b', 'ArrowLeft'), null, 'already at the root');
});

test('a search shows the notes whose name holds the words, with the notes above them; nothing typed is the whole tree', (t) => {
  const named = [note('a', null, 1), { ...note('a1', 'a', 1), name: 'Battery Notes' }, { ...note('a1x', 'a1', 1), name: 'cells' }, { ...note('b', null, 2), name: 'battery costs' }];
  t.deepEqual([...searchNotes(named, ' BATTERY ')!].sort(), ['a', 'a1', 'b']);
  t.deepEqual([...searchNotes(named, 'cells')!].sort(), ['a', 'a1', 'a1x']);
  t.is(searchNotes(named, 'nothing like it')!.size, 0);
  t.is(searchNotes(named, '  '), null);
});

import test from 'ava';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import type { NoteSummary } from './api.ts';
import { hiddenNotes, notesMachine, UNDO_WINDOW_MS, type NoteWrite, type NoteWriteResult } from './notesMachine.ts';

const note = (id: string, parent_id: string | null = null, order = 0): NoteSummary => ({ id, name: `笔记 ${id}`, parent_id, order, created_at: '2025-01-02T03:04:05Z', updated_at: '2025-01-02T03:04:05Z', shared: false });

const flush = async () => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
};

interface Call {
  write: NoteWrite;
  resolve(result: NoteWriteResult): void;
  reject(error: Error): void;
}

/** A notes actor over a tree kept here (as the query cache would), whose server calls wait for the test. */
function start(initial: NoteSummary[], input: { currentId?: string | null; selected?: string[]; expanded?: string[] } = {}) {
  const clock = new SimulatedClock();
  let tree = initial;
  const calls: Call[] = [];
  const machine = notesMachine.provide({
    actors: {
      write: fromPromise<NoteWriteResult, NoteWrite>(({ input: write }) => new Promise((resolve, reject) => calls.push({ write, resolve, reject }))),
    },
    actions: { updateTree: (_, { update }) => void (tree = update ? update(tree) : tree) },
  });
  const actor = createActor(machine, { clock, input: { currentId: input.currentId ?? null, selected: input.selected ?? [], expanded: input.expanded ?? [] } }).start();
  actor.send({ type: 'notes.loaded', notes: tree });
  const shown = () => {
    const hidden = hiddenNotes(tree, actor.getSnapshot().context);
    return tree.filter((entry) => !hidden.has(entry.id)).map((entry) => entry.id);
  };
  return { actor, clock, calls, tree: () => tree, shown };
}

test('the first tree opens the way to the remembered note; an unknown one falls to the first root', (t) => {
  const { actor } = start([note('a'), note('b', 'a'), note('c', 'b')], { currentId: 'c', selected: ['b', 'gone'] });
  t.true(actor.getSnapshot().matches({ tree: 'shown' }));
  t.is(actor.getSnapshot().context.currentId, 'c');
  t.deepEqual([...actor.getSnapshot().context.expanded].sort(), ['a', 'b']);
  t.deepEqual([...actor.getSnapshot().context.selected], ['b'], 'selections of notes that no longer exist are dropped');
  t.is(start([note('a'), note('b')], { currentId: 'gone' }).actor.getSnapshot().context.currentId, 'a');
});

test('the folders the user had open before the page loaded are open again', (t) => {
  const { actor } = start([note('a'), note('b', 'a'), note('c')], { currentId: 'c', expanded: ['a'] });
  t.deepEqual([...actor.getSnapshot().context.expanded], ['a']);
});

test('delete, then undo within the toast time: the note is back and the server never hears of it', (t) => {
  const { actor, clock, calls, shown } = start([note('a'), note('b', 'a'), note('c')], { currentId: 'b' });
  actor.send({ type: 'notes.delete', id: 'a', notes: [note('a'), note('b', 'a'), note('c')] });
  t.deepEqual(shown(), ['c'], 'hidden with what is below it');
  t.is(actor.getSnapshot().context.currentId, 'c', 'the editor moves off the hidden note');
  clock.increment(UNDO_WINDOW_MS - 1);
  actor.send({ type: 'notes.undo', id: 'a' });
  t.deepEqual(shown(), ['a', 'b', 'c']);
  clock.increment(UNDO_WINDOW_MS);
  t.true(actor.getSnapshot().matches({ server: 'idle' }));
  t.is(calls.length, 0);
});

test('delete, the undo window passes: the server delete is invoked, then the tree forgets the note', async (t) => {
  const { actor, clock, calls, tree, shown } = start([note('a'), note('b', 'a'), note('c')], { selected: ['b', 'c'] });
  actor.send({ type: 'notes.delete', id: 'a', notes: tree() });
  clock.increment(UNDO_WINDOW_MS - 1);
  t.true(actor.getSnapshot().matches({ server: 'idle' }));
  clock.increment(1);
  t.true(actor.getSnapshot().matches({ server: 'writing' }));
  t.deepEqual(calls[0]?.write, { kind: 'remove', id: 'a' });
  actor.send({ type: 'notes.undo', id: 'a' });
  t.deepEqual(shown(), ['c'], 'too late to undo once sent');
  calls[0]!.resolve({ kind: 'remove', deleted: ['a', 'b'] });
  await flush();
  t.true(actor.getSnapshot().matches({ server: 'idle' }));
  t.deepEqual(tree().map((entry) => entry.id), ['c']);
  t.deepEqual(actor.getSnapshot().context.pendingDelete, {});
  t.deepEqual([...actor.getSnapshot().context.selected], ['c']);
});

test('a failed server delete brings the note back with the error', async (t) => {
  const { actor, clock, calls, tree, shown } = start([note('a'), note('c')]);
  actor.send({ type: 'notes.delete', id: 'a', notes: tree() });
  clock.increment(UNDO_WINDOW_MS);
  calls[0]!.reject(new Error('笔记删除失败'));
  await flush();
  t.true(actor.getSnapshot().matches({ server: 'idle' }));
  t.deepEqual(shown(), ['a', 'c']);
  t.is(actor.getSnapshot().context.error, '笔记删除失败');
  actor.send({ type: 'notes.errorDismissed' });
  t.is(actor.getSnapshot().context.error, null);
});

test('the window stops while the toast is held and starts again in full; closing the toast sends at once', async (t) => {
  const { actor, clock, calls, tree } = start([note('a'), note('b')]);
  actor.send({ type: 'notes.delete', id: 'a', notes: tree() });
  clock.increment(UNDO_WINDOW_MS - 1);
  actor.send({ type: 'notes.deleteHold', id: 'a' });
  clock.increment(UNDO_WINDOW_MS * 3);
  t.is(calls.length, 0, 'nothing sent while the user reads the toast');
  actor.send({ type: 'notes.deleteResume', id: 'a' });
  clock.increment(UNDO_WINDOW_MS - 1);
  t.is(calls.length, 0);
  clock.increment(1);
  t.is(calls.length, 1);
  actor.send({ type: 'notes.delete', id: 'b', notes: tree() });
  actor.send({ type: 'notes.deleteNow', id: 'b' });
  t.is(calls.length, 1, 'writes go one at a time');
  calls[0]!.resolve({ kind: 'remove', deleted: ['a'] });
  await flush();
  t.deepEqual(calls[1]?.write, { kind: 'remove', id: 'b' });
  clock.increment(UNDO_WINDOW_MS);
  t.is(calls.length, 2, 'the cancelled timer does not send it twice');
});

test('a rename shows at once and is taken back when the server refuses it', async (t) => {
  const { actor, calls, tree } = start([note('a')]);
  actor.send({ type: 'notes.renameStart', id: 'a' });
  t.is(actor.getSnapshot().context.editingId, 'a');
  actor.send({ type: 'notes.rename', id: 'a', name: '储能调研', before: '笔记 a' });
  t.is(actor.getSnapshot().context.editingId, null);
  t.is(tree()[0]?.name, '储能调研');
  t.true(actor.getSnapshot().matches({ server: 'writing' }));
  calls[0]!.reject(new Error('名称无效'));
  await flush();
  t.is(tree()[0]?.name, '笔记 a');
  t.is(actor.getSnapshot().context.error, '名称无效');
});

test('a new child note opens for renaming with its parents expanded; a move inside expands the target', async (t) => {
  const { actor, calls, tree } = start([note('a'), note('b', 'a')]);
  actor.send({ type: 'notes.create', name: '新笔记', parentId: 'b', notes: tree() });
  t.deepEqual(calls[0]?.write, { kind: 'create', name: '新笔记', parentId: 'b', reveal: ['b', 'a'] });
  calls[0]!.resolve({ kind: 'create', note: note('n', 'b') });
  await flush();
  const { context } = actor.getSnapshot();
  t.is(context.currentId, 'n');
  t.is(context.editingId, 'n');
  t.true(context.expanded.has('a') && context.expanded.has('b'));
  t.deepEqual(tree().map((entry) => entry.id), ['a', 'b', 'n']);
  actor.send({ type: 'notes.toggleExpanded', id: 'a' });
  t.false(actor.getSnapshot().context.expanded.has('a'));
  actor.send({ type: 'notes.move', id: 'n', targetId: 'a', position: 'inside' });
  calls[1]!.resolve({ kind: 'move', notes: [note('a'), note('b', 'a'), note('n', 'a', 1)] });
  await flush();
  t.true(actor.getSnapshot().context.expanded.has('a'));
  t.is(tree()[2]?.parent_id, 'a');
});

test('selecting a parent takes its children; leaving selection clears it unless an extraction uses it', (t) => {
  const notes = [note('a'), note('b', 'a'), note('c')];
  const { actor } = start(notes);
  actor.send({ type: 'notes.selectStart', notes });
  t.true(actor.getSnapshot().matches({ selection: 'selecting' }));
  actor.send({ type: 'notes.toggleSelected', id: 'a', on: true, notes });
  t.deepEqual([...actor.getSnapshot().context.selected].sort(), ['a', 'b']);
  actor.send({ type: 'notes.selectEnd', keep: true });
  t.true(actor.getSnapshot().matches({ selection: 'browsing' }));
  t.is(actor.getSnapshot().context.selected.size, 2);
  actor.send({ type: 'notes.selectStart', notes });
  actor.send({ type: 'notes.selectEnd', keep: false });
  t.is(actor.getSnapshot().context.selected.size, 0);
});

test('an extraction that held the selection lets it go when it ends, unless the user is selecting again', (t) => {
  const notes = [note('a'), note('b', 'a'), note('c')];
  const { actor } = start(notes);
  actor.send({ type: 'notes.selectStart', notes });
  actor.send({ type: 'notes.toggleSelected', id: 'a', on: true, notes });
  actor.send({ type: 'notes.selectEnd', keep: true });
  actor.send({ type: 'notes.extractionEnded' });
  t.is(actor.getSnapshot().context.selected.size, 0, 'nothing holds it any more');

  actor.send({ type: 'notes.selectStart', notes });
  actor.send({ type: 'notes.toggleSelected', id: 'c', on: true, notes });
  actor.send({ type: 'notes.extractionEnded' });
  t.deepEqual([...actor.getSnapshot().context.selected], ['c'], 'a selection on screen stays');
});

test('picks kept from before are shown when selecting starts, even below a collapsed note', (t) => {
  const notes = [note('a'), note('b', 'a'), note('deep', 'b'), note('c')];
  const { actor } = start(notes, { selected: ['deep'] });
  t.false(actor.getSnapshot().context.expanded.has('b'));
  actor.send({ type: 'notes.selectStart', notes });
  t.true(['a', 'b'].every((id) => actor.getSnapshot().context.expanded.has(id)), 'the way to it is open');
});

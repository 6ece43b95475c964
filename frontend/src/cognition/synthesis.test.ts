import test from 'ava';
import { canTick, MAX_SYNTHESIS, synthesisReadiness, toggleSelection } from './synthesis.ts';

const items = ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => ({ id }));

test('ticking adds in order, ticking again removes', (t) => {
  let selected: readonly { id: string }[] = [];
  selected = toggleSelection(selected, items[0]!).selected;
  selected = toggleSelection(selected, items[1]!).selected;
  t.deepEqual(selected.map((item) => item.id), ['a', 'b']);
  const removed = toggleSelection(selected, { id: 'a' });
  t.false(removed.refused);
  t.deepEqual(removed.selected.map((item) => item.id), ['b']);
});

test('a sixth cognition is refused and the five stay as they were', (t) => {
  const five = items.slice(0, MAX_SYNTHESIS);
  const outcome = toggleSelection(five, items[5]!);
  t.true(outcome.refused);
  t.is(outcome.selected, five);
  t.false(canTick(five, 'f'));
  t.true(canTick(five, 'a'), 'a chosen one can always be unticked');
  t.false(toggleSelection(five, { id: 'c' }).refused);
});

test('synthesis needs 2 to 5', (t) => {
  t.deepEqual(synthesisReadiness(0), { kind: 'empty' });
  t.deepEqual(synthesisReadiness(1), { kind: 'tooFew', missing: 1 });
  t.deepEqual(synthesisReadiness(2), { kind: 'ready', count: 2 });
  t.deepEqual(synthesisReadiness(5), { kind: 'ready', count: 5 });
  t.deepEqual(synthesisReadiness(6), { kind: 'tooMany', extra: 1 });
});

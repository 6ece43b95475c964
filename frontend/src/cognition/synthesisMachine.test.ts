import test from 'ava';
import { createActor } from 'xstate';
import type { CognitionSummary } from './api.ts';
import { MAX_SYNTHESIS } from './synthesis.ts';
import { synthesisMachine } from './synthesisMachine.ts';

const card = (id: string): CognitionSummary => ({
  id,
  title: `认知 ${id}`,
  summary: '',
  tags: [],
  source_kind: 'notes',
  public: true,
  owner: 'lin',
  mine: false,
  view_count: 0,
  created_at: '2025-01-02T03:04:05Z',
  updated_at: '2025-01-02T03:04:05Z',
});

const picked = (actor: ReturnType<typeof start>) => actor.getSnapshot().context.selected.map((item) => item.id);
const start = () => createActor(synthesisMachine).start();

test('the toggle turns synthesis on; picks come and go in order', (t) => {
  const actor = start();
  t.true(actor.getSnapshot().matches('off'));
  actor.send({ type: 'synthesis.toggle' });
  t.true(actor.getSnapshot().matches('on'));
  actor.send({ type: 'synthesis.pick', item: card('a') });
  actor.send({ type: 'synthesis.pick', item: card('b') });
  t.deepEqual(picked(actor), ['a', 'b']);
  actor.send({ type: 'synthesis.pick', item: card('a') });
  t.deepEqual(picked(actor), ['b'], 'picking again removes');
  actor.send({ type: 'synthesis.clear' });
  t.deepEqual(picked(actor), []);
  t.true(actor.getSnapshot().matches('on'), 'clearing keeps the mode');
});

test('a sixth pick is refused and the five stay', (t) => {
  const actor = start();
  actor.send({ type: 'synthesis.toggle' });
  for (const id of ['a', 'b', 'c', 'd', 'e']) actor.send({ type: 'synthesis.pick', item: card(id) });
  const before = actor.getSnapshot().context.selected;
  t.is(before.length, MAX_SYNTHESIS);
  actor.send({ type: 'synthesis.pick', item: card('f') });
  t.is(actor.getSnapshot().context.selected, before);
});

test('cancelling or leaving the platform forgets the picks', (t) => {
  const actor = start();
  actor.send({ type: 'synthesis.toggle' });
  actor.send({ type: 'synthesis.pick', item: card('a') });
  actor.send({ type: 'synthesis.toggle' });
  t.true(actor.getSnapshot().matches('off'));
  t.deepEqual(picked(actor), []);
  actor.send({ type: 'synthesis.toggle' });
  actor.send({ type: 'synthesis.pick', item: card('b') });
  actor.send({ type: 'synthesis.stop' });
  t.true(actor.getSnapshot().matches('off'));
  t.deepEqual(picked(actor), []);
});

test('nothing is picked while the mode is off', (t) => {
  const actor = start();
  actor.send({ type: 'synthesis.pick', item: card('a') });
  t.true(actor.getSnapshot().matches('off'));
  t.deepEqual(picked(actor), []);
});

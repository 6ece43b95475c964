import test from 'ava';
import { filterCollections, withCollection, withoutItem } from './collections.ts';

const collections = [
  { name: '储能研究', description: '钠电池与政策' },
  { name: 'Solid State', description: 'battery reading list' },
  { name: '杂项', description: '' },
];

test('an empty query keeps every collection', (t) => {
  t.deepEqual(filterCollections(collections, '  '), collections);
});

test('every word must match the name or description, case aside', (t) => {
  t.deepEqual(filterCollections(collections, '钠电池').map((c) => c.name), ['储能研究']);
  t.deepEqual(filterCollections(collections, 'solid BATTERY').map((c) => c.name), ['Solid State']);
  t.deepEqual(filterCollections(collections, 'solid 钠'), []);
});

test('a saved collection goes first and replaces its older self', (t) => {
  const list = [
    { id: 'a', name: 'A' },
    { id: 'b', name: 'B' },
  ];
  t.deepEqual(withCollection(list, { id: 'b', name: 'B2' }), [
    { id: 'b', name: 'B2' },
    { id: 'a', name: 'A' },
  ]);
  t.deepEqual(withCollection(list, { id: 'c', name: 'C' }).map((c) => c.id), ['c', 'a', 'b']);
});

test('taking a cognition out keeps the other cards and takes the server count', (t) => {
  const detail = { id: 'x', count: 2, items: [{ id: '1' }, { id: '2' }] };
  t.deepEqual(withoutItem(detail, { count: 1 }, '1'), { id: 'x', count: 1, items: [{ id: '2' }] });
});

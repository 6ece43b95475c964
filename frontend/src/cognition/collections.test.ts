import test from 'ava';
import { filterCollections } from './collections.ts';

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

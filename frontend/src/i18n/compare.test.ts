import test from 'ava';
import { compareLanguages, filterRows, flatten } from './compare.ts';
import { resources } from './resources.ts';

test('every key of every namespace has a text in both zh and en', (t) => {
  const { namespaces, rows, missing } = compareLanguages(resources);
  t.deepEqual(namespaces, Object.keys(resources.zh).sort());
  t.true(rows.length > 1000, 'the refusals and every feature namespace are counted');
  const where = (list: typeof rows) => list.map((row) => `${row.namespace}:${row.key}`);
  t.deepEqual(where(missing.en), [], 'keys with no English text');
  t.deepEqual(where(missing.zh), [], 'keys with no Chinese text');
});

test('a key absent or empty in one language, or a namespace only one language has, is reported missing there', (t) => {
  const { namespaces, missing } = compareLanguages({
    zh: { a: { title: '标题', nested: { only: '只有中文' } }, zhOnly: { x: '甲' } },
    en: { a: { title: 'Title', nested: { only: ' ' }, extra: 'Only English' } },
  });
  t.deepEqual(namespaces, ['a', 'zhOnly']);
  t.deepEqual(
    missing.en.map((row) => `${row.namespace}:${row.key}`),
    ['a:nested.only', 'zhOnly:x'],
  );
  t.deepEqual(missing.zh, [{ namespace: 'a', key: 'extra', zh: null, en: 'Only English' }]);
});

test('nested messages flatten to dotted keys', (t) => {
  t.deepEqual([...flatten({ a: { b: { c: '1' } }, d: '2' })], [
    ['a.b.c', '1'],
    ['d', '2'],
  ]);
});

test('the filter keeps a namespace, the missing rows, and rows whose key or either text holds the query', (t) => {
  const rows = [
    { namespace: 'notes', key: 'save', zh: '保存', en: 'Save' },
    { namespace: 'notes', key: 'share', zh: '分享', en: null },
    { namespace: 'cli', key: 'save', zh: '保存轨迹', en: 'Save trajectory' },
  ];
  const keys = (filter: Parameters<typeof filterRows>[1]) => filterRows(rows, filter).map((row) => `${row.namespace}:${row.key}`);
  t.deepEqual(keys({ namespace: '', query: '', missingOnly: false }), ['notes:save', 'notes:share', 'cli:save']);
  t.deepEqual(keys({ namespace: 'notes', query: '', missingOnly: false }), ['notes:save', 'notes:share']);
  t.deepEqual(keys({ namespace: '', query: 'TRAJ', missingOnly: false }), ['cli:save']);
  t.deepEqual(keys({ namespace: '', query: '保存', missingOnly: false }), ['notes:save', 'cli:save']);
  t.deepEqual(keys({ namespace: '', query: 'cli:', missingOnly: false }), ['cli:save']);
  t.deepEqual(keys({ namespace: '', query: '', missingOnly: true }), ['notes:share']);
});

import test from 'ava';
import { MAX_QUERY, normaliseQuery, SEARCH_DEBOUNCE_MS, searchStep } from './search.ts';

const onPlatform = { applied: '', live: true };

test('typing on the platform searches after a pause', (t) => {
  t.deepEqual(searchStep({ kind: 'typed', text: '钠电池' }, onPlatform), { kind: 'wait', query: '钠电池', ms: SEARCH_DEBOUNCE_MS });
});

test('typing back to the shown query, or only spaces, searches nothing', (t) => {
  t.deepEqual(searchStep({ kind: 'typed', text: '钠电池 ' }, { applied: '钠电池', live: true }), { kind: 'none' });
  t.deepEqual(searchStep({ kind: 'typed', text: '   ' }, onPlatform), { kind: 'none' });
});

test('Enter searches at once, but not the same query twice', (t) => {
  t.deepEqual(searchStep({ kind: 'enter', text: ' 储能 ' }, onPlatform), { kind: 'now', query: '储能' });
  t.deepEqual(searchStep({ kind: 'enter', text: '储能' }, { applied: '储能', live: true }), { kind: 'none' });
});

test('away from the platform only Enter searches, even for the same words', (t) => {
  const away = { applied: '储能', live: false };
  t.deepEqual(searchStep({ kind: 'typed', text: '钠' }, away), { kind: 'none' });
  t.deepEqual(searchStep({ kind: 'enter', text: '储能' }, away), { kind: 'now', query: '储能' });
});

test('clearing shows everything again at once', (t) => {
  t.deepEqual(searchStep({ kind: 'cleared' }, { applied: '储能', live: true }), { kind: 'now', query: '' });
  t.deepEqual(searchStep({ kind: 'cleared' }, onPlatform), { kind: 'none' });
  t.deepEqual(searchStep({ kind: 'cleared' }, { applied: '', live: false }), { kind: 'none' }, 'clearing elsewhere does not leave the page');
});

test('queries are trimmed, inner spaces collapsed and cut to the server limit', (t) => {
  t.is(normaliseQuery('  solid   state\tbattery '), 'solid state battery');
  t.is(normaliseQuery('字'.repeat(MAX_QUERY + 20)).length, MAX_QUERY);
});

import test from 'ava';
import { matchScore } from './search.ts';

const doc = { title: '钠离子电池的低温性能', body: '储能电站 钠离子电池在零下二十度仍能放电 sodium-ion battery' };

test('every word must be found; Chinese phrases match by most of their pieces', (t) => {
  t.true(matchScore('钠离子电池低温', doc) > 0);
  t.true(matchScore('储能 Sodium', doc) > 0);
  t.is(matchScore('储能 氢能', doc), 0);
  t.is(matchScore('固态电解质', doc), 0);
  t.is(matchScore('   ', doc), 0);
});

test('a match in the title ranks above one in the body only', (t) => {
  t.true(matchScore('低温', doc) > matchScore('储能', doc));
});

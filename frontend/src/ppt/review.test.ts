import test from 'ava';
import { excerpt, refreshWhile, scoreTone } from './review.ts';

test('scores take the rating bands’ colours', (t) => {
  t.deepEqual([95, 80, 79, 60, 59, 0].map(scoreTone), ['good', 'good', 'fair', 'fair', 'poor', 'poor']);
});

test('a card shows the first paragraphs and counts the rest', (t) => {
  t.deepEqual(excerpt(['a', 'b', 'c', 'd', 'e', 'f'], 4), { shown: ['a', 'b', 'c', 'd'], hidden: 2 });
  t.deepEqual(excerpt([], 4), { shown: [], hidden: 0 });
});

test('a review is re-read only while it may still change', (t) => {
  t.truthy(refreshWhile('uploaded'));
  t.truthy(refreshWhile('reviewing'));
  t.false(refreshWhile('completed'));
  t.false(refreshWhile('failed'));
  t.false(refreshWhile(undefined));
});

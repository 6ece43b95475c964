import test from 'ava';
import { readDate, relativeTime } from './relativeTime.ts';

const now = new Date('2026-11-23T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

test('under a minute is just now, including clocks a little ahead', (t) => {
  t.deepEqual(relativeTime(ago(0), now), { kind: 'justNow' });
  t.deepEqual(relativeTime(ago(59_999), now), { kind: 'justNow' });
  t.deepEqual(relativeTime(ago(-5_000), now), { kind: 'justNow' });
});

test('then whole minutes, then whole hours', (t) => {
  t.deepEqual(relativeTime(ago(60_000), now), { kind: 'minutes', count: 1 });
  t.deepEqual(relativeTime(ago(59 * 60_000 + 59_000), now), { kind: 'minutes', count: 59 });
  t.deepEqual(relativeTime(ago(60 * 60_000), now), { kind: 'hours', count: 1 });
  t.deepEqual(relativeTime(ago(23 * 3_600_000 + 3_599_000), now), { kind: 'hours', count: 23 });
});

test('a day or more shows the date itself', (t) => {
  const value = ago(24 * 3_600_000);
  t.deepEqual(relativeTime(value, now), { kind: 'date', date: new Date(value) });
});

test('missing dates are unknown, unreadable ones invalid', (t) => {
  t.deepEqual(relativeTime(null, now), { kind: 'unknown' });
  t.deepEqual(relativeTime(undefined, now), { kind: 'unknown' });
  t.deepEqual(relativeTime('  ', now), { kind: 'unknown' });
  t.deepEqual(relativeTime('yesterday-ish', now), { kind: 'invalid' });
});

test('dates: missing is unknown, unreadable is invalid', (t) => {
  t.deepEqual(readDate(undefined), { kind: 'unknown' });
  t.deepEqual(readDate(''), { kind: 'unknown' });
  t.deepEqual(readDate('not a date'), { kind: 'invalid' });
  const read = readDate('2025-03-01T00:00:00Z');
  t.is(read.kind, 'date');
});

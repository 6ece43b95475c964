import test from 'ava';
import { barLayout, caughtUp, dailyBars, fromLocalInput, niceCeiling, pageInfo, parseNumber, restarted, toggle, togglePage, toLocalInput } from './model.ts';

test('paging', (t) => {
  t.deepEqual(pageInfo(0, 0, 10), { page: 1, pages: 1, hasPrev: false, hasNext: false });
  t.deepEqual(pageInfo(25, 10, 10), { page: 2, pages: 3, hasPrev: true, hasNext: true });
  t.deepEqual(pageInfo(25, 20, 10), { page: 3, pages: 3, hasPrev: true, hasNext: false });
});

test('axis ends on 1, 2 or 5 × 10ⁿ', (t) => {
  t.is(niceCeiling(0), 1);
  t.is(niceCeiling(7), 10);
  t.is(niceCeiling(13), 20);
  t.is(niceCeiling(41), 50);
  t.is(niceCeiling(100), 100);
  t.is(niceCeiling(1234), 2000);
});

test('bars share the width and scale to the axis', (t) => {
  const { bars, max, ticks } = barLayout(
    [
      { label: 'a', value: 50 },
      { label: 'b', value: 100 },
    ],
    200,
    100,
    0.5,
  );
  t.is(max, 100);
  t.deepEqual(ticks, [0, 25, 50, 75, 100]);
  t.deepEqual(bars[0], { label: 'a', value: 50, x: 25, y: 50, width: 50, height: 50 });
  t.deepEqual(bars[1], { label: 'b', value: 100, x: 125, y: 0, width: 50, height: 100 });
  t.deepEqual(barLayout([], 200, 100).bars, []);
});

test('datetime-local round trip; blank is no expiry', (t) => {
  const iso = new Date(2030, 0, 2, 3, 4).toISOString();
  t.is(toLocalInput(iso), '2030-01-02T03:04');
  t.is(fromLocalInput('2030-01-02T03:04'), iso);
  t.is(fromLocalInput(''), null);
  t.is(toLocalInput(null), '');
  t.is(toLocalInput('nope'), '');
});

test('numbers from fields', (t) => {
  t.is(parseNumber('250'), 250);
  t.is(parseNumber(' 1.5 '), 1.5);
  t.is(parseNumber(''), null);
  t.is(parseNumber('abc'), null);
});

test('selection toggles one id or a whole page', (t) => {
  t.deepEqual([...toggle(new Set(['a']), 'b')], ['a', 'b']);
  t.deepEqual([...toggle(new Set(['a']), 'a')], []);
  t.deepEqual([...togglePage(new Set(['x']), ['a', 'b'])].sort(), ['a', 'b', 'x']);
  t.deepEqual([...togglePage(new Set(['a', 'b', 'x']), ['a', 'b'])], ['x']);
});

test('a rebuild is over once its checkpoint reaches the head, not before and not for an unknown name', (t) => {
  const list = { head: 10, projections: [{ name: 'users', checkpoint: 4 }, { name: 'chats', checkpoint: 10 }] };
  t.false(caughtUp(list, 'users'));
  t.true(caughtUp(list, 'chats'));
  t.false(caughtUp(list, 'missing'));
  t.false(caughtUp(undefined, 'chats'));
});

test('a started rebuild shows its read model back at the server checkpoint, so it is not over at once', (t) => {
  const list = { head: 10, projections: [{ name: 'users', checkpoint: 10 }, { name: 'chats', checkpoint: 10 }] };
  const after = restarted(list, 'users', 0, 12);
  t.deepEqual(after, { head: 12, projections: [{ name: 'users', checkpoint: 0 }, { name: 'chats', checkpoint: 10 }] });
  t.false(caughtUp(after, 'users'));
});

test('daily bars cover every day up to today, days without usage at 0, across a month end', (t) => {
  const bars = dailyBars([{ day: '2026-11-02', total_tokens: 626 }, { day: '2026-10-30', total_tokens: 10 }], '2026-11-03', 5);
  t.deepEqual(bars, [
    { label: '10-30', value: 10 },
    { label: '10-31', value: 0 },
    { label: '11-01', value: 0 },
    { label: '11-02', value: 626 },
    { label: '11-03', value: 0 },
  ]);
  t.is(dailyBars([{ day: '2026-11-04', total_tokens: 1 }], '2026-11-03', 2).at(-1)?.label, '11-04', "the server's day may be ahead of the browser's");
});

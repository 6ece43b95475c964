import test from 'ava';
import { groupHistory } from './history.ts';

const entry = (version: number, steps: number, user: string, at: string) => ({ version, steps, user_id: user, name: user, at: `2026-11-24T09:${at}.000Z` });

test("one member's batches close together are one edit; another member or a pause starts the next", (t) => {
  const groups = groupHistory([entry(0, 1, 'a', '00:00'), entry(1, 2, 'a', '00:05'), entry(3, 1, 'b', '00:06'), entry(4, 1, 'a', '00:07'), entry(5, 1, 'a', '03:00')]);
  t.deepEqual(
    groups.map(({ from, to, user_id, steps }) => [from, to, user_id, steps]),
    [
      [0, 3, 'a', 3],
      [3, 4, 'b', 1],
      [4, 5, 'a', 1],
      [5, 6, 'a', 1],
    ],
  );
  t.is(groups[0]!.at, '2026-11-24T09:00:05.000Z');
  t.deepEqual(groupHistory([]), []);
});

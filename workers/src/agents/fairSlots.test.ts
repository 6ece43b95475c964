import test from 'ava';
import { FairSlots } from './fairSlots.ts';

/** Tasks that end only when the test says so, recording the order they started in. */
function tasks() {
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const task = (name: string) => () =>
    new Promise<void>((resolve) => {
      started.push(name);
      finish.set(name, resolve);
    });
  // Lets what was handed a slot start before the test looks or ends it.
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  const end = async (name: string) => {
    await settle();
    finish.get(name)!();
    await settle();
  };
  return { started, task, end };
}

test('a user who arrives after another queued a burst gets the next freed slot, not the end of the burst', async (t) => {
  const slots = new FairSlots(2);
  const { started, task, end } = tasks();
  const runs = ['a1', 'a2', 'a3', 'a4', 'a5'].map((name) => slots.run('alice', task(name)));
  runs.push(slots.run('bob', task('b1')), slots.run('bob', task('b2')));
  await end('a1');
  t.deepEqual(started, ['a1', 'a2', 'b1'], 'bob holds nothing, alice one: the freed slot is bob’s');
  await end('a2');
  t.deepEqual(started, ['a1', 'a2', 'b1', 'a3'], 'each holds one now: the longest waiting owner, alice, is next');
  await end('b1');
  t.deepEqual(started, ['a1', 'a2', 'b1', 'a3', 'b2']);
  for (const name of ['a3', 'b2', 'a4', 'a5']) await end(name);
  await Promise.all(runs);
  t.is(slots.active, 0);
});

test('the cap holds over every owner, and a task that throws gives its slot back', async (t) => {
  const slots = new FairSlots(3);
  let open = 0;
  let most = 0;
  const work = (fail: boolean) => async () => {
    most = Math.max(most, ++open);
    await new Promise((resolve) => setImmediate(resolve));
    open--;
    if (fail) throw new Error('refused');
  };
  const outcomes = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => slots.run(`user-${i % 4}`, work(i % 5 === 0))));
  t.is(most, 3);
  t.is(outcomes.filter((outcome) => outcome.status === 'rejected').length, 8);
  t.is(slots.active, 0);
});

test('a capacity below one is refused', (t) => {
  t.throws(() => new FairSlots(0), { instanceOf: RangeError });
});

import test from 'ava';
import fc from 'fast-check';
import type { ModelDelta } from './port.ts';
import { stopAt, type StopOutcome } from './stop.ts';

const usage: ModelDelta = { type: 'usage', promptTokens: 3, completionTokens: 9, model: 'm', estimated: false };

async function* deltas(pieces: string[]): AsyncGenerator<ModelDelta> {
  for (const text of pieces) yield { type: 'text', text };
  yield usage;
}

async function run(pieces: string[], stops: string[]) {
  const outcome: StopOutcome = { stopped: false };
  const out: ModelDelta[] = [];
  for await (const delta of stopAt(deltas(pieces), stops, outcome)) out.push(delta);
  const text = out.flatMap((delta) => (delta.type === 'text' ? [delta.text] : [])).join('');
  return { text, outcome, last: out.at(-1) };
}

test('the text ends before the first stop sequence, even one split across pieces, and the usage still comes last', async (t) => {
  const split = await run(['第一行\n第', '二行EN', 'D之后'], ['END']);
  t.is(split.text, '第一行\n第二行');
  t.true(split.outcome.stopped);
  t.deepEqual(split.last, usage);

  const earliest = await run(['a;b.c'], ['.', ';']);
  t.is(earliest.text, 'a');
});

test('a prefix of a stop sequence that is not followed through is passed on', async (t) => {
  const result = await run(['ab', 'E', 'Nx', 'E'], ['END']);
  t.is(result.text, 'abENxE');
  t.false(result.outcome.stopped);
});

test('a shorter stop found inside a longer one that began earlier waits for the longer one (fast-check found it)', async (t) => {
  const longer = await run(['c', 'a', 'a'], ['caa', 'a']);
  t.is(longer.text, '');
  t.true(longer.outcome.stopped);
  const notLonger = await run(['c', 'a', 'b'], ['caa', 'a']);
  t.is(notLonger.text, 'c');
  t.true(notLonger.outcome.stopped);
});

test('no sequences: the stream is unchanged', async (t) => {
  t.is((await run(['x', 'y'], [])).text, 'xy');
});

test('whatever the pieces, the result is the whole text cut at its first stop', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 5 }), { maxLength: 8 }), fc.array(fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }), async (pieces, stops) => {
      const whole = pieces.join('');
      const cuts = stops.map((stop) => whole.indexOf(stop)).filter((at) => at !== -1);
      const expected = cuts.length ? whole.slice(0, Math.min(...cuts)) : whole;
      const { text, outcome } = await run(pieces, stops);
      return text === expected && outcome.stopped === cuts.length > 0;
    }),
  );
  t.pass();
});

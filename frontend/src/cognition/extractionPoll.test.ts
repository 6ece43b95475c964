import test from 'ava';
import { POLL_INTERVAL_MS, pollExtraction, type ExtractionState, type ExtractionStatus } from './extractionPoll.ts';

const status = (state: ExtractionState, cognitionId: string | null = null): ExtractionStatus => ({
  extraction_id: 'x-1',
  status: state,
  cognition_id: cognitionId,
  error: state === 'failed' ? 'boom' : null,
  created_at: '2026-11-23T00:00:00.000Z',
});

function scripted(steps: Array<ExtractionStatus | Error>) {
  let calls = 0;
  const read = async () => {
    const step = steps[Math.min(calls, steps.length - 1)]!;
    calls += 1;
    if (step instanceof Error) throw step;
    return step;
  };
  return { read, calls: () => calls };
}

test('reads until completed and reports every status on the way', async (t) => {
  const { read, calls } = scripted([status('pending'), status('running'), status('completed', 'c-1')]);
  const seen: string[] = [];
  const final = await pollExtraction(read, { intervalMs: 1, onStatus: (s) => seen.push(s.status) });
  t.is(final.cognition_id, 'c-1');
  t.deepEqual(seen, ['pending', 'running', 'completed']);
  t.is(calls(), 3);
});

test('a failed extraction ends the wait too', async (t) => {
  const { read } = scripted([status('running'), status('failed')]);
  const final = await pollExtraction(read, { intervalMs: 1 });
  t.is(final.status, 'failed');
  t.is(final.error, 'boom');
});

test('a read that fails now and then is retried', async (t) => {
  const { read } = scripted([new Error('offline'), status('running'), new Error('offline'), new Error('offline'), status('completed', 'c-2')]);
  t.is((await pollExtraction(read, { intervalMs: 1 })).cognition_id, 'c-2');
});

test('three failed reads in a row give up with the last error', async (t) => {
  const { read, calls } = scripted([new Error('one'), new Error('two'), new Error('three'), status('completed')]);
  await t.throwsAsync(pollExtraction(read, { intervalMs: 1 }), { message: 'three' });
  t.is(calls(), 3);
});

test('aborting stops the wait between reads', async (t) => {
  const { read, calls } = scripted([status('pending')]);
  const controller = new AbortController();
  const waiting = pollExtraction(read, { intervalMs: 10_000, signal: controller.signal });
  await new Promise((resolve) => setTimeout(resolve, 20));
  controller.abort(new Error('left the page'));
  await t.throwsAsync(waiting, { message: 'left the page' });
  t.is(calls(), 1);
});

// No upper bound on the time: a loaded machine runs the timer late (4.8 s seen), which says nothing of the interval.
test('the default interval is a second, and it is waited', async (t) => {
  const { read } = scripted([status('pending'), status('completed', 'c')]);
  const started = Date.now();
  await pollExtraction(read);
  const elapsed = Date.now() - started;
  t.is(POLL_INTERVAL_MS, 1000);
  t.true(elapsed >= 950, `${elapsed} ms`);
});

import test from 'ava';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import type { ExtractionRequest, ExtractionStarted } from './api.ts';
import type { ExtractionStatus } from './extractionPoll.ts';
import { extractionMachine, type ExtractionEvent, type WatchInput } from './extractionMachine.ts';

const status = (state: ExtractionStatus['status'], extra: Partial<ExtractionStatus> = {}): ExtractionStatus => ({
  extraction_id: 'x-1',
  status: state,
  cognition_id: null,
  error: null,
  created_at: '2026-11-23T00:00:00.000Z',
  ...extra,
});

/** A watch that replays a script, one step per tick, and records whether it was stopped. */
function harness(begin: (request: ExtractionRequest) => Promise<ExtractionStarted>, script: ExtractionEvent[]) {
  const requests: ExtractionRequest[] = [];
  const watched: string[] = [];
  let stopped = 0;
  const machine = extractionMachine.provide({
    actors: {
      begin: fromPromise<ExtractionStarted, ExtractionRequest>(({ input }) => {
        requests.push(input);
        return begin(input);
      }),
      watch: fromCallback<ExtractionEvent, WatchInput>(({ sendBack, input }) => {
        watched.push(input.extractionId);
        const timers = script.map((event, index) => setTimeout(() => sendBack(event), 5 * (index + 1)));
        return () => {
          stopped += 1;
          timers.forEach(clearTimeout);
        };
      }),
    },
  });
  return { actor: createActor(machine).start(), requests, watched, stopped: () => stopped };
}

const started = async (): Promise<ExtractionStarted> => ({ extraction_id: 'x-1', status: 'pending' });
const notes: ExtractionRequest = { kind: 'notes', noteIds: ['n-1', 'n-2'] };

test('a request is sent, watched through running, and completes with the cognition', async (t) => {
  const { actor, requests, watched } = harness(started, [{ type: 'extraction.status', status: status('running') }, { type: 'extraction.settled', status: status('completed', { cognition_id: 'c-9' }) }]);
  actor.send({ type: 'extraction.start', request: notes });
  t.true(actor.getSnapshot().matches('starting'));
  await waitFor(actor, (snapshot) => snapshot.matches('waiting'));
  t.is(actor.getSnapshot().context.status, 'pending');
  await waitFor(actor, (snapshot) => snapshot.context.status === 'running');
  await waitFor(actor, (snapshot) => snapshot.matches('completed'));
  t.deepEqual(requests, [notes]);
  t.deepEqual(watched, ['x-1']);
  t.is(actor.getSnapshot().context.cognitionId, 'c-9');
});

test('a failed job keeps its reason and can be retried with the same request', async (t) => {
  let attempt = 0;
  const { actor, requests } = harness(async () => {
    attempt += 1;
    return { extraction_id: `x-${attempt}`, status: 'pending' };
  }, [{ type: 'extraction.settled', status: status('failed', { error: '无法解析域名 example.com', code: 'fetch.dns_failed', params: { host: 'example.com' } }) }]);
  actor.send({ type: 'extraction.start', request: { kind: 'url', url: 'https://example.com' } });
  await waitFor(actor, (snapshot) => snapshot.matches('failed'));
  t.deepEqual(actor.getSnapshot().context.problem, { kind: 'job', message: '无法解析域名 example.com', code: 'fetch.dns_failed', params: { host: 'example.com' } }, 'the code goes with it, to word it in the reader’s language');
  actor.send({ type: 'extraction.retry' });
  t.is(actor.getSnapshot().context.problem, null);
  await waitFor(actor, (snapshot) => snapshot.matches('failed'));
  t.is(requests.length, 2);
  t.deepEqual(requests[1], { kind: 'url', url: 'https://example.com' });
});

test('a refused request fails with the field message the server gave', async (t) => {
  const refusal = Object.assign(new Error('validation'), { fieldErrors: { cognition_ids: '至少选择 2 条认知进行综合' } });
  const { actor, watched } = harness(() => Promise.reject(refusal), []);
  actor.send({ type: 'extraction.start', request: { kind: 'synthesis', cognitionIds: ['c-1'] } });
  await waitFor(actor, (snapshot) => snapshot.matches('failed'));
  t.deepEqual(actor.getSnapshot().context.problem, { kind: 'start', message: '至少选择 2 条认知进行综合' });
  t.deepEqual(watched, [], 'nothing to watch');
});

test('a completed status without a cognition is a failure, not a dead end', async (t) => {
  const { actor } = harness(started, [{ type: 'extraction.settled', status: status('completed') }]);
  actor.send({ type: 'extraction.start', request: notes });
  await waitFor(actor, (snapshot) => snapshot.matches('failed'));
  t.is(actor.getSnapshot().context.problem?.kind, 'job');
});

test('losing the status fails; reset stops watching and forgets everything', async (t) => {
  const lost = harness(started, [{ type: 'extraction.lost', message: '网络连接失败' }]);
  lost.actor.send({ type: 'extraction.start', request: notes });
  await waitFor(lost.actor, (snapshot) => snapshot.matches('failed'));
  t.deepEqual(lost.actor.getSnapshot().context.problem, { kind: 'lost', message: '网络连接失败' });

  const waiting = harness(started, []);
  waiting.actor.send({ type: 'extraction.start', request: notes });
  await waitFor(waiting.actor, (snapshot) => snapshot.matches('waiting'));
  waiting.actor.send({ type: 'extraction.reset' });
  t.true(waiting.actor.getSnapshot().matches('idle'));
  t.is(waiting.stopped(), 1);
  t.is(waiting.actor.getSnapshot().context.request, null);
});

test('a second start while one runs is ignored', async (t) => {
  const { actor, requests } = harness(started, []);
  actor.send({ type: 'extraction.start', request: notes });
  actor.send({ type: 'extraction.start', request: { kind: 'url', url: 'https://example.com' } });
  await waitFor(actor, (snapshot) => snapshot.matches('waiting'));
  actor.send({ type: 'extraction.start', request: { kind: 'url', url: 'https://example.com' } });
  t.deepEqual(requests, [notes]);
  t.deepEqual(actor.getSnapshot().context.request, notes);
});

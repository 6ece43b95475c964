import { randomUUID } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { deterministicId } from '@scriptorium/infra/eventsourcing/ids';
import {
  WrongExpectedRevisionError,
  type AllSubscription,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
} from '@scriptorium/infra/eventstore/port';

export interface EventStoreFixture {
  store: EventStore;
  /**
   * Another store on the same log (its own connections, as another process would have); closed by
   * cleanup. Adapters without one get their appenders from `store` alone.
   */
  another?: () => Promise<EventStore>;
  /** Closes the store and removes whatever the factory created. */
  cleanup(): Promise<void>;
}

export interface EventStoreTraits {
  /**
   * Retries are recognised by the server alone: the same ids right after the revision the first
   * attempt expected, or with "any" while they are in its cache of recent writes (EventStoreDB, which
   * reads nothing before an append; docs/decisions.md, "EventStoreDB without the extra read"). A
   * retry expecting the stream's current revision is then written again.
   */
  serverRecognisesRetries?: boolean;
}

/*
 * Every test names its streams uniquely and, when it reads `$all`, looks only at its own streams or
 * compares two reads of the same range: a server store is shared by concurrent tests (and by
 * anything else writing to it), so no test may assume it is alone or that the store starts empty.
 */

const stream = (category: string) => `${category}-${randomUUID()}`;

const event = (type: string, data: unknown, extra: Partial<NewEvent> = {}): NewEvent => ({
  type,
  data,
  metadata: { at: '2025-01-01T00:00:00.000Z' },
  ...extra,
});

const numbered = (count: number, from = 0): NewEvent[] =>
  Array.from({ length: count }, (_, i) => event('Numbered', { n: from + i }));

const summary = (events: RecordedEvent[]) => events.map((e) => ({ streamId: e.streamId, revision: e.revision, data: e.data }));

function assertStrictlyIncreasing(t: ExecutionContext, events: RecordedEvent[]): void {
  for (let i = 1; i < events.length; i++) {
    if (events[i]!.position <= events[i - 1]!.position) {
      t.fail(`position ${events[i]!.position} follows ${events[i - 1]!.position} at index ${i}`);
      return;
    }
  }
  t.pass();
}

/** Reads a subscription until `done` says enough; the subscription is closed on the way out. */
async function collect(subscription: AllSubscription, done: (received: RecordedEvent[]) => boolean): Promise<RecordedEvent[]> {
  const received: RecordedEvent[] = [];
  try {
    for await (const recorded of subscription) {
      received.push(recorded);
      if (done(received)) break;
    }
  } finally {
    await subscription.close();
  }
  return received;
}

async function rejectsWithWrongRevision(
  t: ExecutionContext,
  attempt: Promise<unknown>,
  expected: { streamId: string; expected: ExpectedRevision; actual: number | 'no_stream' },
): Promise<void> {
  const error = await t.throwsAsync(attempt, { instanceOf: WrongExpectedRevisionError });
  t.like(error, expected);
}

export function eventStoreContract(name: string, factory: () => Promise<EventStoreFixture>, traits: EventStoreTraits = {}): void {
  const it = (title: string, body: (t: ExecutionContext, store: EventStore, fixture: EventStoreFixture) => Promise<void>) =>
    test(`${name}: ${title}`, async (t) => {
      const fixture = await factory();
      try {
        await body(t, fixture.store, fixture);
      } finally {
        await fixture.cleanup();
      }
    });

  it('appends several events atomically with contiguous revisions and increasing positions', async (t, store) => {
    const id = stream('atomic');
    const result = await store.appendToStream(id, numbered(3), { expectedRevision: 'no_stream' });
    const events = await store.readStream(id);
    t.deepEqual(
      events.map((e) => [e.revision, e.data]),
      [
        [0, { n: 0 }],
        [1, { n: 1 }],
        [2, { n: 2 }],
      ],
    );
    t.is(result.nextExpectedRevision, 2);
    t.is(result.position, events[2]!.position);
    assertStrictlyIncreasing(t, events);
    t.true(events.every((e) => e.streamId === id && e.type === 'Numbered' && e.position >= 1));
  });

  it('a batch that cannot be written writes none of its events', async (t, store) => {
    const id = stream('atomic-failure');
    await store.appendToStream(id, numbered(1));
    // A BigInt cannot be serialised to JSON: the second event fails after the first was accepted.
    await t.throwsAsync(store.appendToStream(id, [event('Ok', { n: 1 }), event('Broken', { n: 2n })]));
    t.deepEqual(summary(await store.readStream(id)), [{ streamId: id, revision: 0, data: { n: 0 } }]);
    const next = await store.appendToStream(id, numbered(1, 1), { expectedRevision: 0 });
    t.is(next.nextExpectedRevision, 1);
  });

  it('expected revision "any" appends whether or not the stream exists', async (t, store) => {
    const id = stream('any');
    t.is((await store.appendToStream(id, numbered(1), { expectedRevision: 'any' })).nextExpectedRevision, 0);
    t.is((await store.appendToStream(id, numbered(2, 1), { expectedRevision: 'any' })).nextExpectedRevision, 2);
    t.is((await store.appendToStream(id, numbered(1, 3))).nextExpectedRevision, 3);
    t.is((await store.readStream(id)).length, 4);
  });

  it('expected revision "no_stream" succeeds on a new stream and fails, writing nothing, on an existing one', async (t, store) => {
    const id = stream('no-stream');
    t.is((await store.appendToStream(id, numbered(2), { expectedRevision: 'no_stream' })).nextExpectedRevision, 1);
    await rejectsWithWrongRevision(t, store.appendToStream(id, numbered(2, 2), { expectedRevision: 'no_stream' }), {
      streamId: id,
      expected: 'no_stream',
      actual: 1,
    });
    t.deepEqual((await store.readStream(id)).map((e) => e.data), [{ n: 0 }, { n: 1 }]);
  });

  it('expected revision "stream_exists" fails, writing nothing, on a missing stream and succeeds on an existing one', async (t, store) => {
    const id = stream('stream-exists');
    await rejectsWithWrongRevision(t, store.appendToStream(id, numbered(2), { expectedRevision: 'stream_exists' }), {
      streamId: id,
      expected: 'stream_exists',
      actual: 'no_stream',
    });
    t.deepEqual(await store.readStream(id), []);
    await store.appendToStream(id, numbered(1));
    t.is((await store.appendToStream(id, numbered(2, 1), { expectedRevision: 'stream_exists' })).nextExpectedRevision, 2);
  });

  it('an exact expected revision succeeds when it matches and fails, writing nothing, when it does not', async (t, store) => {
    const id = stream('exact');
    await rejectsWithWrongRevision(t, store.appendToStream(id, numbered(1), { expectedRevision: 0 }), {
      streamId: id,
      expected: 0,
      actual: 'no_stream',
    });
    await store.appendToStream(id, numbered(2), { expectedRevision: 'no_stream' });
    const result = await store.appendToStream(id, numbered(2, 2), { expectedRevision: 1 });
    t.is(result.nextExpectedRevision, 3);
    await rejectsWithWrongRevision(t, store.appendToStream(id, numbered(3, 4), { expectedRevision: 1 }), {
      streamId: id,
      expected: 1,
      actual: 3,
    });
    await rejectsWithWrongRevision(t, store.appendToStream(id, numbered(1, 4), { expectedRevision: 7 }), {
      streamId: id,
      expected: 7,
      actual: 3,
    });
    t.deepEqual(
      (await store.readStream(id)).map((e) => e.data),
      [0, 1, 2, 3].map((n) => ({ n })),
    );
  });

  it('of concurrent appends at the same exact revision, exactly one wins', async (t, store) => {
    const id = stream('race');
    await store.appendToStream(id, numbered(1));
    const attempts = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) => store.appendToStream(id, [event('Claimed', { by: i })], { expectedRevision: 0 })),
    );
    t.is(attempts.filter((a) => a.status === 'fulfilled').length, 1);
    for (const attempt of attempts) {
      if (attempt.status === 'rejected') t.true(attempt.reason instanceof WrongExpectedRevisionError);
    }
    t.is((await store.readStream(id)).length, 2);
  });

  it('a retried append with the same deterministic ids is a no-op success, whatever the expected revision', async (t, store) => {
    const id = stream('retry');
    const batch = (n: number) => [0, 1].map((i) => event('ChunkAppended', { batch: n, i }, { id: deterministicId(id, 'batch', n, i) }));

    const first = await store.appendToStream(id, batch(0), { expectedRevision: 'no_stream' });
    t.deepEqual(await store.appendToStream(id, batch(0), { expectedRevision: 'no_stream' }), first);
    t.deepEqual(await store.appendToStream(id, batch(0), { expectedRevision: 'any' }), first);
    if (!traits.serverRecognisesRetries) {
      t.deepEqual(await store.appendToStream(id, batch(0), { expectedRevision: 'stream_exists' }), first);
      t.deepEqual(await store.appendToStream(id, batch(0), { expectedRevision: 1 }), first);
    }

    const second = await store.appendToStream(id, batch(1), { expectedRevision: 1 });
    t.is(second.nextExpectedRevision, 3);
    // The stream moved on: the retry still reports where its own events are, not the stream's end.
    t.deepEqual(await store.appendToStream(id, batch(0), { expectedRevision: 'no_stream' }), first);
    t.deepEqual(await store.appendToStream(id, batch(0), { expectedRevision: 0 }), first);
    t.deepEqual(await store.appendToStream(id, batch(1), { expectedRevision: 1 }), second);

    const events = await store.readStream(id);
    t.is(events.length, 4);
    t.deepEqual(
      events.map((e) => e.id),
      [0, 1].flatMap((n) => [0, 1].map((i) => deterministicId(id, 'batch', n, i))),
    );
  });

  // EventStoreDB checks ids only past the expected revision (and, for "any", in a cache of recent
  // writes): a retry expecting the stream's current revision is written again there.
  if (!traits.serverRecognisesRetries) it('a retry expecting the stream\'s current revision, or "any", after the stream moved on writes nothing', async (t, store) => {
    const id = stream('retry-current');
    const retried = [event('Once', { n: 0 }, { id: deterministicId(id, 'once') })];
    const first = await store.appendToStream(id, retried, { expectedRevision: 'no_stream' });
    t.deepEqual(await store.appendToStream(id, retried, { expectedRevision: 0 }), first);
    const moved = await store.appendToStream(id, numbered(3), { expectedRevision: 0 });
    t.deepEqual(await store.appendToStream(id, retried, { expectedRevision: moved.nextExpectedRevision }), first);
    t.deepEqual(await store.appendToStream(id, retried, { expectedRevision: 'any' }), first);
    t.deepEqual(await store.appendToStream(id, retried, { expectedRevision: 'stream_exists' }), first);
    t.deepEqual((await store.readStream(id)).map((e) => e.revision), [0, 1, 2, 3]);
  });

  it('an id already recorded in another stream is never taken for a retry in this one', async (t, store) => {
    const first = stream('owner');
    const second = stream('other');
    const shared = randomUUID();
    await store.appendToStream(first, [event('Owned', { n: 1 }, { id: shared })]);
    // SQLite keeps ids unique across the store and refuses; ESDB scopes ids to a stream and appends.
    // Either is fine; reporting success while writing nothing is not.
    const outcome = await store.appendToStream(second, [event('Other', { n: 2 }, { id: shared })]).then(
      () => 'appended' as const,
      () => 'refused' as const,
    );
    const written = await store.readStream(second);
    t.deepEqual(written.map((e) => e.id), outcome === 'appended' ? [shared] : []);
    t.deepEqual((await store.readStream(first)).map((e) => e.data), [{ n: 1 }]);
  });

  it('reads a stream forwards, backwards, from a revision and up to a count', async (t, store) => {
    const id = stream('read');
    await store.appendToStream(id, numbered(3));
    await store.appendToStream(id, numbered(2, 3));
    const revisions = async (options: Parameters<EventStore['readStream']>[1]) =>
      (await store.readStream(id, options)).map((e) => e.revision);

    t.deepEqual(await revisions(undefined), [0, 1, 2, 3, 4]);
    t.deepEqual(await revisions({ direction: 'forwards', fromRevision: 2 }), [2, 3, 4]);
    t.deepEqual(await revisions({ maxCount: 2 }), [0, 1]);
    t.deepEqual(await revisions({ fromRevision: 1, maxCount: 2 }), [1, 2]);
    t.deepEqual(await revisions({ fromRevision: 5 }), []);
    t.deepEqual(await revisions({ direction: 'backwards' }), [4, 3, 2, 1, 0]);
    t.deepEqual(await revisions({ direction: 'backwards', fromRevision: 2 }), [2, 1, 0]);
    t.deepEqual(await revisions({ direction: 'backwards', maxCount: 2 }), [4, 3]);
    t.deepEqual(await revisions({ direction: 'backwards', fromRevision: 3, maxCount: 2 }), [3, 2]);
    const events = await store.readStream(id);
    t.deepEqual(events.map((e) => e.data), [0, 1, 2, 3, 4].map((n) => ({ n })));
  });

  it('a missing stream reads as empty in both directions', async (t, store) => {
    const id = stream('missing');
    t.deepEqual(await store.readStream(id), []);
    t.deepEqual(await store.readStream(id, { direction: 'backwards' }), []);
    t.deepEqual(await store.readStream(id, { fromRevision: 3, maxCount: 2 }), []);
  });

  it('readAll returns events after a position, in position order, up to a count', async (t, store) => {
    const a = stream('all-a');
    const b = stream('all-b');
    const after = await store.headPosition();
    await store.appendToStream(a, numbered(2));
    await store.appendToStream(b, numbered(3));
    await store.appendToStream(a, numbered(1, 2));

    const all = await store.readAll({ after });
    assertStrictlyIncreasing(t, all);
    t.true(all.every((e) => e.position > after));
    const mine = all.filter((e) => e.streamId === a || e.streamId === b);
    t.deepEqual(
      mine.map((e) => [e.streamId, e.revision]),
      [
        [a, 0],
        [a, 1],
        [b, 0],
        [b, 1],
        [b, 2],
        [a, 2],
      ],
    );

    t.deepEqual(await store.readAll({ after, maxCount: 2 }), all.slice(0, 2));
    const middle = mine[2]!.position;
    const fromMiddle = await store.readAll({ after: middle });
    t.true(fromMiddle.every((e) => e.position > middle));
    t.deepEqual(
      fromMiddle.filter((e) => e.streamId === a || e.streamId === b).map((e) => e.id),
      mine.slice(3).map((e) => e.id),
    );
    t.deepEqual(await store.readAll({ after, maxCount: 0 }), []);
  });

  it('readAll from the beginning starts with the oldest event and agrees with readStream', async (t, store) => {
    const id = stream('from-start');
    const after = await store.headPosition();
    await store.appendToStream(id, numbered(2));
    const [oldest] = await store.readAll({ maxCount: 1 });
    t.truthy(oldest);
    t.true(oldest!.position >= 1);
    t.deepEqual(await store.readAll({ after: 0, maxCount: 1 }), [oldest!]);
    const fromAll = (await store.readAll({ after })).filter((e) => e.streamId === id);
    t.deepEqual(fromAll, await store.readStream(id));
  });

  it('positions strictly increase across streams and batches', async (t, store) => {
    const streams = [stream('pos-a'), stream('pos-b'), stream('pos-c')];
    const results: number[] = [];
    for (let round = 0; round < 4; round++) {
      for (const [i, id] of streams.entries()) {
        const result = await store.appendToStream(id, numbered(i + 1, round * 10));
        results.push(result.position);
      }
    }
    t.deepEqual([...results].sort((x, y) => x - y), results);
    t.is(new Set(results).size, results.length);
    for (const id of streams) {
      const events = await store.readStream(id);
      assertStrictlyIncreasing(t, events);
      t.deepEqual(events.map((e) => e.revision), events.map((_, i) => i));
    }
  });

  it('headPosition is the newest position, 0 when the store is empty', async (t, store) => {
    const before = await store.headPosition();
    if ((await store.readAll({ maxCount: 1 })).length === 0) t.is(before, 0);
    const result = await store.appendToStream(stream('head'), numbered(2));
    const head = await store.headPosition();
    t.true(head > before);
    t.true(head >= result.position);
    // Positions are opaque cursors (ESDB's are log offsets), so the head is checked against real events only.
    if (head > result.position) t.true((await store.readAll({ after: result.position })).some((e) => e.position === head));
  });

  // /metrics asks for the head on every scrape. A read left open on each call would use up the
  // connection's concurrent streams (HTTP/2 servers allow about a hundred) and then hang.
  it('headPosition and ping keep answering when called many times over', async (t, store) => {
    await store.appendToStream(stream('scrape'), numbered(1));
    for (let i = 0; i < 150; i++) {
      await store.headPosition();
      await store.ping();
    }
    t.true((await store.headPosition()) > 0);
  });

  it('ping answers', async (t, store) => {
    await t.notThrowsAsync(store.ping());
  });

  it('metadata round-trips', async (t, store) => {
    const id = stream('metadata');
    const metadata = {
      at: '2025-03-04T05:06:07.089Z',
      correlationId: randomUUID(),
      causationId: randomUUID(),
      userId: 'user-42',
      clientId: 'client-7',
      attempt: 3,
      nested: { flags: [true, false], note: null },
    };
    const after = await store.headPosition();
    await store.appendToStream(id, [{ type: 'Annotated', data: { ok: true }, metadata }]);
    const [recorded] = await store.readStream(id);
    t.deepEqual(recorded?.metadata, metadata);
    const [fromAll] = (await store.readAll({ after })).filter((e) => e.streamId === id);
    t.deepEqual(fromAll?.metadata, metadata);
  });

  it('unicode data round-trips', async (t, store) => {
    const id = stream('unicode');
    const data = {
      title: '研究笔记：事件溯源',
      body: '你好，世界！这是一段中文文本，含标点「引号」、数字１２３和表情🙂。',
      tags: ['汉字', 'テスト', 'Ελληνικά'],
      nested: { 键: '值' },
    };
    const metadata = { at: '2025-01-01T00:00:00.000Z', userId: '用户-1' };
    await store.appendToStream(id, [{ type: 'NoteWritten', data, metadata }]);
    const [recorded] = await store.readStream(id);
    t.deepEqual(recorded?.data, data);
    t.deepEqual(recorded?.metadata, metadata);
  });

  it('subscribeToAll catches up then goes live, in order, with no gap and no duplicate, while appends continue', async (t, store) => {
    const streams = [stream('sub-a'), stream('sub-b')];
    const mine = new Set(streams);
    const after = await store.headPosition();
    // Enough history that catch-up spans several pages.
    for (let i = 0; i < 30; i++) await store.appendToStream(streams[i % 2]!, numbered(10, i * 10));
    const historic = 300;
    const live = 200;

    const subscription = store.subscribeToAll({ after });
    let ours = 0;
    let lastAppended = Number.POSITIVE_INFINITY;
    // Stops at the last appended position as well as at the expected count, so that a gap shows
    // as a failed comparison below instead of a subscription waiting forever.
    const received = collect(subscription, (events) => {
      const newest = events[events.length - 1]!;
      if (mine.has(newest.streamId)) ours += 1;
      return ours === historic + live || newest.position >= lastAppended;
    });
    // Appends interleave with the catch-up reads and carry on once the subscription is live.
    let appended = 0;
    for (let i = 0; i < live / 4; i++) {
      appended = (await store.appendToStream(streams[i % 2]!, numbered(4, 1000 + i * 4))).position;
      if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    lastAppended = appended;
    const events = await received;

    assertStrictlyIncreasing(t, events);
    t.true(events.every((e) => e.position > after));
    t.is(new Set(events.map((e) => e.id)).size, events.length);
    const last = events[events.length - 1]!.position;
    const log = (await store.readAll({ after })).filter((e) => e.position <= last);
    t.deepEqual(events.map((e) => e.id), log.map((e) => e.id));
    for (const id of streams) {
      const delivered = events.filter((e) => e.streamId === id);
      t.deepEqual(delivered.map((e) => e.revision), delivered.map((_, i) => i));
      t.is(delivered.length, (historic + live) / 2);
    }
  });

  it('subscribeToAll from a middle position delivers only what follows it', async (t, store) => {
    const id = stream('sub-middle');
    await store.appendToStream(id, numbered(5));
    await store.appendToStream(id, numbered(5, 5));
    const events = await store.readStream(id);
    const middle = events[4]!.position;
    const received = await collect(store.subscribeToAll({ after: middle }), (got) => got.filter((e) => e.streamId === id).length === 5);
    t.true(received.every((e) => e.position > middle));
    t.deepEqual(
      received.filter((e) => e.streamId === id).map((e) => e.revision),
      [5, 6, 7, 8, 9],
    );
    t.deepEqual(received[0], (await store.readAll({ after: middle, maxCount: 1 }))[0]);
  });

  it('a subscriber sees every position exactly once, in order, while many appenders commit concurrently', async (t, store, fixture) => {
    const appenders = 8;
    const rounds = 25;
    const stores = fixture.another ? await Promise.all(Array.from({ length: appenders }, () => fixture.another!())) : [store];
    const streams = Array.from({ length: appenders }, () => stream('concurrent'));
    const mine = new Set(streams);
    const expected = appenders * rounds * 2;
    const after = await store.headPosition();

    const subscription = store.subscribeToAll({ after });
    let ours = 0;
    const received = collect(subscription, (events) => {
      if (mine.has(events[events.length - 1]!.streamId)) ours += 1;
      return ours === expected;
    });
    // Bounded: a skipped event would leave the subscriber waiting for it forever.
    const deadline = setTimeout(() => void subscription.close(), 60_000);
    // Batches of different sizes on different connections, all in flight together, so that
    // transactions that took later positions are often ready to commit before earlier ones.
    await Promise.all(
      streams.map(async (id, i) => {
        const appender = stores[i % stores.length]!;
        for (let round = 0; round < rounds; round++) {
          await appender.appendToStream(id, numbered(2, round * 2), { expectedRevision: round === 0 ? 'no_stream' : round * 2 - 1 });
        }
      }),
    );
    const events = await received;
    clearTimeout(deadline);

    t.is(events.filter((e) => mine.has(e.streamId)).length, expected);
    assertStrictlyIncreasing(t, events);
    const last = events[events.length - 1]!.position;
    const log = (await store.readAll({ after })).filter((e) => e.position <= last);
    t.deepEqual(
      events.map((e) => e.position),
      log.map((e) => e.position),
    );
    for (const id of streams) {
      t.deepEqual(
        events.filter((e) => e.streamId === id).map((e) => e.revision),
        Array.from({ length: rounds * 2 }, (_, i) => i),
      );
    }
  });

  it('close() ends a subscription that is waiting for events', async (t, store) => {
    const subscription = store.subscribeToAll({ after: await store.headPosition() });
    const iterator = subscription[Symbol.asyncIterator]();
    const pending = iterator.next();
    await new Promise((resolve) => setImmediate(resolve));
    await subscription.close();
    // On a shared server other writers may still slip events in before the end.
    let result = await pending;
    while (!result.done) result = await iterator.next();
    t.true(result.done);
  });

  it('close() ends a subscription that has events it has not delivered yet', async (t, store) => {
    const id = stream('sub-close');
    const after = await store.headPosition();
    await store.appendToStream(id, numbered(20));
    const subscription = store.subscribeToAll({ after });
    const seen: RecordedEvent[] = [];
    for await (const recorded of subscription) {
      seen.push(recorded);
      if (seen.length === 3) await subscription.close();
    }
    t.is(seen.length, 3);
  });

  it("closing the store ends its subscriptions", async (t, store) => {
    const subscription = store.subscribeToAll({ after: await store.headPosition() });
    const drained = (async () => {
      for await (const _ of subscription);
      return 'ended';
    })();
    await new Promise((resolve) => setImmediate(resolve));
    await store.close();
    t.is(await drained, 'ended');
  });
}

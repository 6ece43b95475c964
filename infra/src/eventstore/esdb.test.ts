import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import test from 'ava';
import {
  ANY,
  AccessDeniedError,
  BACKWARDS,
  DeadlineExceededError,
  TimeoutError,
  END,
  NO_STREAM,
  START,
  StreamNotFoundError,
  UnavailableError,
  WrongExpectedVersionError,
  type AppendExpectedRevision,
  type EventData,
  type ReadAllOptions,
  type ReadStreamOptions,
  type SubscribeToAllOptions,
} from '@eventstore/db-client';
import { deterministicId } from '../eventsourcing/ids.ts';
import { EsdbEventStore, type EsdbClient } from './esdb.ts';
import { WrongExpectedRevisionError, type NewEvent, type RecordedEvent } from './port.ts';

/*
 * The adapter's own logic against a fake client that keeps EventStoreDB's rules where they matter:
 * the server recognises a retry by the same ids right after the expected revision, and with "any"
 * by its cache of recent ids (`coldCache` empties it); an append at the stream's current revision is
 * written whatever its ids; positions are log offsets; a read ends, or stays open until cancelled.
 * `failures` makes the next appends fail, before or after writing, as a timeout or a lost connection
 * leaves a client not knowing which.
 */

interface FakeEvent {
  id: string;
  streamId: string;
  type: string;
  data: unknown;
  metadata: unknown;
  isJson: boolean;
  revision: bigint;
  position: { commit: bigint; prepare: bigint };
}

interface ReadRecord {
  kind: 'stream' | 'all';
  options: ReadStreamOptions | ReadAllOptions;
  ended: boolean;
  cancelled: boolean;
}

class FakeSource extends EventEmitter {
  paused = false;
  unsubscribed = false;
  pause() {
    this.paused = true;
    return this;
  }
  resume() {
    this.paused = false;
    return this;
  }
  isPaused() {
    return this.paused;
  }
  async unsubscribe() {
    this.unsubscribed = true;
  }
  deliver(event: FakeEvent) {
    this.emit('data', { event });
  }
}

class FakeEsdb {
  readonly log: FakeEvent[] = [];
  readonly reads: ReadRecord[] = [];
  readonly appends: string[] = [];
  readonly failures: Array<{ error: Error; written: boolean }> = [];
  coldCache = false;
  readonly subscriptions: { options: SubscribeToAllOptions; source: FakeSource }[] = [];
  #offset = 1000n;

  stream(streamId: string) {
    return this.log.filter((event) => event.streamId === streamId);
  }

  record(streamId: string, type: string, data: unknown, isJson = true): FakeEvent {
    const position = { commit: this.#offset, prepare: this.#offset };
    this.#offset += 137n;
    const event = { id: crypto.randomUUID(), streamId, type, data, metadata: {}, isJson, revision: BigInt(this.stream(streamId).length), position };
    this.log.push(event);
    return event;
  }

  async appendToStream(streamId: string, events: EventData[], options: { expectedRevision: AppendExpectedRevision }) {
    this.appends.push(streamId);
    const failure = this.failures.shift();
    if (failure && !failure.written) throw failure.error;
    const result = this.#append(streamId, events, options);
    if (failure) throw failure.error;
    return result;
  }

  #append(streamId: string, events: EventData[], options: { expectedRevision: AppendExpectedRevision }) {
    const existing = this.stream(streamId);
    const current = existing.length === 0 ? NO_STREAM : BigInt(existing.length - 1);
    const expected = options.expectedRevision;
    const after = expected === NO_STREAM ? -1 : typeof expected === 'bigint' ? Number(expected) : undefined;
    const conflict = () => new WrongExpectedVersionError(undefined, { streamName: streamId, expected, current });
    if (after !== undefined && BigInt(after) !== (current === NO_STREAM ? -1n : current)) {
      // The server's idempotency: the same ids right after the expected revision.
      const following = existing.slice(after + 1, after + 1 + events.length).map((event) => event.id);
      if (following.join() !== events.map((event) => event.id).join()) throw conflict();
      return { success: true, nextExpectedRevision: BigInt(after + events.length), position: undefined };
    }
    if (expected === 'stream_exists' && current === NO_STREAM) throw conflict();
    const cached = events.map((event) => existing.find((recorded) => recorded.id === event.id));
    if (expected === ANY && !this.coldCache && cached.every((recorded) => recorded !== undefined)) {
      return { success: true, nextExpectedRevision: cached.at(-1)!.revision, position: undefined };
    }
    let last: FakeEvent | undefined;
    for (const event of events) {
      last = this.record(streamId, event.type, event.data);
      last.id = event.id;
      last.metadata = event.metadata;
    }
    return { success: true, nextExpectedRevision: last!.revision, position: last!.position };
  }

  #read(kind: ReadRecord['kind'], options: ReadStreamOptions | ReadAllOptions, items: unknown[] | Error) {
    const record: ReadRecord = { kind, options, ended: false, cancelled: false };
    this.reads.push(record);
    const readable =
      items instanceof Error
        ? new Readable({ objectMode: true, read() { this.destroy(items); } })
        : Readable.from(items, { objectMode: true });
    readable.on('end', () => (record.ended = true));
    readable.on('error', () => (record.ended = true));
    return Object.assign(readable, { cancel: async () => void (record.cancelled = true) });
  }

  readStream(streamId: string, options: ReadStreamOptions = {}) {
    const events = this.stream(streamId);
    if (events.length === 0) return this.#read('stream', options, new StreamNotFoundError(undefined, streamId));
    const backwards = options.direction === BACKWARDS;
    const from = options.fromRevision === undefined || options.fromRevision === START || options.fromRevision === END ? undefined : Number(options.fromRevision);
    const ordered = backwards ? events.filter((e) => from === undefined || e.revision <= from).reverse() : events.filter((e) => e.revision >= (from ?? 0));
    return this.#read('stream', options, ordered.slice(0, Number(options.maxCount ?? Infinity)).map((event) => ({ event })));
  }

  readAll(options: ReadAllOptions = {}) {
    const backwards = options.direction === BACKWARDS;
    const from = typeof options.fromPosition === 'object' ? options.fromPosition.commit : undefined;
    const ordered = backwards
      ? this.log.filter((e) => from === undefined || e.position.commit <= from).reverse()
      : this.log.filter((e) => from === undefined || e.position.commit >= from);
    return this.#read('all', options, ordered.slice(0, Number(options.maxCount ?? Infinity)).map((event) => ({ event })));
  }

  subscribeToAll(options: SubscribeToAllOptions = {}) {
    const source = new FakeSource();
    this.subscriptions.push({ options, source });
    return source;
  }

  async dispose() {}

  get source(): FakeSource {
    return this.subscriptions.at(-1)!.source;
  }
}

function open(fake = new FakeEsdb()) {
  const store = new EsdbEventStore(fake as unknown as EsdbClient, { resubscribeDelayMs: () => 1 });
  return { fake, store };
}

const event = (n: number, id?: string): NewEvent => ({ ...(id ? { id } : {}), type: 'Numbered', data: { n }, metadata: { at: '2025-01-01T00:00:00.000Z' } });
const batch = (streamId: string, n: number) => [0, 1].map((i) => event(i, deterministicId(streamId, n, i)));
const openReads = (fake: FakeEsdb) => fake.reads.filter((read) => !read.ended && !read.cancelled);

/** Waits until the subscription has taken in `count` events, resolving with them. */
async function take(iterator: AsyncIterator<RecordedEvent>, count: number): Promise<RecordedEvent[]> {
  const taken: RecordedEvent[] = [];
  while (taken.length < count) {
    const next = await iterator.next();
    if (next.done) break;
    taken.push(next.value);
  }
  return taken;
}

const streamReads = (fake: FakeEsdb) => fake.reads.filter((read) => read.kind === 'stream');

test('an append reads nothing before it: one event is one call, a batch one read of its last event', async (t) => {
  const { fake, store } = open();
  await store.appendToStream('r-1', [event(0, deterministicId('r-1', 0))], { expectedRevision: 'no_stream' });
  await store.appendToStream('r-1', [event(1)]);
  t.deepEqual(fake.reads, [], 'a single event: the append alone');
  t.is(fake.appends.length, 2);
  await store.appendToStream('r-1', batch('r-1', 1), { expectedRevision: 1 });
  t.is(streamReads(fake).length, 1, 'a batch: its last event read back for its position');
  t.like(streamReads(fake)[0]!.options, { direction: BACKWARDS, maxCount: 1 });
});

test('a retry the server recognises (its expected revision, or "any" while its cache has the ids) writes nothing and is answered as the first', async (t) => {
  const { fake, store } = open();
  const first = await store.appendToStream('s-1', batch('s-1', 0), { expectedRevision: 'no_stream' });
  const readsBefore = fake.reads.length;
  t.deepEqual(await store.appendToStream('s-1', batch('s-1', 0), { expectedRevision: 'no_stream' }), first);
  t.deepEqual(await store.appendToStream('s-1', batch('s-1', 0), { expectedRevision: 'any' }), first);
  await store.appendToStream('s-1', [event(9)]);
  t.deepEqual(await store.appendToStream('s-1', batch('s-1', 0), { expectedRevision: 'no_stream' }), first, 'the stream moved on');
  t.is(fake.stream('s-1').length, 3);
  t.is(fake.reads.length - readsBefore, 3, 'one read back per retry, for its position; none before');
});

test('an append whose outcome is unknown is confirmed at the stream end: written once, answered as written', async (t) => {
  const { fake, store } = open();
  await store.appendToStream('u-1', [event(0)]);
  for (const error of [new TimeoutError(undefined), new DeadlineExceededError(undefined), new UnavailableError(undefined)]) {
    fake.failures.push({ error, written: true });
    const before = fake.reads.length;
    const ids = [event(1, crypto.randomUUID())];
    const result = await store.appendToStream('u-1', ids, { expectedRevision: 'any' });
    const written = fake.stream('u-1').filter((recorded) => recorded.id === ids[0]!.id);
    t.is(written.length, 1, `${error.name}: written once`);
    t.deepEqual(result, { nextExpectedRevision: Number(written[0]!.revision), position: Number(written[0]!.position.commit) });
    t.is(fake.reads.length - before, 1, `${error.name}: one look at the stream end`);
    t.like(fake.reads.at(-1)!.options, { direction: BACKWARDS, maxCount: 1 + 64 });
  }
  t.is(fake.stream('u-1').length, 4);
});

test('an append whose outcome is unknown and that did not land is appended again, with a random id too', async (t) => {
  const { fake, store } = open();
  fake.failures.push({ error: new UnavailableError(undefined), written: false });
  const result = await store.appendToStream('u-2', [event(0)], { expectedRevision: 'no_stream' });
  t.is(fake.appends.length, 2);
  t.is(fake.stream('u-2').length, 1);
  t.is(result.position, Number(fake.stream('u-2')[0]!.position.commit));

  // Unknown three times running: the error is the caller's, and nothing was written.
  for (let n = 0; n < 3; n++) fake.failures.push({ error: new TimeoutError(undefined), written: false });
  await t.throwsAsync(store.appendToStream('u-2', [event(1)], { expectedRevision: 0 }), { instanceOf: TimeoutError });
  t.is(fake.appends.length, 5);
  t.is(fake.stream('u-2').length, 1);
});

test('an error that is an answer is not taken for an unknown outcome: nothing is read, nothing tried again', async (t) => {
  const { fake, store } = open();
  fake.failures.push({ error: new AccessDeniedError(), written: false });
  await t.throwsAsync(store.appendToStream('n-1', [event(0)]), { instanceOf: AccessDeniedError });
  t.deepEqual(fake.reads, []);
  t.is(fake.appends.length, 1);
});

test('with a cold cache, "any" is written again: the server is trusted, and the adapter reads nothing to second-guess it', async (t) => {
  const { fake, store } = open();
  await store.appendToStream('c-1', [event(0, deterministicId('c-1', 0))], { expectedRevision: 'any' });
  fake.coldCache = true;
  await store.appendToStream('c-1', [event(0, deterministicId('c-1', 0))], { expectedRevision: 'any' });
  t.is(fake.stream('c-1').length, 2);
  t.deepEqual(fake.reads, []);
});

test('a conflict reads only the end of a long stream', async (t) => {
  const { fake, store } = open();
  for (let n = 0; n < 300; n++) fake.record('long-1', 'Numbered', { n });
  await t.throwsAsync(store.appendToStream('long-1', batch('long-1', 0), { expectedRevision: 5 }), { instanceOf: WrongExpectedRevisionError });
  const lookups = streamReads(fake);
  t.is(lookups.length, 1);
  t.true(lookups.every((read) => read.options.direction === BACKWARDS && Number(read.options.maxCount) <= 2 + 64));
  t.is(fake.stream('long-1').length, 300);
});

test('every read that may follow a write asks the leader', async (t) => {
  const { fake, store } = open();
  await store.appendToStream('s-3', batch('s-3', 0));
  await store.readStream('s-3');
  await store.readAll();
  await store.headPosition();
  t.true(fake.reads.length >= 4);
  t.true(fake.reads.every((read) => read.options.requiresLeader === true));
});

test('headPosition, ping and a missing stream leave no gRPC read open', async (t) => {
  const { fake, store } = open();
  for (let n = 0; n < 10; n++) fake.record('h-1', 'Numbered', { n });
  fake.record('$stats', '$statsCollected', {});
  t.is(await store.headPosition(), Number(fake.log[9]!.position.commit));
  await store.ping();
  t.deepEqual(await store.readStream('missing-1'), []);
  t.is(fake.reads.length, 3);
  t.deepEqual(openReads(fake), []);
});

test('a subscription dropped by the server resumes after the last event it took in, without gap or duplicate', async (t) => {
  const { fake, store } = open();
  const events = Array.from({ length: 5 }, (_, n) => fake.record('sub-1', 'Numbered', { n }));
  const subscription = store.subscribeToAll();
  const iterator = subscription[Symbol.asyncIterator]();
  fake.source.deliver(events[0]!);
  fake.source.deliver(events[1]!);
  t.deepEqual((await take(iterator, 2)).map((e) => e.data), [{ n: 0 }, { n: 1 }]);

  const dropped = fake.source;
  dropped.emit('error', new UnavailableError(undefined, 'keepalive lost'));
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.true(dropped.unsubscribed);
  t.is(fake.subscriptions.length, 2);
  t.deepEqual(fake.subscriptions[1]!.options.fromPosition, events[1]!.position);
  // The server reads inclusively from the position, and a dropped source may still flush.
  dropped.deliver(events[2]!);
  for (const e of events.slice(1, 3)) fake.source.deliver(e);

  fake.source.emit('end');
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.is(fake.subscriptions.length, 3);
  for (const e of events.slice(2)) fake.source.deliver(e);
  t.deepEqual((await take(iterator, 3)).map((e) => e.data), [{ n: 2 }, { n: 3 }, { n: 4 }]);
  await subscription.close();
  t.true(fake.source.unsubscribed);
});

test('an event that cannot be mapped ends the subscription after the events before it, and before those after it', async (t) => {
  const { fake, store } = open();
  const good = fake.record('sub-2', 'Numbered', { n: 0 });
  const bad = fake.record('sub-2', 'Binary', 'bytes', false);
  const later = fake.record('sub-2', 'Numbered', { n: 2 });
  const subscription = store.subscribeToAll();
  for (const e of [good, bad, later]) fake.source.deliver(e);
  const received: unknown[] = [];
  const error = await t.throwsAsync(async () => {
    for await (const e of subscription) received.push(e.data);
  });
  t.regex(error?.message ?? '', /not JSON/);
  t.deepEqual(received, [{ n: 0 }]);
  t.true(fake.source.unsubscribed);
});

test('a refusal a resubscription would meet again ends the subscription with it', async (t) => {
  const { fake, store } = open();
  const subscription = store.subscribeToAll();
  fake.source.emit('error', new AccessDeniedError());
  await t.throwsAsync(async () => {
    for await (const _ of subscription);
  }, { instanceOf: AccessDeniedError });
  t.is(fake.subscriptions.length, 1);
});

test('close() during the wait before resubscribing stops it', async (t) => {
  const fake = new FakeEsdb();
  const store = new EsdbEventStore(fake as unknown as EsdbClient, { resubscribeDelayMs: () => 30 });
  const subscription = store.subscribeToAll();
  fake.source.emit('error', new UnavailableError());
  await subscription.close();
  await new Promise((resolve) => setTimeout(resolve, 60));
  t.is(fake.subscriptions.length, 1);
});

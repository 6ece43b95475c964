import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import test from 'ava';
import { WrongExpectedRevisionError, type NewEvent, type RecordedEvent } from './port.ts';
import { SqliteEventStore } from './sqlite.ts';

// What the shared contract (tests/contract/eventstore.ts) cannot say about every engine.

const numbered = (count: number, from = 0): NewEvent[] =>
  Array.from({ length: count }, (_, i) => ({ type: 'Numbered', data: { n: from + i }, metadata: { at: '2025-01-01T00:00:00.000Z' } }));

async function tempFile(t: { teardown(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'scriptorium-sqlite-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return join(dir, 'events.sqlite3');
}

test('positions start at 1 and number events one by one; an empty store has head 0', async (t) => {
  const store = new SqliteEventStore(':memory:');
  t.is(await store.headPosition(), 0);
  await store.appendToStream('a-1', numbered(2));
  await t.throwsAsync(store.appendToStream('a-1', numbered(1), { expectedRevision: 0 }), { instanceOf: WrongExpectedRevisionError });
  await store.appendToStream('b-1', numbered(3));
  t.deepEqual((await store.readAll()).map((e) => e.position), [1, 2, 3, 4, 5]);
  t.is(await store.headPosition(), 5);
  await store.close();
});

test('the event log file is in WAL mode', async (t) => {
  const path = await tempFile(t);
  const store = new SqliteEventStore(path);
  await store.appendToStream('a-1', numbered(1));
  const probe = new Database(path, { readonly: true });
  t.is(probe.pragma('journal_mode', { simple: true }), 'wal');
  probe.close();
  await store.close();
});

test('a subscription sees events appended through another connection to the same file', async (t) => {
  const path = await tempFile(t);
  // Two stores on one file share no memory, exactly like two processes: only the poller can tell.
  const reader = new SqliteEventStore(path);
  const writer = new SqliteEventStore(path);
  await writer.appendToStream('a-1', numbered(3));

  const subscription = reader.subscribeToAll();
  const received: RecordedEvent[] = [];
  const done = (async () => {
    for await (const event of subscription) {
      received.push(event);
      if (received.length === 3) await writer.appendToStream('a-1', numbered(4, 3));
      if (received.length === 7) break;
    }
  })();
  await done;
  await subscription.close();
  t.deepEqual(
    received.map((e) => [e.position, e.revision]),
    [1, 2, 3, 4, 5, 6, 7].map((p) => [p, p - 1]),
  );
  await reader.close();
  await writer.close();
});

test('two connections racing on the same exact revision: one wins, the other gets WrongExpectedRevisionError', async (t) => {
  const path = await tempFile(t);
  const one = new SqliteEventStore(path);
  const two = new SqliteEventStore(path);
  await one.appendToStream('coins-u1', numbered(1));
  await one.appendToStream('coins-u1', numbered(1, 1), { expectedRevision: 0 });
  const error = await t.throwsAsync(two.appendToStream('coins-u1', numbered(1, 1), { expectedRevision: 0 }), {
    instanceOf: WrongExpectedRevisionError,
  });
  t.is(error?.actual, 1);
  t.is((await two.readStream('coins-u1')).length, 2);
  await one.close();
  await two.close();
});

test('an id recorded in another stream is refused, and nothing of the batch is written', async (t) => {
  const store = new SqliteEventStore(':memory:');
  const [first] = numbered(1);
  await store.appendToStream('a-1', [{ ...first!, id: 'f47ac10b-58cc-4372-a567-0e02b2c3d479' }]);
  const error = await t.throwsAsync(
    store.appendToStream('b-1', [{ ...first!, id: 'f47ac10b-58cc-4372-a567-0e02b2c3d479' }, ...numbered(1, 1)]),
  );
  t.regex(error?.message ?? '', /is in stream a-1/);
  t.deepEqual(await store.readStream('b-1'), []);
  await store.close();
});

test('a batch that only partly repeats recorded ids is not a retry: it is refused and writes nothing', async (t) => {
  const store = new SqliteEventStore(':memory:');
  const ids = ['6f1c1d0e-0000-4000-8000-000000000001', '6f1c1d0e-0000-4000-8000-000000000002', '6f1c1d0e-0000-4000-8000-000000000003'];
  const [a, b, c] = numbered(3).map((event, i) => ({ ...event, id: ids[i]! }));
  await store.appendToStream('a-1', [a!, b!]);
  await t.throwsAsync(store.appendToStream('a-1', [a!, c!]), { message: /not a retry/ });
  await t.throwsAsync(store.appendToStream('a-1', [c!, b!]), { message: /already recorded/ });
  t.deepEqual((await store.readStream('a-1')).map((e) => e.id), [ids[0], ids[1]]);
  await store.close();
});

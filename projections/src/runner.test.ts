import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@scriptorium/infra/eventstore/sqlite';
import { createLogger } from '@scriptorium/infra/log';
import { SqliteReadStore } from '@scriptorium/infra/readstore/sqlite';
import { DocumentBatch, type Projection } from './projection.ts';
import { ProjectionRunner } from './runner.ts';

const KEYS = 7;
const EVENTS = 6_000;

/** Counts events per key without any guard: applying an event twice, or skipping one, shows in the counts. */
const tally: Projection = {
  name: 'tally',
  collections: ['tally'],
  handles: ['Counted'],
  async applyBatch(events, tx) {
    const docs = new DocumentBatch<{ _id: string; n: number }>(tx.collection('tally'));
    for (const event of events) {
      const id = (event.data as { key: string }).key;
      const doc = await docs.get(id);
      docs.set({ _id: id, n: (doc?.n ?? 0) + 1 });
    }
    await docs.flush();
  },
  async apply() {
    throw new Error('tally applies batches');
  },
};

test('a catch-up batch the writer thread refuses after the runner moved on is applied again from the last commit: nothing lost or doubled', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'runner-writer-'));
  const events = new SqliteEventStore(join(dir, 'events.sqlite3'));
  const readFile = join(dir, 'read.sqlite3');
  const store = new SqliteReadStore(readFile);
  const runner = new ProjectionRunner(events, store, [tally], createLogger('silent', 'test'));
  const other = new Database(readFile);
  t.teardown(async () => {
    await runner.stop();
    other.close();
    await store.close();
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const expected = new Map<string, number>();
  for (let n = 0; n < EVENTS; n += 100) {
    const batch = Array.from({ length: 100 }, (_, i) => {
      const key = `k-${(n + i) % KEYS}`;
      expected.set(key, (expected.get(key) ?? 0) + 1);
      return { type: 'Counted', data: { key }, metadata: { at: '2026-01-01T00:00:00.000Z' } };
    });
    await events.appendToStream(`s-${n}`, batch);
  }
  const head = await events.headPosition();
  // Refuses the first write of "k-late", on the fourth page: the writer refuses it after the runner has gone on.
  other.exec(`CREATE TABLE IF NOT EXISTS "tally" (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
  other.exec(`CREATE TRIGGER refuse BEFORE INSERT ON "tally" WHEN NEW.id = 'k-late' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
  await events.appendToStream('late', [{ type: 'Counted', data: { key: 'k-late' }, metadata: { at: '2026-01-01T00:00:00.000Z' } }]);
  expected.set('k-late', 1);
  for (let n = 0; n < 2_000; n++) expected.set('k-0', (expected.get('k-0') ?? 0) + 1);
  await events.appendToStream(
    'after-late',
    Array.from({ length: 2_000 }, () => ({ type: 'Counted', data: { key: 'k-0' }, metadata: { at: '2026-01-01T00:00:00.000Z' } })),
  );
  const end = await events.headPosition();
  t.true(end > head);

  await runner.start();
  // Until the refused batch is reached a wait runs out (false); from then on it says why (stalled).
  let stalled: unknown;
  for (let attempt = 0; attempt < 300 && stalled === undefined; attempt++) {
    stalled = await runner.waitFor(end, 100).then(
      (reached) => (reached ? 'reached the end through a refused batch' : undefined),
      (error: unknown) => error,
    );
  }
  t.regex(String(stalled), /stalled/);
  other.exec('DROP TRIGGER refuse');
  t.true(await runner.waitFor(end, 10_000));

  const counts = new Map((await store.collection<{ _id: string; n: number }>('tally').find({})).map((doc) => [doc._id, doc.n]));
  t.deepEqual(Object.fromEntries([...counts].sort()), Object.fromEntries([...expected].sort()));
  t.is(await store.getCheckpoint('tally'), end);
});

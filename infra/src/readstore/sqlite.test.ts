import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileFilter, SqliteReadStore } from './sqlite.ts';

function tempStore() {
  const dir = mkdtempSync(join(tmpdir(), 'readstore-sqlite-'));
  const file = join(dir, 'read.sqlite3');
  const store = new SqliteReadStore(file);
  return {
    store,
    file,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('the read store file is in WAL mode', async (t) => {
  const { store, file, cleanup } = tempStore();
  await store.ping();
  const other = new Database(file, { readonly: true });
  t.is(other.pragma('journal_mode', { simple: true }), 'wal');
  other.close();
  await cleanup();
});

test('compiled filters are served by the expression index', async (t) => {
  const { store, file, cleanup } = tempStore();
  const items = store.collection('items');
  await items.ensureIndex({ fields: { 'owner.id': 1, day: 1 } });
  await items.put({ _id: 'a', owner: { id: 'u1' }, day: '2024-01-01' });
  const other = new Database(file, { readonly: true });
  const plan = (filter: Parameters<typeof compileFilter>[0]) => {
    const { sql, params } = compileFilter(filter);
    return (other.prepare(`EXPLAIN QUERY PLAN SELECT doc FROM "items" WHERE ${sql}`).all(...params) as { detail: string }[])
      .map((row) => row.detail)
      .join('; ');
  };
  t.regex(plan({ 'owner.id': 'u1' }), /USING INDEX items__owner\.id_1_day_1/);
  t.regex(plan({ 'owner.id': 'u1', day: { $gte: '2024-01-01', $lt: '2024-02-01' } }), /USING INDEX items__owner\.id_1_day_1 \(<expr>=\? AND <expr>>\? AND <expr><\?\)/);
  t.regex(plan({ 'owner.id': null }), /USING INDEX/);
  other.close();
  await cleanup();
});

test('calling the store itself inside its transaction fails at once instead of waiting on itself', async (t) => {
  const { store, cleanup } = tempStore();
  await t.throwsAsync(
    store.transaction(async () => {
      await store.collection('items').get('a');
    }),
    { message: /use the tx handle/ },
  );
  t.is(await store.collection('items').get('a'), null);
  await cleanup();
});

test('an index name reused with another definition is rejected', async (t) => {
  const { store, cleanup } = tempStore();
  const items = store.collection('items');
  await items.ensureIndex({ fields: { a: 1 }, name: 'by_key' });
  await t.throwsAsync(items.ensureIndex({ fields: { b: 1 }, name: 'by_key' }), { message: /another definition/ });
  await cleanup();
});

test(':memory: works', async (t) => {
  const store = new SqliteReadStore(':memory:');
  await store.collection('items').put({ _id: 'a' });
  t.is(await store.collection('items').count(), 1);
  await store.close();
});

test('bulk transactions read what earlier ones wrote while the writer thread commits it, and everyone sees it once flushed', async (t) => {
  const { store, file, cleanup } = tempStore();
  t.teardown(cleanup);
  const rounds = 40;
  for (let round = 1; round <= rounds; round++) {
    await store.transaction(
      async (tx) => {
        const tallies = tx.collection('tallies');
        await tallies.update('total', { $inc: { n: 1 } }, { upsert: true });
        const previous = await tallies.get(`round-${round - 1}`);
        await tallies.put({ _id: `round-${round}`, after: previous === null ? null : previous._id });
        if (round > 1) t.true(await tallies.delete(`round-${round - 1}`));
        await tx.setCheckpoint('tallies', round);
      },
      { bulk: true },
    );
  }
  await store.flushed();
  const other = new Database(file, { readonly: true });
  t.teardown(() => other.close());
  const docs = (other.prepare('SELECT doc FROM "tallies" ORDER BY id').all() as { doc: string }[]).map((row) => JSON.parse(row.doc) as unknown);
  t.deepEqual(docs, [{ _id: `round-${rounds}`, after: `round-${rounds - 1}` }, { _id: 'total', n: rounds }]);
  t.is(await store.getCheckpoint('tallies'), rounds);
});

test('a query inside a bulk transaction sees the writes before it, its own included', async (t) => {
  const { store, cleanup } = tempStore();
  t.teardown(cleanup);
  await store.transaction(async (tx) => tx.collection('items').put({ _id: 'a', owner: 'u1' }), { bulk: true });
  const counted = await store.transaction(
    async (tx) => {
      const items = tx.collection('items');
      await items.put({ _id: 'b', owner: 'u1' });
      const before = await items.count({ owner: 'u1' });
      await items.put({ _id: 'c', owner: 'u1' });
      await tx.setCheckpoint('items', 2);
      return [before, await items.count({ owner: 'u1' })];
    },
    { bulk: true },
  );
  t.deepEqual(counted, [2, 3]);
  await store.flushed();
  t.is(await store.collection('items').count(), 3);
  t.is(await store.getCheckpoint('items'), 2);
});

test('a bulk transaction the writer refuses after it resolved is told once, and the file keeps the one before it', async (t) => {
  const { store, cleanup } = tempStore();
  t.teardown(cleanup);
  await store.collection('users').ensureIndex({ fields: { name: 1 }, unique: true });
  const bulk = (id: string, position: number) =>
    store.transaction(
      async (tx) => {
        await tx.collection('users').put({ _id: id, name: id === 'b' ? 'ann' : id });
        await tx.setCheckpoint('users', position);
      },
      { bulk: true },
    );
  await bulk('ann', 1);
  // "b" takes the name "ann" again: refused by the unique index, but only in the writer thread.
  const [second, third] = await Promise.allSettled([bulk('b', 2), bulk('c', 3)]);
  t.is(second.status, 'fulfilled');
  // The third was computed on top of the second: refused with it, either at once or in the writer.
  const failure: unknown = third.status === 'rejected' ? third.reason : await store.flushed().then(() => undefined, (error: unknown) => error);
  t.is((failure as { code?: string } | undefined)?.code, 'SQLITE_CONSTRAINT_UNIQUE');
  const next = await store.transaction(async (tx) => tx.setCheckpoint('other', 1)).then(
    () => 'committed',
    (error: unknown) => error,
  );
  t.is(next, third.status === 'rejected' ? 'committed' : failure, 'the failure is told to exactly one transaction');
  t.is(await store.getCheckpoint('users'), 1);
  t.deepEqual(
    (await store.collection('users').find({})).map((doc) => doc._id),
    ['ann'],
  );
  await store.flushed();
  await bulk('c', 2);
  await store.flushed();
  t.deepEqual(
    (await store.collection('users').find({})).map((doc) => doc._id),
    ['ann', 'c'],
  );
});

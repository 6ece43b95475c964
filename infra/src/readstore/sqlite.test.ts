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

test('the file is in WAL mode', async (t) => {
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

import test from 'ava';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReadStore } from './index.ts';
import { MongoReadStore } from './mongo.ts';
import { PostgresReadStore } from './postgres.ts';
import { SqliteReadStore } from './sqlite.ts';

test('without MONGO_URL the store is SQLite at DATA_DIR/read.sqlite3', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'readstore-factory-'));
  const store = await createReadStore({ DATA_DIR: dir });
  t.true(store instanceof SqliteReadStore);
  t.true(existsSync(join(dir, 'read.sqlite3')));
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('with MONGO_URL the store is MongoDB (constructing it does not connect)', async (t) => {
  const store = await createReadStore({ MONGO_URL: 'mongodb://127.0.0.1:1/', MONGO_DB: 'x', DATA_DIR: '/nonexistent' });
  t.true(store instanceof MongoReadStore);
  await store.close();
});

test('with DATABASE_URL the store is PostgreSQL, unless MONGO_URL names MongoDB (constructing neither connects)', async (t) => {
  const postgres = await createReadStore({ DATABASE_URL: 'postgres://127.0.0.1:1/x', DATA_DIR: '/nonexistent' });
  t.true(postgres instanceof PostgresReadStore);
  await postgres.close();
  const mongo = await createReadStore({ DATABASE_URL: 'postgres://127.0.0.1:1/x', MONGO_URL: 'mongodb://127.0.0.1:1/', DATA_DIR: '/nonexistent' });
  t.true(mongo instanceof MongoReadStore);
  await mongo.close();
});

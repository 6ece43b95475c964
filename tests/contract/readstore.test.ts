import test from 'ava';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { MongoReadStore } from '@scriptorium/infra/readstore/mongo';
import { SqliteReadStore } from '@scriptorium/infra/readstore/sqlite';
import { readStoreContract } from './readstore.ts';

readStoreContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'readstore-contract-'));
  const store = new SqliteReadStore(join(dir, 'read.sqlite3'));
  return {
    store,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

const mongoUrl = process.env.MONGO_URL;
if (mongoUrl) {
  const probe = new MongoReadStore(mongoUrl, 'admin');
  const atomicTransactions = await probe.supportsTransactions().finally(() => probe.close());
  if (!atomicTransactions) console.log('readstore contract: MongoDB is standalone, so the tests that need transactions are skipped');
  readStoreContract(
    'mongo',
    async () => {
      // A database per test: dropping it is the cleanup, and concurrent tests cannot meet.
      const dbName = `readstore_contract_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
      const store = new MongoReadStore(mongoUrl, dbName);
      return {
        store,
        cleanup: async () => {
          await store.close();
          const client = new MongoClient(mongoUrl);
          try {
            await client.db(dbName).dropDatabase();
          } finally {
            await client.close();
          }
        },
      };
    },
    { atomicTransactions },
  );
} else {
  console.log('readstore contract: MongoDB suite skipped (MONGO_URL not set)');
  test.skip('readstore mongo: contract suite (MONGO_URL not set)', () => {});
}

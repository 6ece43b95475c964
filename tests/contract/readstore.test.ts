import test from 'ava';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { MongoReadStore } from '@scriptorium/infra/readstore/mongo';
import { PostgresReadStore } from '@scriptorium/infra/readstore/postgres';
import { SqliteReadStore } from '@scriptorium/infra/readstore/sqlite';
import { createScratchDatabase, postgresAnswers, postgresUrl } from './postgres.ts';
import { readStoreContract } from './readstore.ts';

// Probed before any test is declared: AVA takes declarations only while the file loads synchronously.
const postgresUp = await postgresAnswers(postgresUrl);

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
  const probe = new MongoReadStore(mongoUrl, 'admin', { allowStandalone: true });
  const atomicTransactions = await probe.supportsTransactions().finally(() => probe.close());
  if (!atomicTransactions) {
    console.log('readstore contract: MongoDB is standalone, so the tests that need transactions are skipped');
    test('readstore mongo: a standalone server is refused unless allowed', async (t) => {
      const store = new MongoReadStore(mongoUrl, 'admin');
      try {
        await t.throwsAsync(store.transaction(async () => undefined), { message: /standalone/ });
        await t.throwsAsync(store.ping(), { message: /MONGO_ALLOW_STANDALONE/ });
      } finally {
        await store.close();
      }
    });
  }
  readStoreContract(
    'mongo',
    async () => {
      // A database per test: dropping it is the cleanup, and concurrent tests cannot meet.
      const dbName = `readstore_contract_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
      const store = new MongoReadStore(mongoUrl, dbName, { allowStandalone: !atomicTransactions });
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

if (postgresUp) {
  // One database for this file, dropped at the end; the contract gives each test its own collections.
  const database = createScratchDatabase(postgresUrl, 'readstore');
  test.after.always(async () => (await database).drop());
  readStoreContract('postgres', async () => {
    const store = new PostgresReadStore((await database).url, { maxConnections: 3 });
    return { store, cleanup: () => store.close() };
  });
} else {
  console.log(`readstore contract: PostgreSQL suite skipped (nothing answers at ${new URL(postgresUrl).host}; set DATABASE_URL)`);
  test.skip('readstore postgres: contract suite (PostgreSQL not reachable)', () => {});
}

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { EsdbEventStore } from '@scriptorium/infra/eventstore/esdb';
import type { EventStore } from '@scriptorium/infra/eventstore/port';
import { PostgresEventStore } from '@scriptorium/infra/eventstore/postgres';
import { SqliteEventStore } from '@scriptorium/infra/eventstore/sqlite';
import { eventStoreContract } from './eventstore.ts';
import { createScratchDatabase, postgresAnswers, postgresUrl } from './postgres.ts';

// Probed before any test is declared: AVA takes declarations only while the file loads synchronously.
const postgresUp = await postgresAnswers(postgresUrl);

eventStoreContract('sqlite', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'scriptorium-eventstore-'));
  const store = new SqliteEventStore(join(dir, 'events.sqlite3'));
  return {
    store,
    cleanup: async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

const url = process.env.EVENTSTORE_URL;
if (url) {
  eventStoreContract('esdb', async () => {
    const store = new EsdbEventStore(url);
    return { store, cleanup: () => store.close() };
  }, { serverRecognisesRetries: true });
} else {
  console.log('eventstore contract: EventStoreDB suite skipped (EVENTSTORE_URL not set)');
  test.skip('esdb: EventStore contract (EVENTSTORE_URL not set)', () => {});
}

if (postgresUp) {
  // One database for this file, dropped at the end; each test still gets stores of its own.
  const database = createScratchDatabase(postgresUrl, 'eventstore');
  test.after.always(async () => (await database).drop());
  eventStoreContract('postgres', async () => {
    const { url: databaseUrl } = await database;
    const opened: EventStore[] = [];
    const open = () => {
      const store = new PostgresEventStore(databaseUrl, { maxConnections: 3 });
      opened.push(store);
      return store;
    };
    return {
      store: open(),
      another: async () => open(),
      cleanup: async () => {
        await Promise.all(opened.map((store) => store.close()));
      },
    };
  });
} else {
  console.log(`eventstore contract: PostgreSQL suite skipped (nothing answers at ${new URL(postgresUrl).host}; set DATABASE_URL)`);
  test.skip('postgres: EventStore contract (PostgreSQL not reachable)', () => {});
}

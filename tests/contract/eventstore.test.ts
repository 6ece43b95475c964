import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { EsdbEventStore } from '@scriptorium/infra/eventstore/esdb';
import { SqliteEventStore } from '@scriptorium/infra/eventstore/sqlite';
import { eventStoreContract } from './eventstore.ts';

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
  });
} else {
  console.log('eventstore contract: EventStoreDB suite skipped (EVENTSTORE_URL not set)');
  test.skip('esdb: EventStore contract (EVENTSTORE_URL not set)', () => {});
}

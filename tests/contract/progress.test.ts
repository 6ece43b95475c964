import test from 'ava';
import pg from 'pg';
import { PostgresProgressSignal } from '@scriptorium/infra/progress/postgres';
import { SqliteReadStore } from '@scriptorium/infra/readstore/sqlite';
import { RemoteProjectionProgress } from '@scriptorium/projections/runner';
import { createScratchDatabase, postgresAnswers, postgresUrl } from './postgres.ts';

// Read-your-writes in split roles: an api process waits on the projector's announcements.

const postgresUp = await postgresAnswers(postgresUrl);

/** A read store that counts checkpoint reads, so that a test can tell a poll from a notification. */
class CountingReadStore extends SqliteReadStore {
  reads = 0;
  override getCheckpoint(projection: string): Promise<number> {
    this.reads += 1;
    return super.getCheckpoint(projection);
  }
}

const NAMES = ['users', 'chats'];

async function moveCheckpoints(store: SqliteReadStore, position: number): Promise<void> {
  await store.transaction(async (tx) => {
    for (const name of NAMES) await tx.setCheckpoint(name, position);
  });
}

/** Resolves once `done` holds, checked on every turn of the event loop. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}

if (postgresUp) {
  // A database per test: announcements reach every listener of a database, and the tests run at once.
  const setup = async (t: { teardown(fn: () => Promise<void>): void }) => {
    const database = await createScratchDatabase(postgresUrl, 'progress');
    const { url } = database;
    const store = new CountingReadStore(':memory:');
    const heard = new PostgresProgressSignal(url);
    const projector = new PostgresProgressSignal(url);
    t.teardown(async () => {
      await Promise.all([heard.close(), projector.close()]);
      await store.close();
      await database.drop();
    });
    return { url, store, heard, projector, remote: new RemoteProjectionProgress(store, NAMES, heard) };
  };

  test('a waiter reads the checkpoints once, then is answered by the announcement, not by polling', async (t) => {
    const { store, projector, remote } = await setup(t);
    const waited = remote.waitFor(10, 60_000);
    await until(() => store.reads === NAMES.length);
    await moveCheckpoints(store, 10);
    await projector.announce(10);
    t.true(await waited);
    t.is(store.reads, NAMES.length);
    // Already there: answered from the checkpoints at once.
    t.true(await remote.waitFor(10, 60_000));
  });

  test('a position an announcement already covered is answered without reading the checkpoints', async (t) => {
    const { store, heard, projector, remote } = await setup(t);
    t.true(await remote.waitFor(0, 60_000));
    await until(() => heard.listening);
    const before = store.reads;
    const waited = remote.waitFor(50, 60_000);
    // Answered by the announcement alone: the checkpoints it read stay at 0.
    await until(() => store.reads === before + NAMES.length);
    await projector.announce(50);
    t.true(await waited);
    const reads = store.reads;
    t.true(await remote.waitFor(50, 60_000));
    t.true(await remote.waitFor(42, 60_000));
    t.is(store.reads, reads);
    // Beyond the announcement, the checkpoints are read again.
    t.false(await remote.waitFor(51, 50));
    t.is(store.reads, reads + NAMES.length);
  });

  test('an announcement short of the position does not answer; a later one does', async (t) => {
    const { heard, projector, remote } = await setup(t);
    let answered = false;
    const waited = remote.waitFor(20, 60_000).then((ok) => ((answered = true), ok));
    const short = remote.waitFor(19, 60_000);
    // An announcement made before anyone listens reaches no one (the waiters' first read covers that case).
    await until(() => heard.listening);
    await projector.announce(19);
    t.true(await short);
    t.false(answered);
    await projector.announce(21);
    t.true(await waited);
  });

  test('while the listening connection is lost, the checkpoints are polled; the signal then listens again', async (t) => {
    const { url, store, heard, projector, remote } = await setup(t);
    t.true(await remote.waitFor(0, 60_000));
    t.true(heard.listening);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    t.teardown(() => admin.end());
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN scriptorium_progress'`);
    await until(() => !heard.listening);

    const waited = remote.waitFor(30, 60_000);
    await moveCheckpoints(store, 30);
    t.true(await waited, 'answered by the poll, with no announcement');

    await until(() => heard.listening);
    const next = remote.waitFor(40, 60_000);
    await projector.announce(40);
    t.true(await next);
  });
} else {
  console.log(`progress signal: skipped (nothing answers at ${new URL(postgresUrl).host}; set DATABASE_URL)`);
  test.skip('postgres: progress signal (PostgreSQL not reachable)', () => {});
}

import { randomUUID } from 'node:crypto';
import test from 'ava';
import pg from 'pg';
import { WrongExpectedRevisionError, type NewEvent, type RecordedEvent } from '@scriptorium/infra/eventstore/port';
import { PostgresEventStore } from '@scriptorium/infra/eventstore/postgres';
import { createScratchDatabase, postgresAnswers, postgresUrl } from './postgres.ts';

// What the shared contract (./eventstore.ts) cannot say about every engine: appends run in parallel,
// so commits come out of position order, and readers of `$all` must still never skip.

const postgresUp = await postgresAnswers(postgresUrl);

const event = (n: number): NewEvent => ({ type: 'Numbered', data: { n }, metadata: { at: '2025-01-01T00:00:00.000Z' } });

if (postgresUp) {
  const database = createScratchDatabase(postgresUrl, 'pgevents');
  test.after.always(async () => (await database).drop());

  const openStore = async (t: { teardown(fn: () => Promise<void>): void }) => {
    const store = new PostgresEventStore((await database).url, { maxConnections: 4 });
    t.teardown(() => store.close());
    return store;
  };

  const openClient = async (t: { teardown(fn: () => Promise<void>): void }) => {
    const client = new pg.Client({ connectionString: (await database).url });
    client.on('error', () => undefined);
    await client.connect();
    t.teardown(() => client.end());
    return client;
  };

  /** Resolves once an append, having taken its position, waits for a lock held by the backend `pid`. */
  async function appendBlockedBy(observer: pg.Client, pid: number): Promise<void> {
    for (;;) {
      const { rows } = await observer.query<{ blocked: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid)) AND query LIKE '%scriptorium_append%') AS blocked`,
        [pid],
      );
      if (rows[0]!.blocked) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  test('an append whose earlier position commits after a later one is read in position order, never skipped', async (t) => {
    const store = await openStore(t);
    const blocker = await openClient(t);
    const observer = await openClient(t);
    const early = `early-${randomUUID()}`;
    const late = `late-${randomUUID()}`;
    const after = await store.headPosition();

    // Another transaction holds (early, revision 0) uncommitted: the store's append to `early` takes
    // its position, then waits at the unique index until that transaction ends.
    await blocker.query('BEGIN');
    await blocker.query(`INSERT INTO events (position, id, stream_id, revision, type, data, metadata) VALUES (-1, $1, $2, 0, 'Blocker', '{}', '{}')`, [randomUUID(), early]);
    const [{ pid }] = (await blocker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows as [{ pid: number }];
    const earlyAppend = store.appendToStream(early, [event(1)]);
    await appendBlockedBy(observer, pid);
    // Takes a later position and commits while the earlier one is still in flight.
    const lateAppend = await store.appendToStream(late, [event(2)]);

    const subscription = store.subscribeToAll({ after });
    const delivered = (async () => {
      const mine: RecordedEvent[] = [];
      for await (const recorded of subscription) {
        if (recorded.streamId === early || recorded.streamId === late) mine.push(recorded);
        // The later position ends the wait: an earlier one not delivered by then was skipped.
        if (recorded.streamId === late) break;
      }
      await subscription.close();
      return mine;
    })();
    const read = store.readAll({ after });
    const head = store.headPosition();

    await blocker.query('ROLLBACK');
    const earlyAppended = await earlyAppend;
    t.true(earlyAppended.position < lateAppend.position, 'the early append took the earlier position');

    const expected = [early, late];
    t.deepEqual((await delivered).map((e) => e.streamId), expected);
    t.deepEqual((await read).filter((e) => e.streamId === early || e.streamId === late).map((e) => e.streamId), expected);
    t.true((await head) >= lateAppend.position);
  });

  test('of concurrent appends to one stream from two stores, exactly one at each exact revision wins; "any" never conflicts', async (t) => {
    const [first, second] = [await openStore(t), await openStore(t)];
    const id = `race-${randomUUID()}`;
    await first.appendToStream(id, [event(0)]);
    const attempts = await Promise.allSettled([first, second, first, second].map((store, i) => store.appendToStream(id, [event(i + 1)], { expectedRevision: 0 })));
    t.is(attempts.filter((a) => a.status === 'fulfilled').length, 1);
    for (const attempt of attempts) {
      if (attempt.status === 'rejected') {
        t.true(attempt.reason instanceof WrongExpectedRevisionError);
        t.is((attempt.reason as WrongExpectedRevisionError).actual, 1);
      }
    }

    await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? first : second).appendToStream(id, [event(10 + i)], { expectedRevision: 'any' })));
    t.deepEqual(
      (await second.readStream(id)).map((e) => e.revision),
      Array.from({ length: 10 }, (_, i) => i),
    );
  });
} else {
  console.log(`postgres event store: skipped (nothing answers at ${new URL(postgresUrl).host}; set DATABASE_URL)`);
  test.skip('postgres: out-of-order commits (PostgreSQL not reachable)', () => {});
}

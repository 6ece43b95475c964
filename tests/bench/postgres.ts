/**
 * PostgreSQL beside SQLite, both measured in this run so that the ratio compares like with like on
 * this machine: append rates (batches of 100, single-event commits) of PostgresEventStore against
 * SqliteEventStore, and the rebuild of every projection from the same seeded log, PostgreSQL log
 * into the PostgreSQL read store against SQLite into SQLite. Runs in a scratch database it drops.
 * Skipped, with the reason, when no PostgreSQL answers.
 * Run: npx tsx tests/bench/postgres.ts
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { EventStore, NewEvent } from '@scriptorium/infra/eventstore/port';
import { PostgresEventStore } from '@scriptorium/infra/eventstore/postgres';
import { SqliteEventStore } from '@scriptorium/infra/eventstore/sqlite';
import { createLogger } from '@scriptorium/infra/log';
import type { ReadStore } from '@scriptorium/infra/readstore/port';
import { PostgresReadStore } from '@scriptorium/infra/readstore/postgres';
import { SqliteReadStore } from '@scriptorium/infra/readstore/sqlite';
import { createProjections } from '@scriptorium/projections/index';
import { ProjectionRunner } from '@scriptorium/projections/runner';
import { createScratchDatabase, postgresAnswers, postgresUrl } from '../contract/postgres.ts';
import { buildLog } from './projections.ts';
import { sized } from './short.ts';

const STREAMS = sized(50, 5);
const TEXT = '事件溯源 event sourcing keeps every change as an immutable fact; projections rebuild the present from it.';
const SCENARIOS = [
  { name: 'batches of 100', batchSize: 100, events: sized(10_000, 500) },
  { name: 'single-event commits', batchSize: 1, events: sized(1_000, 50) },
];

const makeEvent = (n: number): NewEvent => ({
  id: randomUUID(),
  type: 'MessageChunksAppended',
  data: { chunk: n, text: TEXT },
  metadata: { at: new Date(1_700_000_000_000 + n).toISOString(), userId: 'user-bench' },
});

const fmt = (rate: number) => `${Math.round(rate).toLocaleString('en-US')} events/s`;

async function appendRate(store: EventStore, batchSize: number, total: number): Promise<number> {
  const batches = Array.from({ length: total / batchSize }, (_, b) => Array.from({ length: batchSize }, (_, i) => makeEvent(b * batchSize + i)));
  const revisions = new Array<number>(STREAMS).fill(-1);
  const prefix = randomUUID();
  const started = performance.now();
  for (const [b, events] of batches.entries()) {
    const stream = b % STREAMS;
    const expected = revisions[stream]!;
    await store.appendToStream(`bench-${prefix}-${stream}`, events, { expectedRevision: expected < 0 ? 'no_stream' : expected });
    revisions[stream] = expected + batchSize;
  }
  return total / ((performance.now() - started) / 1000);
}

async function rebuildRate(events: EventStore, readStore: ReadStore): Promise<number> {
  const total = await events.headPosition();
  const projections = createProjections({ timeZone: 'Asia/Shanghai' });
  for (const projection of projections) await readStore.reset(projection.name, projection.collections);
  const started = performance.now();
  await new ProjectionRunner(events, readStore, projections, createLogger('silent', 'bench')).catchUp();
  return total / ((performance.now() - started) / 1000);
}

export async function run(): Promise<void> {
  if (!(await postgresAnswers(postgresUrl))) {
    console.log(`postgres: skipped (nothing answers at ${new URL(postgresUrl).host}; set DATABASE_URL)`);
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'scriptorium-bench-postgres-'));
  const database = await createScratchDatabase(postgresUrl, 'bench');
  try {
    console.log('postgres: PostgreSQL adapters against the SQLite ones (the baseline), measured in this run');
    for (const scenario of SCENARIOS) {
      const sqlite = new SqliteEventStore(join(dir, `append-${scenario.batchSize}.sqlite3`));
      const sqliteRate = await appendRate(sqlite, scenario.batchSize, scenario.events);
      await sqlite.close();
      const postgres = new PostgresEventStore(database.url);
      const postgresRate = await appendRate(postgres, scenario.batchSize, scenario.events);
      await postgres.close();
      console.log(`append, ${scenario.name} (${scenario.events.toLocaleString('en-US')} events)`);
      console.log(`  SqliteEventStore (baseline): ${fmt(sqliteRate)}`);
      console.log(`  PostgresEventStore:          ${fmt(postgresRate)}`);
      console.log(`  ratio postgres/sqlite:       ${(postgresRate / sqliteRate).toFixed(2)}×`);
    }

    // The same seeded log in both engines, on stores of its own so the append runs above do not count.
    const logDatabase = await createScratchDatabase(postgresUrl, 'benchlog');
    try {
      const sqliteEvents = new SqliteEventStore(join(dir, 'log.sqlite3'));
      const sqliteRead = new SqliteReadStore(join(dir, 'read.sqlite3'));
      const postgresEvents = new PostgresEventStore(logDatabase.url);
      const postgresRead = new PostgresReadStore(logDatabase.url);
      try {
        await buildLog(sqliteEvents);
        await buildLog(postgresEvents);
        const total = await sqliteEvents.headPosition();
        const sqliteRate = await rebuildRate(sqliteEvents, sqliteRead);
        const postgresRate = await rebuildRate(postgresEvents, postgresRead);
        console.log(`projection rebuild (${total.toLocaleString('en-US')} events, every projection)`);
        console.log(`  SQLite log → SQLite read store (baseline): ${fmt(sqliteRate)}`);
        console.log(`  PostgreSQL log → PostgreSQL read store:    ${fmt(postgresRate)}`);
        console.log(`  ratio postgres/sqlite:                     ${(postgresRate / sqliteRate).toFixed(2)}×`);
      } finally {
        await Promise.all([sqliteEvents.close(), sqliteRead.close(), postgresEvents.close(), postgresRead.close()]);
      }
    } finally {
      await logDatabase.drop();
    }
  } finally {
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await run();

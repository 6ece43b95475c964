/**
 * Concurrent writers on the PostgreSQL event log (issue 31, item 1): single-event appends by 1 and by
 * 8 concurrent writers, each beside its baseline measured in the same run, raw single-row INSERTs
 * (one autocommit statement each) into the same table by as many connections. Targets: 8 writers
 * ≥ 0.6× raw inserts with 8 connections, and 8 writers faster than 1. Rounds alternate store and raw
 * so a load change on the machine falls on both; the median round is printed. Beside each rate, the
 * CPU per event of the PostgreSQL backends and of the client side, which a busy disk does not hide.
 * Run: npx tsx tests/bench/postgresWriters.ts
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { PostgresEventStore } from '@scriptorium/infra/eventstore/postgres';
import { createScratchDatabase, postgresAnswers, postgresUrl, type ScratchDatabase } from '../contract/postgres.ts';
import { CpuAccount } from './cpu.ts';
import { sized } from './short.ts';

const EVENTS = sized(1_600, 160);
const ROUNDS = sized(3, 1);
const TEXT = '事件溯源 event sourcing keeps every change as an immutable fact; projections rebuild the present from it.';

const payload = (n: number) => ({
  data: JSON.stringify({ chunk: n, text: TEXT }),
  metadata: JSON.stringify({ at: new Date(1_700_000_000_000 + n).toISOString(), userId: 'user-bench' }),
});

interface Measured {
  /** Events per second. */
  rate: number;
  /** CPU per event, in µs, of the PostgreSQL backends serving the writers and of this process (the client side). */
  postgresUs: number;
  clientUs: number;
}

/**
 * Runs `writers` loops at once, each writing its share of EVENTS one at a time; the rate, and the CPU
 * spent on each event: on a loaded machine the rate follows the disk's flushes, which the CPU does not.
 */
async function rate(database: ScratchDatabase, writers: number, write: (writer: number, n: number) => Promise<unknown>): Promise<Measured> {
  const share = EVENTS / writers;
  const cpu = new CpuAccount({}, database);
  await cpu.start();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      for (let n = 0; n < share; n++) await write(writer, n);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const spent = await cpu.spent();
  return { rate: EVENTS / seconds, postgresUs: ((spent.postgres ?? 0) * 1000) / EVENTS, clientUs: ((spent.bench ?? 0) * 1000) / EVENTS };
}

async function storeRate(database: ScratchDatabase, writers: number): Promise<Measured> {
  const { url } = database;
  // One connection more than writers: the store sends its NOTIFYs on a pooled connection too.
  const store = new PostgresEventStore(url, { maxConnections: writers + 1 });
  try {
    // The schema check and the pool's first connections are not what is measured.
    await Promise.all(Array.from({ length: writers }, () => store.appendToStream(`warm-${randomUUID()}`, [{ type: 'Warm', data: {}, metadata: { at: '' } }])));
    const prefix = randomUUID();
    return await rate(database, writers, (writer, n) => {
      const { data, metadata } = payload(n);
      return store.appendToStream(`bench-${prefix}-${writer}`, [{ type: 'MessageChunksAppended', data: JSON.parse(data), metadata: JSON.parse(metadata) }], {
        expectedRevision: n === 0 ? 'no_stream' : n - 1,
      });
    });
  } finally {
    await store.close();
  }
}

async function rawRate(database: ScratchDatabase, writers: number): Promise<Measured> {
  const { url } = database;
  const clients = await Promise.all(
    Array.from({ length: writers }, async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    }),
  );
  try {
    const prefix = randomUUID();
    return await rate(database, writers, (writer, n) => {
      const { data, metadata } = payload(n);
      return clients[writer]!.query('INSERT INTO events (id, stream_id, revision, type, data, metadata) VALUES ($1, $2, $3, $4, $5, $6)', [
        randomUUID(),
        `raw-${prefix}-${writer}`,
        n,
        'MessageChunksAppended',
        data,
        metadata,
      ]);
    });
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (value: number) => `${Math.round(value).toLocaleString('en-US')} events/s`;

export async function run(): Promise<void> {
  if (!(await postgresAnswers(postgresUrl))) {
    console.log(`postgres writers: skipped (nothing answers at ${new URL(postgresUrl).host}; set DATABASE_URL)`);
    return;
  }
  const database = await createScratchDatabase(postgresUrl, 'benchwriters');
  try {
    // Creates the table, so that the raw inserts write into the store's own schema.
    const setup = new PostgresEventStore(database.url);
    await setup.headPosition();
    await setup.close();

    const results = new Map<string, Measured[]>();
    const record = (name: string, value: Measured) => results.set(name, [...(results.get(name) ?? []), value]);
    for (let round = 0; round < ROUNDS; round++) {
      for (const writers of [1, 8]) {
        record(`raw ${writers}`, await rawRate(database, writers));
        record(`store ${writers}`, await storeRate(database, writers));
      }
    }
    const figure = (name: string, of: keyof Measured = 'rate') => median(results.get(name)!.map((measured) => measured[of]));
    const cpu = (name: string) => `PostgreSQL ${Math.round(figure(name, 'postgresUs'))} µs + client ${Math.round(figure(name, 'clientUs'))} µs`;
    console.log(`postgres writers: single-event appends, ${EVENTS.toLocaleString('en-US')} per run, median of ${ROUNDS} alternating rounds`);
    for (const writers of [1, 8]) {
      console.log(`  ${writers} writer${writers > 1 ? 's' : ' '}: raw INSERTs (baseline) ${fmt(figure(`raw ${writers}`))}, PostgresEventStore ${fmt(figure(`store ${writers}`))}, ratio ${(figure(`store ${writers}`) / figure(`raw ${writers}`)).toFixed(2)}×`);
      console.log(`    CPU per event: raw ${cpu(`raw ${writers}`)}; store ${cpu(`store ${writers}`)}`);
    }
    console.log(`  8 writers against raw INSERTs by 8 connections: ${(figure('store 8') / figure('raw 8')).toFixed(2)}× (target ≥ 0.60×)`);
    console.log(`  8 writers against 1 writer:                    ${(figure('store 8') / figure('store 1')).toFixed(2)}× (target > 1.00×)`);
  } finally {
    await database.drop();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await run();

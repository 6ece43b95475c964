/**
 * SqliteEventStore against raw better-sqlite3 INSERTs of the same rows, with the same pragmas, the
 * same schema and one transaction per batch. Prints events/s and the ratio store/raw (target ≥ 0.5×).
 * Run: npx tsx tests/bench/eventstore.ts
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import type { NewEvent } from '@scriptorium/infra/eventstore/port';
import { SqliteEventStore } from '@scriptorium/infra/eventstore/sqlite';
import { sized } from './short.ts';

const STREAMS = sized(100, 10);
const TEXT = '事件溯源 event sourcing keeps every change as an immutable fact; projections rebuild the present from it.';

interface Scenario {
  name: string;
  batchSize: number;
  events: number;
  note?: string;
}

const SCENARIOS: Scenario[] = [
  { name: 'batches of 100', batchSize: 100, events: sized(100_000, 2_000) },
  {
    name: 'single-event commits',
    batchSize: 1,
    events: sized(2_000, 100),
    note: '2k events, not 100k: every commit is an fsync under synchronous=FULL, so this measures the disk',
  },
];

function makeEvent(n: number): NewEvent {
  return {
    id: randomUUID(),
    type: 'MessageChunksAppended',
    data: { chunk: n, text: TEXT },
    metadata: { at: new Date(1_700_000_000_000 + n).toISOString(), correlationId: 'bench-correlation', userId: 'user-bench' },
  };
}

function openRaw(path: string) {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.exec(`CREATE TABLE events (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    stream_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    metadata TEXT NOT NULL,
    UNIQUE (stream_id, revision)
  )`);
  const insert = db.prepare('INSERT INTO events (id, stream_id, revision, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)');
  const appendBatch = db.transaction((streamId: string, firstRevision: number, events: NewEvent[]) => {
    let revision = firstRevision;
    for (const event of events) {
      insert.run(event.id!, streamId, revision++, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata));
    }
  });
  return { db, appendBatch };
}

/** Both sides get the same freshly built events, built before the clock starts; only the write path is timed. */
async function measure(
  scenario: Scenario,
  append: (streamId: string, expectedRevision: number, events: NewEvent[]) => Promise<void> | void,
): Promise<number> {
  const batches = Array.from({ length: scenario.events / scenario.batchSize }, (_, b) =>
    Array.from({ length: scenario.batchSize }, (_, i) => makeEvent(b * scenario.batchSize + i)),
  );
  const revisions = new Array<number>(STREAMS).fill(-1);
  const started = performance.now();
  for (const [b, events] of batches.entries()) {
    const stream = b % STREAMS;
    await append(`bench-${stream}`, revisions[stream]!, events);
    revisions[stream] = revisions[stream]! + scenario.batchSize;
  }
  return scenario.events / ((performance.now() - started) / 1000);
}

async function runScenario(dir: string, scenario: Scenario): Promise<void> {
  const raw = openRaw(join(dir, `raw-${scenario.batchSize}.sqlite3`));
  const rawRate = await measure(scenario, (streamId, expected, events) => raw.appendBatch(streamId, expected + 1, events));
  raw.db.close();

  const store = new SqliteEventStore(join(dir, `store-${scenario.batchSize}.sqlite3`));
  const storeRate = await measure(scenario, async (streamId, expected, events) => {
    await store.appendToStream(streamId, events, { expectedRevision: expected < 0 ? 'no_stream' : expected });
  });
  await store.close();

  const fmt = (rate: number) => `${Math.round(rate).toLocaleString('en-US')} events/s`;
  console.log(`${scenario.name} (${scenario.events.toLocaleString('en-US')} events)${scenario.note ? ` — ${scenario.note}` : ''}`);
  console.log(`  raw better-sqlite3: ${fmt(rawRate)}`);
  console.log(`  SqliteEventStore:   ${fmt(storeRate)}`);
  console.log(`  ratio store/raw:    ${(storeRate / rawRate).toFixed(2)}× (target ≥ 0.5×)`);
}

export async function run(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'scriptorium-bench-eventstore-'));
  try {
    console.log('eventstore: SqliteEventStore vs raw INSERTs (WAL, synchronous=FULL, one transaction per batch, exact expected revisions)');
    for (const scenario of SCENARIOS) await runScenario(dir, scenario);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await run();

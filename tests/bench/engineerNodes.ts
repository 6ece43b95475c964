/**
 * Engineer node paging: the same cursor page (50 nodes, newest first) read from a session of 1 000
 * nodes and one of 100 000, in one SQLite read store filled through the engineer projection. Pages
 * are taken at random depths of each session; the median per page is compared, and so is offset
 * paging (`skip`) at the same depths, whose cost grows with the depth. Correctness is checked
 * (each page has 50 nodes, in order); timings are printed, not asserted.
 * Run: npx tsx tests/bench/engineerNodes.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import { SqliteReadStore } from '@scriptorium/infra/readstore/sqlite';
import type { EngineerNode } from '@scriptorium/domain/protocol/engineer';
import { ENGINEER_NODES, engineerProjection, nodePage, nodeSortKey, type EngineerNodeDoc } from '@scriptorium/projections/engineer';
import { applyToProjection } from '@scriptorium/projections/projection';
import { sized } from './short.ts';

const PAGE = 50;
const SAMPLES = sized(200, 20);
const LARGE = sized(100_000, 5_000);
const BATCH = 500;
const START = Date.UTC(2026, 0, 1);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function fill(store: SqliteReadStore, sessionId: string, count: number, position: { next: number }): Promise<void> {
  const events: RecordedEvent[] = [{ id: `${sessionId}-c`, streamId: `engineer-${sessionId}`, type: 'EngineerSessionCreated', data: { sessionId, ownerId: 'u1', title: sessionId, taskDescription: '', source: 'api', at: new Date(START).toISOString() }, metadata: { at: new Date(START).toISOString() }, revision: 0, position: position.next++ }];
  for (let from = 0; from < count; from += BATCH) {
    const nodes: EngineerNode[] = Array.from({ length: Math.min(BATCH, count - from) }, (_, index) => {
      const n = from + index;
      return { id: `n${n}`, parent_id: null, status: 'completed', timestamp: new Date(START + n * 1000).toISOString(), node_type: 'output', payload: { stream: 'combined', text: `line ${n}` } };
    });
    const at = new Date(START + from * 1000).toISOString();
    events.push({ id: `${sessionId}-${from}`, streamId: `engineer-${sessionId}`, type: 'EngineerNodesAppended', data: { sessionId, ownerId: 'u1', at, nodes }, metadata: { at }, revision: events.length, position: position.next++ });
  }
  for (let index = 0; index < events.length; index += 20) await store.transaction((tx) => applyToProjection(engineerProjection, events.slice(index, index + 20), tx));
}

/** Median ms per page at `SAMPLES` random depths, by cursor and by offset. */
async function measure(store: SqliteReadStore, sessionId: string, count: number): Promise<{ cursor: number; offset: number }> {
  const nodes = store.collection<EngineerNodeDoc>(ENGINEER_NODES);
  const cursorTimes: number[] = [];
  const offsetTimes: number[] = [];
  for (let sample = 0; sample < SAMPLES; sample++) {
    const depth = Math.floor(Math.random() * (count - PAGE));
    const newest = count - 1 - depth;
    const after = nodeSortKey(new Date(START + (newest + 1) * 1000).toISOString(), `n${newest + 1}`);
    let started = performance.now();
    const page = await nodePage(nodes, sessionId, after, 'down', PAGE);
    cursorTimes.push(performance.now() - started);
    if (page.docs.length !== PAGE || page.docs[0]!.id !== `n${newest}`) throw new Error(`cursor page at depth ${depth} is wrong: ${page.docs[0]?.id}`);
    started = performance.now();
    const skipped = await nodes.find({ session_id: sessionId }, { sort: { sort_key: -1, _id: -1 }, skip: depth, limit: PAGE });
    offsetTimes.push(performance.now() - started);
    if (skipped[0]!.id !== `n${newest}`) throw new Error(`offset page at depth ${depth} is wrong`);
  }
  return { cursor: median(cursorTimes), offset: median(offsetTimes) };
}

export async function run(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-engineer-'));
  const store = new SqliteReadStore(join(dir, 'read.db'));
  try {
    await engineerProjection.setup!(store);
    const position = { next: 1 };
    let started = performance.now();
    await fill(store, 'small', 1_000, position);
    await fill(store, 'large', LARGE, position);
    console.log(`filled ${(1_000 + LARGE).toLocaleString('en-US')} nodes through the projection in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    started = performance.now();
    const small = await measure(store, 'small', 1_000);
    const large = await measure(store, 'large', LARGE);
    console.log(`median per page of ${PAGE}, ${SAMPLES} random depths each (${((performance.now() - started) / 1000).toFixed(1)} s):`);
    console.log(`  cursor  1k: ${small.cursor.toFixed(3)} ms   ${LARGE / 1000}k: ${large.cursor.toFixed(3)} ms   ratio ${(large.cursor / small.cursor).toFixed(2)}×`);
    console.log(`  offset  1k: ${small.offset.toFixed(3)} ms   ${LARGE / 1000}k: ${large.offset.toFixed(3)} ms   ratio ${(large.offset / small.offset).toFixed(2)}×`);
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();

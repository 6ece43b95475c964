import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import test from 'ava';
import { WrongExpectedRevisionError, type RecordedEvent } from '@scriptorium/infra/eventstore/port';
import { SqliteEventStore } from '@scriptorium/infra/eventstore/sqlite';
import { owned } from '../support/children.ts';

const writer = fileURLToPath(new URL('./eventstore-crash-writer.ts', import.meta.url));
const STREAMS = ['burst-a', 'burst-b', 'burst-c'];
const ROUNDS = 4;

interface Burst {
  batchId: string;
  size: number;
  index: number;
}

/** Runs the writer until it has acknowledged `batches` batches, then SIGKILLs it; returns every acknowledged batch id. */
function runAndKill(path: string, runId: string, batches: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = owned(spawn(process.execPath, ['--import', 'tsx', writer, path, runId], { stdio: ['ignore', 'pipe', 'pipe'] }));
    const acknowledged: string[] = [];
    let pending = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        acknowledged.push(line.split(' ')[0]!);
        if (acknowledged.length === batches) child.kill('SIGKILL');
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (signal === 'SIGKILL') resolve(acknowledged);
      else reject(new Error(`writer ${runId} exited with ${code ?? signal}: ${stderr}`));
    });
  });
}

test('kill -9 during bursts of appends: batches are all-or-nothing, acknowledged ones survive, appending resumes', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'scriptorium-crash-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'events.sqlite3');

  const acknowledged = new Set<string>();
  for (let round = 0; round < ROUNDS; round++) {
    // Each run reopens the file left by a killed one and must carry on from the revisions it holds.
    for (const batchId of await runAndKill(path, `run${round}`, 60 + round * 25)) acknowledged.add(batchId);
  }

  const probe = new Database(path, { readonly: true });
  t.is(probe.pragma('integrity_check', { simple: true }), 'ok');
  probe.close();

  const store = new SqliteEventStore(path);
  const all = await store.readAll();
  for (let i = 1; i < all.length; i++) {
    if (all[i]!.position <= all[i - 1]!.position) t.fail(`position ${all[i]!.position} after ${all[i - 1]!.position}`);
  }

  const batches = new Map<string, RecordedEvent[]>();
  for (const event of all) {
    const { batchId } = event.data as Burst;
    batches.set(batchId, [...(batches.get(batchId) ?? []), event]);
  }
  for (const [batchId, events] of batches) {
    const { size } = events[0]!.data as Burst;
    t.is(events.length, size, `batch ${batchId} is torn`);
    t.deepEqual(
      events.map((e) => (e.data as Burst).index),
      events.map((_, i) => i),
      `batch ${batchId} is out of order`,
    );
    t.true(
      events.every((e, i) => e.streamId === events[0]!.streamId && e.revision === events[0]!.revision + i),
      `batch ${batchId} is not contiguous in its stream`,
    );
  }
  const missing = [...acknowledged].filter((batchId) => !batches.has(batchId));
  t.deepEqual(missing, [], 'acknowledged batches were lost');
  // A batch may have committed in the instant between its commit and its acknowledgement line: at most one per kill.
  t.true(batches.size - acknowledged.size <= ROUNDS);
  t.true(acknowledged.size >= 60 * ROUNDS);

  for (const streamId of STREAMS) {
    const events = await store.readStream(streamId);
    t.deepEqual(
      events.map((e) => e.revision),
      events.map((_, i) => i),
      `${streamId} has a revision gap`,
    );
    const last = events.length - 1;
    const next = await store.appendToStream(streamId, [{ type: 'AfterCrash', data: {}, metadata: { at: new Date().toISOString() } }], {
      expectedRevision: last,
    });
    t.is(next.nextExpectedRevision, last + 1);
    await t.throwsAsync(
      store.appendToStream(streamId, [{ type: 'Stale', data: {}, metadata: { at: new Date().toISOString() } }], { expectedRevision: last }),
      { instanceOf: WrongExpectedRevisionError },
    );
  }
  await store.close();
});

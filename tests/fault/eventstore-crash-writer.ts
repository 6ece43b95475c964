/**
 * Writer for eventstore-crash.test.ts: appends bursts of multi-event batches with exact expected
 * revisions to a SQLite event store until it is killed, printing one line per acknowledged batch.
 * Usage: node --import tsx tests/fault/eventstore-crash-writer.ts <file> <run id>
 */
import type { ExpectedRevision } from '@scriptorium/infra/eventstore/port';
import { SqliteEventStore } from '@scriptorium/infra/eventstore/sqlite';

const STREAMS = ['burst-a', 'burst-b', 'burst-c'];

const [path, runId] = process.argv.slice(2);
if (!path || !runId) throw new Error('usage: eventstore-crash-writer.ts <file> <run id>');

const store = new SqliteEventStore(path);
const revisions = new Map<string, number>();
for (const streamId of STREAMS) {
  const [last] = await store.readStream(streamId, { direction: 'backwards', maxCount: 1 });
  revisions.set(streamId, last?.revision ?? -1);
}

// Sizes vary from 1 to 97 events so that a kill lands inside batches of every length.
for (let batch = 0; ; batch++) {
  const streamId = STREAMS[batch % STREAMS.length]!;
  const size = 1 + ((batch * 37) % 97);
  const batchId = `${runId}-${batch}`;
  const current = revisions.get(streamId)!;
  const expectedRevision: ExpectedRevision = current === -1 ? 'no_stream' : current;
  const events = Array.from({ length: size }, (_, index) => ({
    type: 'BurstRecorded',
    data: { batchId, size, index, padding: 'x'.repeat(256) },
    metadata: { at: new Date().toISOString(), correlationId: batchId },
  }));
  const result = await store.appendToStream(streamId, events, { expectedRevision });
  revisions.set(streamId, result.nextExpectedRevision);
  // Writes to a pipe are synchronous on Linux: once printed, the parent will read it even after a kill.
  process.stdout.write(`${batchId} ${streamId} ${result.nextExpectedRevision}\n`);
}

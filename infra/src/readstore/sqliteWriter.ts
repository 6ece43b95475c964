/**
 * The SQLite read store's writer thread: commits the bulk transactions the store hands it, in order,
 * each with its own connection's one transaction (documents and checkpoints together). It runs in a
 * worker so that SQLite's inserts, index upkeep and commits overlap the projector's reading and
 * applying of the next page (docs/performance.md, "Session 12").
 *
 * After a batch fails, every later batch of the same epoch is skipped: each was computed on top of the
 * one that failed. The store starts a new epoch once it has heard of the failure.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** A document's new JSON text, or null for a deletion; the table name is already quoted. */
export type PendingWrite = [table: string, id: string, doc: string | null];

export interface WriteBatch {
  seq: number;
  epoch: number;
  writes: PendingWrite[];
  checkpoints: Array<[projection: string, position: number]>;
}

export type WriteReply = { seq: number; ok: true } | { seq: number; ok: false; skipped: boolean; message: string; code?: string };

export interface WriterData {
  file: string;
}

function serve(file: string): void {
  const db = new Database(file);
  // The store's own connection set the file to WAL; each batch is replayed from the log after a crash.
  db.pragma('synchronous = OFF');
  const statements = new Map<string, Database.Statement>();
  const statement = (sql: string) => {
    let prepared = statements.get(sql);
    if (prepared === undefined) {
      prepared = db.prepare(sql);
      statements.set(sql, prepared);
    }
    return prepared;
  };
  const commit = db.transaction((batch: WriteBatch) => {
    for (const [table, id, doc] of batch.writes) {
      if (doc === null) statement(`DELETE FROM ${table} WHERE id = ?`).run(id);
      else statement(`INSERT INTO ${table} (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`).run(id, doc);
    }
    const checkpoint = statement('INSERT INTO _checkpoints (projection, position) VALUES (?, ?) ON CONFLICT (projection) DO UPDATE SET position = excluded.position');
    for (const [projection, position] of batch.checkpoints) checkpoint.run(projection, position);
  });

  let failedEpoch: number | undefined;
  parentPort!.on('message', (batch: WriteBatch) => {
    let reply: WriteReply;
    if (batch.epoch === failedEpoch) {
      reply = { seq: batch.seq, ok: false, skipped: true, message: 'skipped after an earlier batch failed' };
    } else {
      try {
        commit.immediate(batch);
        reply = { seq: batch.seq, ok: true };
      } catch (error) {
        failedEpoch = batch.epoch;
        const code = error instanceof Database.SqliteError ? error.code : undefined;
        reply = { seq: batch.seq, ok: false, skipped: false, message: error instanceof Error ? error.message : String(error), ...(code !== undefined && { code }) };
      }
    }
    parentPort!.postMessage(reply);
  });
}

serve((workerData as WriterData).file);

import { newId } from '../eventsourcing/ids.ts';
import Database from 'better-sqlite3';
import { revisionMatches, WrongExpectedRevisionError, type AllSubscription, type AppendResult, type EventMetadata, type EventStore, type ExpectedRevision, type NewEvent, type ReadAllOptions, type ReadStreamOptions, type RecordedEvent } from './port.ts';
import { Subscriptions } from './subscription.ts';

interface EventRow {
  position: number;
  id: string;
  stream_id: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
}

interface IdRow {
  stream_id: string;
  revision: number;
  position: number;
}

/** How often a waiting subscription looks for commits made by other connections (other processes). */
const POLL_INTERVAL_MS = 75;
/** SQLite reads a negative LIMIT as "no limit". */
const NO_LIMIT = -1;
const MAX_REVISION = Number.MAX_SAFE_INTEGER;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  stream_id TEXT NOT NULL,
  revision INTEGER NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  metadata TEXT NOT NULL,
  UNIQUE (stream_id, revision)
);`;

const COLUMNS = 'position, id, stream_id, revision, type, data, metadata';

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    streamId: row.stream_id,
    type: row.type,
    data: JSON.parse(row.data) as unknown,
    metadata: JSON.parse(row.metadata) as EventMetadata,
    revision: row.revision,
    position: row.position,
  };
}

function isUniqueIdViolation(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'SQLITE_CONSTRAINT_UNIQUE' && error.message.includes('events.id');
}

/*
 * Why positions read "after p" are final here (what the shared paged subscription rests on):
 * positions come from AUTOINCREMENT inside write transactions, and write transactions run one at a
 * time under the database's single write lock, so a transaction that took position p committed (or
 * rolled back, handing p to the next writer) before any later writer took a position. A reader's
 * snapshot therefore always holds a prefix of the log: once it has seen p, no position below p can
 * appear later, and resuming from the last delivered position cannot skip anything.
 */

/**
 * The embedded event store: one SQLite file in WAL mode with `synchronous=FULL`, so a commit is in the
 * WAL on disk before `appendToStream` resolves. Several processes may open the same file: writers are
 * serialised by SQLite's write lock, and subscriptions see other processes' commits by polling.
 */
export class SqliteEventStore implements EventStore {
  readonly #db: Database.Database;
  // The poll catches commits made through other connections, which no in-process notification reaches.
  readonly #subscriptions: Subscriptions = new Subscriptions({ readPage: (after, limit) => this.#readPage(after, limit) }, () => this.#subscriptions.wake(this.#head.get() ?? 0), POLL_INTERVAL_MS);
  #closed = false;

  readonly #selectById: Database.Statement<[string], IdRow>;
  readonly #selectStreamHead: Database.Statement<[string], number | null>;
  readonly #insert: Database.Statement<[string, string, number, string, string, string]>;
  readonly #readForwards: Database.Statement<[string, number, number], EventRow>;
  readonly #readBackwards: Database.Statement<[string, number, number], EventRow>;
  readonly #readAll: Database.Statement<[number, number], EventRow>;
  readonly #head: Database.Statement<[], number | null>;
  readonly #appendTx: Database.Transaction<(streamId: string, events: NewEvent[], expected: ExpectedRevision) => AppendResult>;

  constructor(path: string) {
    this.#db = new Database(path);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = FULL');
    // better-sqlite3 is synchronous: waiting for another process's write lock blocks this event
    // loop, but only for as long as that process's commit takes.
    this.#db.pragma('busy_timeout = 5000');
    this.#db.exec(SCHEMA);

    this.#selectById = this.#db.prepare('SELECT stream_id, revision, position FROM events WHERE id = ?');
    this.#selectStreamHead = this.#db.prepare<[string], number | null>('SELECT max(revision) FROM events WHERE stream_id = ?').pluck();
    this.#insert = this.#db.prepare('INSERT INTO events (id, stream_id, revision, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)');
    this.#readForwards = this.#db.prepare(
      `SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision ASC LIMIT ?`,
    );
    this.#readBackwards = this.#db.prepare(
      `SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND revision <= ? ORDER BY revision DESC LIMIT ?`,
    );
    this.#readAll = this.#db.prepare(`SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position ASC LIMIT ?`);
    this.#head = this.#db.prepare<[], number | null>('SELECT max(position) FROM events').pluck();
    this.#appendTx = this.#db.transaction((streamId: string, events: NewEvent[], expected: ExpectedRevision) =>
      this.#appendInTransaction(streamId, events, expected),
    );
  }

  async appendToStream(
    streamId: string,
    events: NewEvent[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error(`stream ${streamId}: an append needs at least one event`);
    // IMMEDIATE takes the write lock before the revision is read, so another process cannot slip an
    // event in between the expected-revision check and the insert.
    const result = this.#appendTx.immediate(streamId, events, options.expectedRevision ?? 'any');
    this.#subscriptions.wake(result.position);
    return result;
  }

  #appendInTransaction(streamId: string, events: NewEvent[], expected: ExpectedRevision): AppendResult {
    const retried = this.#findRetry(streamId, events);
    if (retried) return retried;

    const current = this.#selectStreamHead.get(streamId) ?? null;
    if (!revisionMatches(expected, current)) throw new WrongExpectedRevisionError(streamId, expected, current ?? 'no_stream');

    let revision = current ?? -1;
    let position = 0;
    try {
      for (const event of events) {
        revision += 1;
        const data = JSON.stringify(event.data) ?? 'null';
        const info = this.#insert.run(event.id ?? newId(), streamId, revision, event.type, data, JSON.stringify(event.metadata));
        position = Number(info.lastInsertRowid);
      }
    } catch (error) {
      if (isUniqueIdViolation(error)) {
        throw new Error(`stream ${streamId}: an event id of this append is already recorded (a partial retry, or an id reused)`, {
          cause: error,
        });
      }
      throw error;
    }
    return { nextExpectedRevision: revision, position };
  }

  /**
   * An append whose ids are all recorded in this stream is a retry: it answers with the last of those
   * events, so a caller's next expected revision still guards against anything appended since.
   * Only caller-chosen ids can already exist; the first one tells, with one index lookup, whether
   * looking further is needed at all.
   */
  #findRetry(streamId: string, events: NewEvent[]): AppendResult | undefined {
    const firstChosen = events.find((event) => event.id !== undefined)?.id;
    if (firstChosen === undefined || this.#selectById.get(firstChosen) === undefined) return undefined;

    let last: IdRow | undefined;
    for (const event of events) {
      const row = event.id === undefined ? undefined : this.#selectById.get(event.id);
      if (row === undefined || row.stream_id !== streamId) {
        const where = row === undefined ? 'is not' : `is in stream ${row.stream_id}, not`;
        throw new Error(`stream ${streamId}: not a retry, event ${event.id ?? '(new)'} ${where} recorded in this stream while ${firstChosen} is`);
      }
      if (last === undefined || row.position > last.position) last = row;
    }
    return last && { nextExpectedRevision: last.revision, position: last.position };
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.maxCount ?? NO_LIMIT;
    const rows =
      options.direction === 'backwards'
        ? this.#readBackwards.all(streamId, options.fromRevision ?? MAX_REVISION, limit)
        : this.#readForwards.all(streamId, options.fromRevision ?? 0, limit);
    return rows.map(toRecorded);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return this.#readPage(options.after ?? 0, options.maxCount ?? NO_LIMIT);
  }

  #readPage(after: number, limit: number): RecordedEvent[] {
    return this.#readAll.all(after, limit).map(toRecorded);
  }

  subscribeToAll(options: { after?: number } = {}): AllSubscription {
    return this.#subscriptions.open(options.after ?? 0, this.#closed);
  }

  async headPosition(): Promise<number> {
    return this.#head.get() ?? 0;
  }

  async ping(): Promise<void> {
    this.#db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#subscriptions.closeAll();
    this.#db.close();
  }
}

import pg from 'pg';
import { newId } from '../eventsourcing/ids.ts';
import { inTransaction } from '../pgTransaction.ts';
import { revisionMatches, WrongExpectedRevisionError, type AllSubscription, type AppendResult, type EventMetadata, type EventStore, type ExpectedRevision, type NewEvent, type ReadAllOptions, type ReadStreamOptions, type RecordedEvent } from './port.ts';
import { Subscriptions } from './subscription.ts';

/*
 * Why positions read "after p" are final here (the property every subscriber and projector rests on).
 *
 * A bigserial alone does not give it: two transactions take positions 7 and 8, 8 commits first, a
 * reader sees 8 and moves its cursor past 7, then 7 commits and is never read. Marten and Emmett
 * document two cures: (a) readers stop below a "high-water mark", the oldest transaction still in
 * flight (`pg_snapshot_xmin(pg_current_snapshot())` against a stored transaction id column), or
 * (b) writers take positions and commit one at a time.
 *
 * We take (b): every append holds one transaction-scoped advisory lock (`pg_advisory_xact_lock`)
 * from before it takes its positions until its commit. PostgreSQL makes a commit visible before it
 * releases the transaction's locks, so the next writer takes its positions only after the previous
 * writer's events are visible to every new snapshot; a reader's snapshot therefore always holds a
 * prefix of the log, exactly as with the embedded SQLite store (whose single write lock does the
 * same). Reasons over (a): readers stay one indexed range scan with no xid arithmetic or
 * wraparound, no reader waits behind a long transaction elsewhere in the database, a rolled-back
 * append cannot stall subscribers, and the expected-revision check needs the same serialisation
 * anyway. The cost is that appends do not run in parallel: one append is a few statements in one
 * round trip each, which the benchmarks measure (tests/bench).
 */

/** The advisory lock key every append holds; any constant works, it only has to be the same everywhere. */
const APPEND_LOCK = 0x5c121e01;
/** A different key: the first processes to start race to create the table. */
const SCHEMA_LOCK = 0x5c121e00;
/** Commits are announced here, with the last position as payload; subscribers then read the table. */
const CHANNEL = 'scriptorium_events';
/** A safety net only: NOTIFY wakes subscribers at once; this catches a notification lost with its connection. */
const SAFETY_POLL_MS = 3000;
/** Wait before opening a LISTEN connection again after it failed. */
const RELISTEN_MS = 1000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position bigserial PRIMARY KEY,
  id text NOT NULL UNIQUE,
  stream_id text NOT NULL,
  revision bigint NOT NULL,
  type text NOT NULL,
  data json NOT NULL,
  metadata json NOT NULL,
  UNIQUE (stream_id, revision)
)`;

const COLUMNS = 'position, id, stream_id, revision, type, data, metadata';

interface EventRow {
  position: string;
  id: string;
  stream_id: string;
  revision: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

interface IdRow {
  id: string;
  stream_id: string;
  revision: string;
  position: string;
}

/**
 * `json`, not `jsonb`: an event's bytes are what was appended (key order, number spelling), since
 * replay and audits show exactly what was written. Positions and revisions are int8, which pg hands
 * back as strings; they stay far below 2^53.
 */
function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    streamId: row.stream_id,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    revision: Number(row.revision),
    position: Number(row.position),
  };
}

export interface PostgresEventStoreOptions {
  /** Connections in the pool (appends hold one for their transaction). */
  maxConnections?: number;
}

/**
 * The scale-out event store on PostgreSQL: one `events` table ordered by a bigserial position,
 * appends serialised by an advisory lock (see above), live delivery across processes by
 * LISTEN/NOTIFY.
 */
export class PostgresEventStore implements EventStore {
  readonly #pool: pg.Pool;
  readonly #connectionString: string;
  readonly #subscriptions = new Subscriptions(
    {
      // LISTEN is in place before the first read, so no commit falls between the read and the wait.
      start: () => this.#listen().then(() => undefined),
      readPage: (after, limit) => this.#readPage(after, limit),
      announced: () => this.#announced,
    },
    () => this.#poll(),
    SAFETY_POLL_MS,
  );
  #schema: Promise<void> | undefined;
  #listener: Promise<pg.Client> | undefined;
  /** Highest position announced to this process; lets a subscriber notice a commit that raced its read. */
  #announced = 0;
  #closed = false;

  constructor(connectionString: string, options: PostgresEventStoreOptions = {}) {
    this.#connectionString = connectionString;
    this.#pool = new pg.Pool({ connectionString, max: options.maxConnections ?? 10 });
    // An idle client losing its connection emits here; without a listener that would crash the process.
    this.#pool.on('error', () => undefined);
  }

  /** Creates the table once per store; concurrent first starts are serialised by a lock. */
  #ready(): Promise<void> {
    this.#schema ??= inTransaction(this.#pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
      await client.query(SCHEMA);
    }).catch((error: unknown) => {
      this.#schema = undefined;
      throw error;
    });
    return this.#schema;
  }

  async #query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    await this.#ready();
    return (await this.#pool.query<R>(sql, params)).rows;
  }

  async appendToStream(
    streamId: string,
    events: NewEvent[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error(`stream ${streamId}: an append needs at least one event`);
    const expected = options.expectedRevision ?? 'any';
    // Serialised before touching the database, so that a BigInt or a cycle fails the whole batch up front.
    const rows = events.map((event) => ({
      id: event.id ?? newId(),
      type: event.type,
      data: JSON.stringify(event.data) ?? 'null',
      metadata: JSON.stringify(event.metadata),
    }));
    await this.#ready();
    return inTransaction(this.#pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [APPEND_LOCK]);
      return this.#appendLocked(client, streamId, events, rows, expected);
    });
  }

  async #appendLocked(
    client: pg.PoolClient,
    streamId: string,
    events: NewEvent[],
    rows: { id: string; type: string; data: string; metadata: string }[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const retried = await this.#findRetry(client, streamId, events);
    if (retried) return retried;

    const head = (await client.query<{ head: string | null }>('SELECT max(revision) AS head FROM events WHERE stream_id = $1', [streamId])).rows[0]?.head;
    const current = head === null || head === undefined ? null : Number(head);
    if (!revisionMatches(expected, current)) throw new WrongExpectedRevisionError(streamId, expected, current ?? 'no_stream');

    // Under the append lock nobody else draws from the sequence, so one call reserves a contiguous
    // block: positions follow revisions within the batch without relying on row evaluation order.
    const sequence = "pg_get_serial_sequence('events', 'position')";
    const last = Number(
      (await client.query<{ last: string }>(`SELECT setval(${sequence}, nextval(${sequence}) + $1 - 1) AS last`, [rows.length])).rows[0]!.last,
    );
    const first = last - rows.length + 1;
    const firstRevision = (current ?? -1) + 1;
    try {
      await client.query(
        `INSERT INTO events (position, id, stream_id, revision, type, data, metadata)
         SELECT position, id, $1, revision, type, data::json, metadata::json
         FROM unnest($2::bigint[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[]) AS u(position, id, revision, type, data, metadata)`,
        [
          streamId,
          rows.map((_, i) => first + i),
          rows.map((row) => row.id),
          rows.map((_, i) => firstRevision + i),
          rows.map((row) => row.type),
          rows.map((row) => row.data),
          rows.map((row) => row.metadata),
        ],
      );
    } catch (error) {
      if (error instanceof pg.DatabaseError && error.code === '23505' && error.constraint === 'events_id_key') {
        throw new Error(`stream ${streamId}: an event id of this append is already recorded (a partial retry, or an id reused)`, { cause: error });
      }
      throw error;
    }
    // Delivered to listeners only when the transaction commits, so a woken subscriber can read it.
    await client.query('SELECT pg_notify($1, $2)', [CHANNEL, String(last)]);
    return { nextExpectedRevision: firstRevision + rows.length - 1, position: last };
  }

  /**
   * An append whose ids are all recorded in this stream is a retry: it answers with the last of those
   * events, so a caller's next expected revision still guards against anything appended since.
   */
  async #findRetry(client: pg.PoolClient, streamId: string, events: NewEvent[]): Promise<AppendResult | undefined> {
    const chosen = events.flatMap((event) => (event.id === undefined ? [] : [event.id]));
    if (chosen.length === 0) return undefined;
    const found = new Map(
      (await client.query<IdRow>('SELECT id, stream_id, revision, position FROM events WHERE id = ANY($1::text[])', [chosen])).rows.map((row) => [row.id, row]),
    );
    if (found.size === 0) return undefined;
    const witness = found.keys().next().value!;
    let last: IdRow | undefined;
    for (const event of events) {
      const row = event.id === undefined ? undefined : found.get(event.id);
      if (row === undefined || row.stream_id !== streamId) {
        const where = row === undefined ? 'is not' : `is in stream ${row.stream_id}, not`;
        throw new Error(`stream ${streamId}: not a retry, event ${event.id ?? '(new)'} ${where} recorded in this stream while ${witness} is`);
      }
      if (last === undefined || Number(row.position) > Number(last.position)) last = row;
    }
    return last && { nextExpectedRevision: Number(last.revision), position: Number(last.position) };
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.maxCount ?? null;
    const rows =
      options.direction === 'backwards'
        ? await this.#query<EventRow>(
            `SELECT ${COLUMNS} FROM events WHERE stream_id = $1 AND revision <= $2 ORDER BY revision DESC LIMIT $3`,
            [streamId, options.fromRevision ?? Number.MAX_SAFE_INTEGER, limit],
          )
        : await this.#query<EventRow>(`SELECT ${COLUMNS} FROM events WHERE stream_id = $1 AND revision >= $2 ORDER BY revision ASC LIMIT $3`, [
            streamId,
            options.fromRevision ?? 0,
            limit,
          ]);
    return rows.map(toRecorded);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return this.#readPage(options.after ?? 0, options.maxCount ?? null);
  }

  async #readPage(after: number, limit: number | null): Promise<RecordedEvent[]> {
    const rows = await this.#query<EventRow>(`SELECT ${COLUMNS} FROM events WHERE position > $1 ORDER BY position ASC LIMIT $2`, [after, limit]);
    return rows.map(toRecorded);
  }

  subscribeToAll(options: { after?: number } = {}): AllSubscription {
    return this.#subscriptions.open(options.after ?? 0, this.#closed);
  }

  /** One LISTEN connection per store, opened with the first subscription and kept until close. */
  #listen(): Promise<pg.Client> {
    this.#listener ??= (async () => {
      await this.#ready();
      const client = new pg.Client({ connectionString: this.#connectionString });
      const lost = () => {
        // Commits made until the new connection listens are caught by the safety poll.
        this.#listener = undefined;
        client.removeAllListeners('notification');
        void client.end().catch(() => undefined);
        if (!this.#closed && this.#subscriptions.size > 0) setTimeout(() => void this.#listen().catch(() => undefined), RELISTEN_MS).unref();
      };
      client.on('error', lost);
      client.on('end', lost);
      client.on('notification', (message) => {
        const position = Number(message.payload);
        if (Number.isFinite(position)) this.#announce(position);
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${CHANNEL}`);
      } catch (error) {
        client.removeAllListeners();
        await client.end().catch(() => undefined);
        throw error;
      }
      return client;
    })().catch((error: unknown) => {
      this.#listener = undefined;
      throw error;
    });
    return this.#listener;
  }

  #announce(position: number): void {
    if (position > this.#announced) this.#announced = position;
    this.#subscriptions.wake(position);
  }

  async #poll(): Promise<void> {
    if (this.#closed) return;
    try {
      this.#announce(await this.headPosition());
    } catch {
      // The database is unreachable; the next tick tries again.
    }
  }

  async headPosition(): Promise<number> {
    const [row] = await this.#query<{ head: string | null }>('SELECT max(position) AS head FROM events');
    return Number(row?.head ?? 0);
  }

  async ping(): Promise<void> {
    await this.#pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#subscriptions.closeAll();
    const listener = this.#listener;
    this.#listener = undefined;
    if (listener) {
      const client = await listener.catch(() => undefined);
      if (client) {
        client.removeAllListeners();
        client.on('error', () => undefined);
        await client.end().catch(() => undefined);
      }
    }
    await this.#pool.end();
  }
}

import pg from 'pg';
import { newId } from '../eventsourcing/ids.ts';
import { PgListener } from '../pgListener.ts';
import { inTransaction } from '../pgTransaction.ts';
import { WrongExpectedRevisionError, type AllSubscription, type AppendResult, type EventMetadata, type EventStore, type ExpectedRevision, type NewEvent, type ReadAllOptions, type ReadStreamOptions, type RecordedEvent } from './port.ts';
import { Subscriptions } from './subscription.ts';

/*
 * Why positions read "after p" are final here (the property every subscriber and projector rests on).
 *
 * A bigserial alone does not give it: two transactions take positions 7 and 8, 8 commits first, a
 * reader sees 8 and moves its cursor past 7, then 7 commits and is never read. Appends therefore
 * run in parallel but readers of `$all` stop at a horizon, as Marten's and Emmett's stores do:
 *
 * - Each append takes its transaction id and its positions together (in `scriptorium_append`),
 *   under an advisory lock held for those two steps only (microseconds, released before the insert,
 *   never through commit). Among appends, transaction ids are therefore in the same order as
 *   positions, and every row records its transaction id.
 * - A row is final once its transaction id is below `pg_snapshot_xmin(pg_current_snapshot())`, the
 *   oldest transaction still in flight: every append that took a lower position has a lower id, so
 *   it has committed (and is visible) or rolled back. The final rows are thus a prefix of the log.
 * - `readAll` and `headPosition` answer only from that prefix: when the last row they would return is
 *   not final yet they wait (a short poll with backoff) until it is, so they still include every
 *   append committed before the call. What they wait for is the oldest transaction in flight
 *   anywhere on the server, usually an append or a read-model batch of a few milliseconds.
 *
 * Appends to one stream hold a lock on that stream (a transaction-scoped advisory lock on its hash)
 * through commit, which keeps the expected-revision check exact; appends to other streams, and group
 * commit, proceed meanwhile.
 */

/** Advisory locks of this store use the two-key form with this first key; stream locks use the one-key form. */
const LOCK_SPACE = 0x5c121e0;
/** The first processes to start race to create the table. */
const SCHEMA_LOCK = 0;
/** Held by `scriptorium_append` only while it takes a transaction id and positions. */
const POSITIONS_LOCK = 1;
/** Commits are announced here, with the last position as payload; subscribers then read the table. */
const CHANNEL = 'scriptorium_events';
/** A safety net only: NOTIFY wakes subscribers at once; this catches a notification lost with its connection. */
const SAFETY_POLL_MS = 3000;
/** A read that meets a row not yet final looks again after this, doubling up to the cap. */
const HORIZON_POLL_FIRST_MS = 1;
const HORIZON_POLL_MAX_MS = 50;

/*
 * An append is this one function, called outside any transaction: one round trip and one commit,
 * like a bare INSERT, which is what lets appends approach the raw insert rate when every round trip
 * is slow. In order:
 *
 * 1. The stream's lock (transaction-scoped, so held through commit): the revision check stays exact.
 *    Each later statement of a volatile function reads a fresh snapshot, so it sees the commit of
 *    the previous holder.
 * 2. The expected revision, as `revisionMatches` in port.ts reads it. When it does not match, any
 *    of the caller's chosen ids already recorded go back to the caller (outcome 'found'), which tells
 *    a retry from an id reused elsewhere: a retry of an append that took effect no longer matches.
 *    When it matches, the ids are not looked up: an id already recorded (a retry with 'any', an id
 *    reused) fails the insert on the ids' unique index, and the caller looks them up then. One
 *    statement fewer on every append, the path of nearly all of them.
 * 3. The transaction id and the positions, together in one statement under the positions lock (see
 *    the top of this file). That lock is session-level, so that it is released before the insert;
 *    it is released on every exit, an error included, since a session lock outlives a rolled-back
 *    transaction.
 * 4. The rows, `transaction_id` from its default (the id just taken).
 *
 * The commit is announced afterwards, by `#notify`, not by a NOTIFY inside the append: PostgreSQL
 * serialises the commits of notifying transactions under one lock held through their disk flush,
 * which put every append back in single file.
 *
 * A table from before the `transaction_id` column gets it with the migrating transaction's id on
 * its old rows: committed, hence below every later horizon.
 */
/** The rows holding some of the ids in `chosen`, as `IdRow`s (null for none). */
const RECORDED = `json_agg(json_build_object('id', e.id, 'stream_id', e.stream_id, 'revision', e.revision, 'position', e.position))`;

const APPEND = `
DECLARE
  head bigint;
  matches boolean;
  last bigint;
  n integer := cardinality(ids);
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(stream, 0));
  SELECT max(e.revision) INTO head FROM events e WHERE e.stream_id = stream;
  matches := CASE expected
    WHEN 'any' THEN true
    WHEN 'no_stream' THEN head IS NULL
    WHEN 'stream_exists' THEN head IS NOT NULL
    ELSE head IS NOT DISTINCT FROM expected::bigint
  END;
  IF NOT matches THEN
    IF cardinality(chosen) > 0 THEN
      SELECT ${RECORDED} INTO recorded FROM events e WHERE e.id = ANY (chosen);
      IF recorded IS NOT NULL THEN
        outcome := 'found';
        RETURN;
      END IF;
    END IF;
    outcome := 'conflict';
    next_revision := head;
    RETURN;
  END IF;
  PERFORM pg_advisory_lock(${LOCK_SPACE}, ${POSITIONS_LOCK});
  BEGIN
    -- The sequence named as the table's bigserial names it: looking it up costs a catalog scan per append.
    SELECT nextval('events_position_seq'::regclass) INTO last FROM pg_current_xact_id();
    IF n > 1 THEN
      last := setval('events_position_seq'::regclass, last + n - 1);
    END IF;
  EXCEPTION WHEN OTHERS OR query_canceled THEN
    PERFORM pg_advisory_unlock(${LOCK_SPACE}, ${POSITIONS_LOCK});
    RAISE;
  END;
  PERFORM pg_advisory_unlock(${LOCK_SPACE}, ${POSITIONS_LOCK});
  INSERT INTO events (position, id, stream_id, revision, type, data, metadata)
    SELECT last - n + u.k, u.id, stream, coalesce(head, -1) + u.k, u.type, u.data::json, u.metadata::json
    FROM unnest(ids, types, datas, metadatas) WITH ORDINALITY AS u(id, type, data, metadata, k);
  outcome := 'appended';
  next_revision := coalesce(head, -1) + n;
  last_position := last;
END
`;

const APPEND_ARGUMENTS = 'text, text[], text[], text[], text[], text[], text';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position bigserial PRIMARY KEY,
  id text NOT NULL UNIQUE,
  stream_id text NOT NULL,
  revision bigint NOT NULL,
  type text NOT NULL,
  data json NOT NULL,
  metadata json NOT NULL,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  UNIQUE (stream_id, revision)
);
ALTER TABLE events ADD COLUMN IF NOT EXISTS transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE OR REPLACE FUNCTION scriptorium_append(stream text, ids text[], types text[], datas text[], metadatas text[], chosen text[], expected text,
  OUT outcome text, OUT next_revision bigint, OUT last_position bigint, OUT recorded json) LANGUAGE plpgsql AS $$${APPEND}$$;`;

/**
 * Whether SCHEMA has anything to do. Asked first because its ALTER TABLE locks the table exclusively
 * even when the column exists: a process starting would wait for every append in flight and stop
 * every append behind it.
 */
const SCHEMA_MISSING = `
SELECT to_regclass('events') IS NULL
  OR NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('events') AND attname = 'transaction_id' AND NOT attisdropped)
  OR (SELECT prosrc FROM pg_proc WHERE oid = to_regprocedure('scriptorium_append(${APPEND_ARGUMENTS})')) IS DISTINCT FROM $1 AS missing`;

/** True for a row whose transaction, and every append before it, has ended (see the top of this file). */
const FINAL = 'transaction_id < pg_snapshot_xmin(pg_current_snapshot())';

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
  revision: number;
  position: number;
}

/** What `scriptorium_append` answers: its outcome, and for 'found' the rows already holding chosen ids (`recorded`). */
interface AppendRow {
  outcome: 'appended' | 'conflict' | 'found';
  /** 'appended': the stream's last revision now; 'conflict': its last revision, null for no stream. */
  next_revision: string | null;
  last_position: string | null;
  recorded: IdRow[] | null;
}

/**
 * An append whose ids are all recorded in this stream is a retry: it answers with the last of those
 * events, so a caller's next expected revision still guards against anything appended since. Any
 * other overlap with recorded ids is refused.
 */
function retryOf(streamId: string, events: NewEvent[], rows: IdRow[]): AppendResult {
  const found = new Map(rows.map((row) => [row.id, row]));
  const witness = rows[0]!.id;
  let last: IdRow | undefined;
  for (const event of events) {
    const row = event.id === undefined ? undefined : found.get(event.id);
    if (row === undefined || row.stream_id !== streamId) {
      const where = row === undefined ? 'is not' : `is in stream ${row.stream_id}, not`;
      throw new Error(`stream ${streamId}: not a retry, event ${event.id ?? '(new)'} ${where} recorded in this stream while ${witness} is`);
    }
    if (last === undefined || row.position > last.position) last = row;
  }
  return { nextExpectedRevision: last!.revision, position: last!.position };
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
 * appends in parallel and readers of `$all` bounded by the horizon of transactions in flight (see
 * above), live delivery across processes by LISTEN/NOTIFY.
 */
export class PostgresEventStore implements EventStore {
  readonly #pool: pg.Pool;
  readonly #subscriptions = new Subscriptions(
    {
      // LISTEN is in place before the first read, so no commit falls between the read and the wait.
      start: () => this.#ready().then(() => this.#listener.connect()),
      readPage: (after, limit) => this.#readPage(after, limit),
      announced: () => this.#announced,
    },
    () => this.#poll(),
    SAFETY_POLL_MS,
  );
  #schema: Promise<void> | undefined;
  /** Opened with the first subscription; once lost, opened again while any subscription is open (the safety poll covers the gap). */
  readonly #listener: PgListener;
  /** Highest position announced to this process; lets a subscriber notice a commit that raced its read. */
  #announced = 0;
  /** Highest position this store appended, and the highest it has told the other processes of. */
  #appended = 0;
  #notified = 0;
  /** The NOTIFY loop while it runs: one NOTIFY at a time, each for the newest position appended by then. */
  #notifying: Promise<void> | undefined;
  #closed = false;

  constructor(connectionString: string, options: PostgresEventStoreOptions = {}) {
    this.#listener = new PgListener(
      connectionString,
      CHANNEL,
      (payload) => {
        const position = Number(payload);
        if (Number.isFinite(position)) this.#announce(position);
      },
      () => this.#subscriptions.size > 0,
    );
    this.#pool = new pg.Pool({ connectionString, max: options.maxConnections ?? 10 });
    // An idle client losing its connection emits here; without a listener that would crash the process.
    this.#pool.on('error', () => undefined);
  }

  /** Creates the table once per store; concurrent first starts are serialised by a lock. */
  #ready(): Promise<void> {
    this.#schema ??= inTransaction(this.#pool, async (client) => {
      if (!(await client.query<{ missing: boolean }>(SCHEMA_MISSING, [APPEND])).rows[0]!.missing) return;
      await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_SPACE, SCHEMA_LOCK]);
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
    const chosen = events.flatMap((event) => (event.id === undefined ? [] : [event.id]));
    await this.#ready();
    let result: AppendRow;
    try {
      [result] = (
        await this.#pool.query<AppendRow>('SELECT * FROM scriptorium_append($1, $2, $3, $4, $5, $6, $7)', [
          streamId,
          rows.map((row) => row.id),
          rows.map((row) => row.type),
          rows.map((row) => row.data),
          rows.map((row) => row.metadata),
          chosen,
          String(expected),
        ])
      ).rows as [AppendRow];
    } catch (error) {
      if (error instanceof pg.DatabaseError && error.code === '23505' && error.constraint === 'events_id_key') {
        const [{ recorded }] = (await this.#pool.query<{ recorded: IdRow[] | null }>(`SELECT ${RECORDED} AS recorded FROM events e WHERE e.id = ANY ($1)`, [chosen])).rows as [{ recorded: IdRow[] | null }];
        if (recorded !== null) return retryOf(streamId, events, recorded);
        throw new Error(`stream ${streamId}: an event id of this append is already recorded (a partial retry, or an id reused)`, { cause: error });
      }
      throw error;
    }
    switch (result.outcome) {
      case 'appended': {
        const position = Number(result.last_position);
        this.#notify(position);
        return { nextExpectedRevision: Number(result.next_revision), position };
      }
      case 'conflict':
        throw new WrongExpectedRevisionError(streamId, expected, result.next_revision === null ? 'no_stream' : Number(result.next_revision));
      case 'found':
        return retryOf(streamId, events, result.recorded ?? []);
      default: {
        const unknown: never = result.outcome;
        throw new Error(`scriptorium_append answered ${String(unknown)}`);
      }
    }
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

  /**
   * Only final rows (see the top of this file). A page whose last row is not final yet is read again,
   * once it is, up to that row: under a steady stream of appends a page may always end with one in
   * flight, and a bounded second read cannot chase the head.
   */
  async #readPage(after: number, limit: number | null): Promise<RecordedEvent[]> {
    const rows = await this.#query<EventRow & { final: boolean }>(`SELECT ${COLUMNS}, ${FINAL} AS final FROM events WHERE position > $1 ORDER BY position ASC LIMIT $2`, [after, limit]);
    const last = rows.at(-1);
    if (last === undefined || last.final) return rows.map(toRecorded);
    await this.#untilFinal(last.position);
    const settled = await this.#query<EventRow>(`SELECT ${COLUMNS} FROM events WHERE position > $1 AND position <= $2 ORDER BY position ASC LIMIT $3`, [after, last.position, limit]);
    return settled.map(toRecorded);
  }

  /** Waits until the row at `position` (which exists) is final: until the transactions before it have ended. */
  async #untilFinal(position: string): Promise<void> {
    for (let pause = HORIZON_POLL_FIRST_MS; ; pause = Math.min(pause * 2, HORIZON_POLL_MAX_MS)) {
      await new Promise((resolve) => setTimeout(resolve, pause));
      const [row] = await this.#query<{ final: boolean }>(`SELECT ${FINAL} AS final FROM events WHERE position = $1`, [position]);
      if (row?.final !== false) return;
    }
  }

  subscribeToAll(options: { after?: number } = {}): AllSubscription {
    return this.#subscriptions.open(options.after ?? 0, this.#closed);
  }

  /**
   * Tells this process's subscriptions at once, and every process's through NOTIFY in a transaction
   * of its own (a NOTIFY without a write commits without waiting for the disk). Appends that commit
   * while one NOTIFY is on its way are announced together by the next; a NOTIFY lost with its
   * connection leaves the wake-up to the safety poll.
   */
  #notify(position: number): void {
    this.#announce(position);
    if (position > this.#appended) this.#appended = position;
    if (this.#notifying === undefined && this.#appended > this.#notified && !this.#closed) this.#notifying = this.#sendNotifications();
  }

  async #sendNotifications(): Promise<void> {
    do {
      const newest = this.#appended;
      await this.#pool.query('SELECT pg_notify($1, $2)', [CHANNEL, String(newest)]).catch(() => undefined);
      this.#notified = newest;
    } while (this.#appended > this.#notified && !this.#closed);
    this.#notifying = undefined;
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

  /** The last final position: a reader starting after it skips nothing. */
  async headPosition(): Promise<number> {
    const [row] = await this.#query<{ position: string; final: boolean }>(`SELECT position, ${FINAL} AS final FROM events ORDER BY position DESC LIMIT 1`);
    if (row === undefined) return 0;
    if (!row.final) await this.#untilFinal(row.position);
    return Number(row.position);
  }

  async ping(): Promise<void> {
    await this.#pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#notifying;
    await this.#subscriptions.closeAll();
    await this.#listener.close();
    await this.#pool.end();
  }
}

import { randomUUID } from 'node:crypto';
import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  AccessDeniedError,
  CancelledError,
  DeadlineExceededError,
  NotFoundError,
  StreamNotFoundError,
  TimeoutError,
  UnavailableError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type AppendExpectedRevision,
  type JSONType,
  type Position,
  type ReadPosition,
  type ResolvedEvent,
  type StreamingRead,
} from '@eventstore/db-client';
import {
  WrongExpectedRevisionError,
  type AllSubscription,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
} from './port.ts';

/*
 * Positions. ESDB orders `$all` by a pair {commit, prepare} of byte offsets in its transaction log.
 * Every append made through the gRPC API (the only kind this adapter makes, and the only kind the
 * server makes for its own streams) is an implicit transaction in which each event is its own
 * commit-like record, and the server reports each such event at {commit: p, prepare: p} with p the
 * event's own log offset. So one number loses nothing: `position` is the commit position (equal to
 * the prepare position), strictly increasing along `$all`, and {commit: p, prepare: p} rebuilds the
 * exact pair to resume from. ESDB reads `$all` inclusively from a position, so reading "after p"
 * starts at {p, p} and drops whatever sits at p or before; subscriptions are filtered the same way.
 * Legacy explicit transactions (TCP API only) could share one commit position between events; none
 * are written here. Offsets are bytes, so they are neither contiguous nor 1-based, and stay far
 * below 2^53.
 */

/** Events per `$all` page: system events are filtered out client-side, so a page may yield fewer. */
const PAGE_SIZE = 512;
/** Buffered subscription events before the gRPC stream is paused, and the level at which it resumes. */
const HIGH_WATER = 1024;
const LOW_WATER = 256;
/**
 * How many events beyond a batch's own a retry check reads from the stream's end. A retry follows its
 * first attempt within seconds (a timed-out call, a redelivered job), so its events sit at or near the
 * end; a bounded look keeps a conflict on a long stream from reading all of it.
 */
const RETRY_LOOKBACK = 64;
/** Appends of one batch whose outcome stayed unknown before the last such error is the caller's. */
const UNKNOWN_OUTCOME_ATTEMPTS = 3;

/**
 * Errors after which the append may or may not have been written: the server's commit timed out, the
 * call's deadline passed, the connection went, or the call was cancelled under it. Any other error
 * is an answer (the server refused, or never took the call).
 */
const outcomeUnknown = (error: unknown): boolean =>
  error instanceof TimeoutError || error instanceof DeadlineExceededError || error instanceof UnavailableError || error instanceof CancelledError;
/**
 * Reads that may follow a write (a handler's load, a retry check, the read-back of an append) ask the
 * leader: a follower may not have replicated the write yet and would answer with the stream before it.
 */
const LEADER = { requiresLeader: true } as const;

/** What the adapter uses of the client: a fake with these methods stands in for a server in unit tests. */
export type EsdbClient = Pick<EventStoreDBClient, 'appendToStream' | 'readStream' | 'readAll' | 'subscribeToAll' | 'dispose'>;

export interface EsdbOptions {
  /** Delay before resubscribing after the n-th consecutive drop (from 0); the default doubles from 100 ms up to 10 s. */
  resubscribeDelayMs?: (attempt: number) => number;
}

const defaultResubscribeDelay = (attempt: number) => Math.min(10_000, 100 * 2 ** attempt);

const isSystem = (streamId: string, type: string) => streamId.startsWith('$') || type.startsWith('$');

const fromPosition = (after: number): ReadPosition =>
  after <= 0 ? START : { commit: BigInt(after), prepare: BigInt(after) };

/**
 * A read's items; leaving early (a break, a return, a throw) cancels the gRPC call, which destroying
 * the client's stream (what a `for await` does on the way out) leaves open on the channel.
 */
async function* drain<E>(read: StreamingRead<E>): AsyncGenerator<E> {
  let finished = false;
  try {
    for await (const item of read) yield item as E;
    finished = true;
  } finally {
    if (!finished) await read.cancel();
  }
}

/**
 * The client serialises events inside the gRPC call it has already opened, where a throw leaves the
 * call hanging; so whatever JSON cannot hold (a BigInt, a cycle) is refused here, before anything is sent.
 */
function serialisable(value: unknown): JSONType {
  // `undefined` has no JSON form; it is stored as null, as the SQLite adapter does.
  return (JSON.stringify(value) === undefined ? null : value) as JSONType;
}

function toEsdbRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return BigInt(expected);
  }
}

function positionOf(position: Position | undefined, eventId: string): number {
  if (position === undefined) {
    throw new Error(`event ${eventId} came back without a log position: EventStoreDB 22.6 or later is required`);
  }
  return Number(position.commit);
}

function toRecorded(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | undefined {
  const event = resolved.event;
  if (event === undefined || isSystem(event.streamId, event.type)) return undefined;
  if (!event.isJson) throw new Error(`event ${event.id} in ${event.streamId} is not JSON: it was not written by this application`);
  return {
    id: event.id,
    streamId: event.streamId,
    type: event.type,
    data: event.data,
    metadata: event.metadata as EventMetadata,
    revision: Number(event.revision),
    position: positionOf(event.position, event.id),
  };
}

/** The scale-out event store: EventStoreDB / KurrentDB over gRPC. */
export class EsdbEventStore implements EventStore {
  readonly #client: EsdbClient;
  readonly #resubscribeDelayMs: (attempt: number) => number;
  readonly #subscriptions = new Set<EsdbSubscription>();
  #closed = false;

  constructor(connection: string | EsdbClient, options: EsdbOptions = {}) {
    this.#client = typeof connection === 'string' ? EventStoreDBClient.connectionString(connection) : connection;
    this.#resubscribeDelayMs = options.resubscribeDelayMs ?? defaultResubscribeDelay;
  }

  async appendToStream(
    streamId: string,
    events: NewEvent[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error(`stream ${streamId}: an append needs at least one event`);
    const expected = options.expectedRevision ?? 'any';
    const prepared = events.map((event) =>
      jsonEvent({ id: event.id ?? randomUUID(), type: event.type, data: serialisable(event.data), metadata: serialisable(event.metadata) }),
    );
    const ids = prepared.map((event) => event.id);
    // A retry is the server's to recognise (the same ids right after the expected revision, or for
    // "any" in its cache of recent writes), with no read before the append. The adapter looks at the
    // stream's end only when it cannot know what its own append did (docs/decisions.md, "EventStoreDB
    // without the extra read").
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#append(streamId, prepared, expected);
      } catch (error) {
        if (!outcomeUnknown(error)) throw error;
        const landed = await this.#findRetry(streamId, ids);
        if (landed) return landed;
        if (attempt >= UNKNOWN_OUTCOME_ATTEMPTS) throw error;
      }
    }
  }

  async #append(streamId: string, prepared: ReturnType<typeof jsonEvent>[], expected: ExpectedRevision): Promise<AppendResult> {
    const ids = prepared.map((event) => event.id);
    try {
      const result = await this.#client.appendToStream(streamId, prepared, { expectedRevision: toEsdbRevision(expected) });
      const revision = Number(result.nextExpectedRevision);
      // A single event is its own transaction, so the reported position is exactly its own. For a
      // batch, and for a write the server recognised as idempotent (no position reported), the
      // last event is read back rather than trusting which offset a server version reports.
      if (prepared.length === 1 && result.position !== undefined) {
        return { nextExpectedRevision: revision, position: positionOf(result.position, ids[0]!) };
      }
      const [last] = await this.readStream(streamId, { direction: 'backwards', fromRevision: revision, maxCount: 1 });
      if (last === undefined) throw new Error(`stream ${streamId}: revision ${revision} is not readable right after appending it`);
      return { nextExpectedRevision: revision, position: last.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      // A conflict may be this batch's own earlier attempt at a revision the server's check does not
      // cover; the stream's end says, on this refusal's path only.
      const retried = await this.#findRetry(streamId, ids);
      if (retried) return retried;
      const actual = error.actualVersion === NO_STREAM ? 'no_stream' : Number(error.actualVersion);
      throw new WrongExpectedRevisionError(streamId, expected, actual);
    }
  }

  /** Whether every id is among the stream's last events; answers with the newest of them, as SQLite does. */
  async #findRetry(streamId: string, ids: string[]): Promise<AppendResult | undefined> {
    const missing = new Set(ids);
    let last: RecordedEvent | undefined;
    for await (const event of this.#events(streamId, { direction: 'backwards', maxCount: ids.length + RETRY_LOOKBACK })) {
      if (!missing.delete(event.id)) continue;
      last ??= event;
      if (missing.size === 0) return { nextExpectedRevision: last.revision, position: last.position };
    }
    return undefined;
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    for await (const event of this.#events(streamId, options)) events.push(event);
    return events;
  }

  /** A stream's events, lazily: a missing stream is empty, and leaving early cancels the gRPC call. */
  async *#events(streamId: string, options: ReadStreamOptions): AsyncGenerator<RecordedEvent> {
    if (options.maxCount !== undefined && options.maxCount <= 0) return;
    const backwards = options.direction === 'backwards';
    const read = this.#client.readStream(streamId, {
      ...LEADER,
      direction: backwards ? BACKWARDS : FORWARDS,
      fromRevision: options.fromRevision === undefined ? (backwards ? END : START) : BigInt(options.fromRevision),
      ...(options.maxCount === undefined ? {} : { maxCount: options.maxCount }),
    });
    try {
      for await (const resolved of drain(read)) {
        const event = toRecorded(resolved);
        if (event) yield event;
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return;
      throw error;
    }
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const wanted = options.maxCount ?? Number.POSITIVE_INFINITY;
    const events: RecordedEvent[] = [];
    let cursor = options.after ?? 0;
    while (events.length < wanted) {
      let seen = 0;
      for await (const resolved of drain(this.#client.readAll({ ...LEADER, fromPosition: fromPosition(cursor), maxCount: PAGE_SIZE }))) {
        seen += 1;
        const raw = resolved.event;
        if (raw?.position === undefined) continue;
        const position = Number(raw.position.commit);
        if (position <= cursor) continue;
        cursor = position;
        const event = toRecorded(resolved);
        if (event && events.length < wanted) events.push(event);
      }
      if (seen < PAGE_SIZE) break;
    }
    return events;
  }

  subscribeToAll(options: { after?: number } = {}): AllSubscription {
    const subscription = new EsdbSubscription(
      (after) => this.#client.subscribeToAll({ fromPosition: fromPosition(after), filter: excludeSystemEvents() }),
      options.after ?? 0,
      this.#resubscribeDelayMs,
      (sub) => this.#subscriptions.delete(sub),
    );
    this.#subscriptions.add(subscription);
    return subscription;
  }

  /** The newest non-system event: `$all` usually ends with one, so the first backwards page suffices. */
  async headPosition(): Promise<number> {
    let from: ReadPosition = END;
    let below = Number.POSITIVE_INFINITY;
    for (;;) {
      let oldest: Position | undefined;
      for await (const resolved of drain(this.#client.readAll({ ...LEADER, direction: BACKWARDS, fromPosition: from, maxCount: PAGE_SIZE }))) {
        const event = resolved.event;
        if (event === undefined) continue;
        const position = Number(event.position.commit);
        // Whether a backwards page includes the event at its starting position is not relied upon.
        if (position >= below) continue;
        if (!isSystem(event.streamId, event.type)) return position;
        oldest = event.position;
      }
      if (oldest === undefined) return 0;
      below = Number(oldest.commit);
      from = oldest;
    }
  }

  async ping(): Promise<void> {
    for await (const _ of drain(this.#client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 }))) break;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#subscriptions].map((subscription) => subscription.close()));
    await this.#client.dispose();
  }
}

/** Refusals a new subscription would meet again: anything else (a restart, a leader change, a lost keepalive, "consumer too slow") is worth a resubscription. */
const isPermanent = (error: unknown) => error instanceof AccessDeniedError || error instanceof NotFoundError;

/**
 * ESDB's catch-up subscription switches from catch-up to live server-side without gap or duplicate;
 * this wrapper maps events, drops system ones and anything at or before `after`, and ends the
 * iteration on close() (cancelling the gRPC call does not end the client's stream).
 *
 * The server drops a subscription on a restart, a leader change, a lost keepalive or a consumer too
 * slow for its live buffer; the wrapper then subscribes again, after a growing delay, from the last
 * event it took in, so its reader sees neither the drop nor a duplicate. An event it cannot map ends
 * the iteration with that error, after the events before it and before any that follow.
 */
class EsdbSubscription implements AllSubscription {
  readonly #open: (after: number) => AllStreamSubscription;
  readonly #delayMs: (attempt: number) => number;
  readonly #onClose: (subscription: EsdbSubscription) => void;
  readonly #buffer: RecordedEvent[] = [];
  #source: AllStreamSubscription | undefined;
  #after: number;
  #drops = 0;
  #retry: NodeJS.Timeout | undefined;
  #failure: unknown;
  #closed = false;
  #wake: (() => void) | undefined;

  constructor(
    open: (after: number) => AllStreamSubscription,
    after: number,
    delayMs: (attempt: number) => number,
    onClose: (subscription: EsdbSubscription) => void,
  ) {
    this.#open = open;
    this.#after = after;
    this.#delayMs = delayMs;
    this.#onClose = onClose;
    this.#connect();
  }

  #connect(): void {
    const source = this.#open(this.#after);
    this.#source = source;
    source.on('data', (resolved: AllStreamResolvedEvent) => {
      // A dropped source can still flush what it had buffered: its successor reads that again.
      if (source !== this.#source) return;
      let event: RecordedEvent | undefined;
      try {
        event = toRecorded(resolved);
      } catch (error) {
        this.#fail(error);
        return;
      }
      this.#drops = 0;
      if (event === undefined || event.position <= this.#after) return;
      this.#after = event.position;
      this.#buffer.push(event);
      if (this.#buffer.length >= HIGH_WATER) source.pause();
      this.#resume();
    });
    source.on('error', (error: unknown) => this.#dropped(source, error));
    source.on('end', () => this.#dropped(source, undefined));
  }

  #dropped(source: AllStreamSubscription, error: unknown): void {
    if (source !== this.#source || this.#closed) return;
    if (isPermanent(error)) {
      this.#fail(error);
      return;
    }
    this.#source = undefined;
    void source.unsubscribe().catch(() => undefined);
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      if (!this.#closed) this.#connect();
    }, this.#delayMs(this.#drops++));
  }

  /** Nothing after the failure is taken in: the reader gets what came before it, then the error. */
  #fail(error: unknown): void {
    this.#failure ??= error;
    const source = this.#source;
    this.#source = undefined;
    void source?.unsubscribe().catch(() => undefined);
    this.#resume();
  }

  #resume(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    try {
      for (;;) {
        if (this.#closed) return;
        const event = this.#buffer.shift();
        if (event !== undefined) {
          if (this.#buffer.length <= LOW_WATER && this.#source?.isPaused()) this.#source.resume();
          yield event;
          continue;
        }
        if (this.#failure !== undefined) throw this.#failure;
        await new Promise<void>((resolve) => (this.#wake = resolve));
      }
    } finally {
      await this.close();
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#onClose(this);
    clearTimeout(this.#retry);
    this.#resume();
    const source = this.#source;
    this.#source = undefined;
    await source?.unsubscribe();
  }
}

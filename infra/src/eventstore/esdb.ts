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
  StreamNotFoundError,
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

const isSystem = (streamId: string, type: string) => streamId.startsWith('$') || type.startsWith('$');

const fromPosition = (after: number): ReadPosition =>
  after <= 0 ? START : { commit: BigInt(after), prepare: BigInt(after) };

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
  readonly #client: EventStoreDBClient;
  readonly #subscriptions = new Set<EsdbSubscription>();
  #closed = false;

  constructor(connectionString: string) {
    this.#client = EventStoreDBClient.connectionString(connectionString);
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
      // ESDB recognises a retry only when the expected revision is the one the first attempt used
      // (or, for "any", while the ids are in its recent-writes cache); any other retry lands here.
      const retried = await this.#findRetry(streamId, ids);
      if (retried) return retried;
      const actual = error.actualVersion === NO_STREAM ? 'no_stream' : Number(error.actualVersion);
      throw new WrongExpectedRevisionError(streamId, expected, actual);
    }
  }

  /** Newest first, since a retry usually follows its first attempt closely; stops once every id is seen. */
  async #findRetry(streamId: string, ids: string[]): Promise<AppendResult | undefined> {
    const missing = new Set(ids);
    let last: RecordedEvent | undefined;
    for await (const event of this.#events(streamId, { direction: 'backwards' })) {
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
      direction: backwards ? BACKWARDS : FORWARDS,
      fromRevision: options.fromRevision === undefined ? (backwards ? END : START) : BigInt(options.fromRevision),
      ...(options.maxCount === undefined ? {} : { maxCount: options.maxCount }),
    });
    let finished = false;
    try {
      for await (const resolved of read) {
        const event = toRecorded(resolved);
        if (event) yield event;
      }
      finished = true;
    } catch (error) {
      if (error instanceof StreamNotFoundError) return;
      throw error;
    } finally {
      if (!finished) await read.cancel();
    }
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const wanted = options.maxCount ?? Number.POSITIVE_INFINITY;
    const events: RecordedEvent[] = [];
    let cursor = options.after ?? 0;
    while (events.length < wanted) {
      let seen = 0;
      for await (const resolved of this.#client.readAll({ fromPosition: fromPosition(cursor), maxCount: PAGE_SIZE })) {
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
    const after = options.after ?? 0;
    const source = this.#client.subscribeToAll({ fromPosition: fromPosition(after), filter: excludeSystemEvents() });
    const subscription = new EsdbSubscription(source, after, (sub) => this.#subscriptions.delete(sub));
    this.#subscriptions.add(subscription);
    return subscription;
  }

  /** The newest non-system event: `$all` usually ends with one, so the first backwards page suffices. */
  async headPosition(): Promise<number> {
    let from: ReadPosition = END;
    let below = Number.POSITIVE_INFINITY;
    for (;;) {
      let oldest: Position | undefined;
      for await (const resolved of this.#client.readAll({ direction: BACKWARDS, fromPosition: from, maxCount: PAGE_SIZE })) {
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
    for await (const _ of this.#client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })) break;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#subscriptions].map((subscription) => subscription.close()));
    await this.#client.dispose();
  }
}

/**
 * ESDB's catch-up subscription already switches from catch-up to live server-side without gap or
 * duplicate; this wrapper maps events, drops system ones and anything at or before `after`, and
 * ends the iteration on close() (cancelling the gRPC call does not end the client's stream).
 */
class EsdbSubscription implements AllSubscription {
  readonly #source: AllStreamSubscription;
  readonly #onClose: (subscription: EsdbSubscription) => void;
  readonly #buffer: RecordedEvent[] = [];
  #after: number;
  #failure: unknown;
  #ended = false;
  #closed = false;
  #wake: (() => void) | undefined;

  constructor(source: AllStreamSubscription, after: number, onClose: (subscription: EsdbSubscription) => void) {
    this.#source = source;
    this.#after = after;
    this.#onClose = onClose;
    source.on('data', (resolved: AllStreamResolvedEvent) => {
      try {
        const event = toRecorded(resolved);
        if (event === undefined || event.position <= this.#after) return;
        this.#after = event.position;
        this.#buffer.push(event);
        if (this.#buffer.length >= HIGH_WATER) source.pause();
      } catch (error) {
        this.#failure ??= error;
      }
      this.#resume();
    });
    source.on('error', (error: unknown) => {
      this.#failure ??= error;
      this.#resume();
    });
    source.on('end', () => {
      this.#ended = true;
      this.#resume();
    });
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
          if (this.#buffer.length <= LOW_WATER && this.#source.isPaused()) this.#source.resume();
          yield event;
          continue;
        }
        if (this.#failure !== undefined) throw this.#failure;
        if (this.#ended) return;
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
    this.#resume();
    await this.#source.unsubscribe();
  }
}

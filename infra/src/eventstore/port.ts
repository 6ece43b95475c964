/**
 * The EventStore port: the only place the product's truth is written.
 *
 * Revisions count events within one stream from 0. Positions order every event of the store
 * (`$all`); every position is at least 1, so `after: 0` means "from the beginning". They strictly
 * increase but need not be contiguous: SQLite numbers events 1, 2, 3…, EventStoreDB uses log offsets.
 * Both are plain numbers: 2^53 positions outlive any deployment.
 */

export interface EventMetadata {
  at: string;
  correlationId?: string;
  causationId?: string;
  userId?: string;
  clientId?: string;
  [key: string]: unknown;
}

export interface NewEvent<Type extends string = string, Data = unknown> {
  /** A UUID. Deterministic when a retry can happen (see `deterministicId`), random otherwise. */
  id?: string;
  type: Type;
  data: Data;
  metadata: EventMetadata;
}

export interface RecordedEvent<Type extends string = string, Data = unknown> {
  id: string;
  streamId: string;
  type: Type;
  data: Data;
  metadata: EventMetadata;
  revision: number;
  position: number;
}

/**
 * `any`: no check. `no_stream`: the stream must not exist. `stream_exists`: it must.
 * A number: the stream's last revision must be exactly that (what money-like state uses).
 */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

/** Whether a stream at `current` (null: no stream) is what an append expected. */
export function revisionMatches(expected: ExpectedRevision, current: number | null): boolean {
  switch (expected) {
    case 'any':
      return true;
    case 'no_stream':
      return current === null;
    case 'stream_exists':
      return current !== null;
    default:
      return current === expected;
  }
}

export interface AppendResult {
  /** Revision of the stream's last event after the append. */
  nextExpectedRevision: number;
  /** Position of the last event appended (or already present, for an idempotent retry). */
  position: number;
}

export interface ReadStreamOptions {
  direction?: 'forwards' | 'backwards';
  /** Inclusive. Forwards default 0; backwards default the last revision. */
  fromRevision?: number;
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Exclusive: events with position > after. Default 0. */
  after?: number;
  maxCount?: number;
}

export interface AllSubscription extends AsyncIterable<RecordedEvent> {
  close(): Promise<void>;
}

export interface EventStore {
  /**
   * Appends all events atomically or none. An append whose event ids are all already in the
   * stream is an idempotent retry: it succeeds without writing, whatever the expected revision
   * (EventStoreDB: the revision the first attempt expected, "any" while the server's cache has the
   * ids, or after an append whose outcome the adapter could not know).
   */
  appendToStream(streamId: string, events: NewEvent[], options?: { expectedRevision?: ExpectedRevision }): Promise<AppendResult>;
  /** A missing stream reads as []. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Catch-up then live, in position order, with no gap and no duplicate between the two. */
  subscribeToAll(options?: { after?: number }): AllSubscription;
  /** Position of the newest event, 0 when empty. */
  headPosition(): Promise<number>;
  /** Answers whether the engine is reachable (for /healthz). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/**
 * The ReadStore port: documents kept by projections and read by queries.
 * A small, Mongo-shaped subset so that the MongoDB adapter is a thin mapping and the SQLite one
 * can implement it fully. Field paths may use dots (`usage.today`).
 */

export interface Doc {
  _id: string;
  [key: string]: unknown;
}

export type Scalar = string | number | boolean | null;

export interface FieldCondition {
  $eq?: Scalar;
  $ne?: Scalar;
  $gt?: Scalar;
  $gte?: Scalar;
  $lt?: Scalar;
  $lte?: Scalar;
  $in?: Scalar[];
  $exists?: boolean;
}

/** Each key is a field path; a scalar value means equality. All keys must hold (AND). */
export type Filter = Record<string, Scalar | FieldCondition>;

export interface FindOptions {
  sort?: Record<string, 1 | -1>;
  skip?: number;
  limit?: number;
}

export interface Update {
  $set?: Record<string, unknown>;
  $unset?: Record<string, true>;
  $inc?: Record<string, number>;
  /** Appends one value to an array field (created when missing). */
  $push?: Record<string, unknown>;
  /** Applied only when the upsert creates the document. */
  $setOnInsert?: Record<string, unknown>;
}

export interface IndexSpec {
  fields: Record<string, 1 | -1>;
  unique?: boolean;
  name?: string;
}

export interface Collection<T extends Doc = Doc> {
  get(id: string): Promise<T | null>;
  findOne(filter: Filter, options?: FindOptions): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  count(filter?: Filter): Promise<number>;
  /** Replaces the whole document (inserting it when missing). */
  put(doc: T): Promise<void>;
  /** Updates the document with this id; with `upsert` creates `{_id}` plus the update when missing. Returns whether a document matched or was created. */
  update(id: string, update: Update, options?: { upsert?: boolean }): Promise<boolean>;
  /** Updates every matching document; returns how many. */
  updateMany(filter: Filter, update: Update): Promise<number>;
  delete(id: string): Promise<boolean>;
  deleteMany(filter: Filter): Promise<number>;
  ensureIndex(spec: IndexSpec): Promise<void>;
}

export interface ReadStoreTx {
  collection<T extends Doc = Doc>(name: string): Collection<T>;
  setCheckpoint(projection: string, position: number): Promise<void>;
}

export interface TransactionOptions {
  /**
   * One of many large transactions in a row that the caller can replay from the log (a rebuild, or a
   * projection far behind): the engine may commit it without waiting for the disk, and may commit it
   * after `transaction` has resolved (SQLite's writer thread), in order; `flushed` says when it is
   * readable. A crash may then lose the latest such commits, each one whole, never part of one.
   */
  bulk?: boolean;
}

export interface ReadStore {
  collection<T extends Doc = Doc>(name: string): Collection<T>;
  /**
   * Runs `work` so that its writes and the checkpoint it sets commit together, where the engine
   * allows (SQLite always; MongoDB on a replica set). Where it does not, writes apply as they go
   * and projections stay correct because they are idempotent by position.
   */
  transaction<R>(work: (tx: ReadStoreTx) => Promise<R>, options?: TransactionOptions): Promise<R>;
  /**
   * Runs start-up work that creates collections and indexes (every projection's `setup`). SQLite runs it
   * in one transaction, so that the start of a rebuild is one commit instead of one per table and
   * index; the other engines run it as it comes (MongoDB cannot create an index inside a transaction
   * on a collection that holds documents).
   */
  setup(work: (store: Pick<ReadStore, 'collection'>) => Promise<void>): Promise<void>;
  /**
   * Resolves once every transaction that has resolved can be read by any caller; rejects with the
   * error of a bulk transaction the engine refused after it had resolved (the next transaction is then
   * refused with it too, and the checkpoints read back are those of the last one committed).
   */
  flushed(): Promise<void>;
  getCheckpoint(projection: string): Promise<number>;
  /** Drops the collections and resets the checkpoint: what a rebuild starts from. */
  reset(projection: string, collections: string[]): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class DuplicateKeyError extends Error {
  constructor(readonly collection: string, readonly index: string) {
    super(`duplicate key in ${collection} on ${index}`);
    this.name = 'DuplicateKeyError';
  }
}

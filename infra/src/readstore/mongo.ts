/**
 * The scale-out ReadStore on MongoDB: the port is Mongo's own syntax, so this is a mapping plus the
 * shared checks that keep projections within what the SQLite adapter also does.
 *
 * Transactions need a replica set (one member is enough) or a sharded cluster. A standalone server is
 * refused unless `allowStandalone` (MONGO_ALLOW_STANDALONE) says otherwise: there `transaction` runs
 * the work without one, writes apply as they go and the checkpoint is written last, so a batch
 * interrupted before its checkpoint is applied again, and every `$inc` and `$push` in it counts twice.
 */
import { MongoClient, MongoServerError, type ClientSession, type Collection as MongoCollection, type Db, type Filter as MongoFilter, type UpdateFilter } from 'mongodb';
import { DuplicateKeyError, type Collection, type Doc, type Filter, type FindOptions, type IndexSpec, type ReadStore, type ReadStoreTx, type Update } from './port.ts';
import { checkCollectionName, checkDoc, checkFilter, checkId, checkPaging, checkPosition, indexName, normalizeUpdate } from './shared.ts';

/** The session option for each call; throws once a transaction handle has outlived its transaction. */
type SessionOption = () => { session?: ClientSession };

interface Checkpoint {
  _id: string;
  position: number;
}

function duplicateKey(error: unknown, collection: string): DuplicateKeyError | undefined {
  if (!(error instanceof MongoServerError) || error.code !== 11000) return undefined;
  return new DuplicateKeyError(collection, /index: (\S+)/.exec(error.message)?.[1] ?? 'unique index');
}

/**
 * A unique index constrains a document only where every indexed field holds a value other than null,
 * as SQLite's and PostgreSQL's do. Each field's clause is a `$gte` from the least value of each type
 * (and the two container types), because the planner proves that an equality on the field implies a
 * `$gte` on a value of the same type, and so uses the index for lookups; `$exists` would let null in,
 * and `$type` or `$ne` would leave the index unused (or, for `$ne`, are not allowed).
 */
export function uniquePartialFilter(fields: Record<string, 1 | -1>): Record<string, unknown> {
  const present = (path: string) => ({
    $or: [
      { [path]: { $gte: '' } },
      { [path]: { $gte: Number.NEGATIVE_INFINITY } },
      { [path]: { $gte: false } },
      { [path]: { $type: 'object' } },
      { [path]: { $type: 'array' } },
    ],
  });
  return { $and: Object.keys(fields).map(present) };
}

/** What `hello` says of the deployment: whether it runs transactions, or an error when the store must not run on it. */
export function checkDeployment(hello: { setName?: unknown; msg?: unknown }, allowStandalone: boolean): boolean {
  // Replica-set members report `setName`, mongos reports `isdbgrid`; a standalone server neither.
  if (typeof hello.setName === 'string' || hello.msg === 'isdbgrid') return true;
  if (allowStandalone) return false;
  throw new Error(
    'MongoDB is a standalone server: without transactions a retried batch applies its $inc and $push twice. ' +
      'Run it as a replica set (one member is enough: mongod --replSet rs0, then rs.initiate()), or set MONGO_ALLOW_STANDALONE=true to accept that.',
  );
}

/** The oldest MongoDB whose partial indexes take the `$or` of `$type`s that uniquePartialFilter writes. */
export const MIN_MONGO_VERSION = [6, 0] as const;

/** Refuses a server older than MIN_MONGO_VERSION, saying which it is and what is needed. */
export function checkVersion(version: string): void {
  const [major = 0, minor = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  const [needMajor, needMinor] = MIN_MONGO_VERSION;
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return;
  throw new Error(`MongoDB ${version} is too old: the read store needs MongoDB ${needMajor}.${needMinor} or later (its unique indexes use partial filters with $or, which older servers refuse). Upgrade the server.`);
}

export interface MongoReadStoreOptions {
  /** Run on a standalone server, whose batches are not atomic (see above). */
  allowStandalone?: boolean;
}

export class MongoReadCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly collection: MongoCollection<Doc>,
    private readonly name: string,
    private readonly session: SessionOption,
  ) {}

  /** Only the duplicate key is translated: other errors keep their labels, which withTransaction's retry reads. */
  private async run<R>(fn: (options: { session?: ClientSession }) => Promise<R>): Promise<R> {
    try {
      return await fn(this.session());
    } catch (error) {
      throw duplicateKey(error, this.name) ?? error;
    }
  }

  get(id: string): Promise<T | null> {
    return this.run(async (options) => (await this.collection.findOne({ _id: id }, options)) as T | null);
  }

  async findOne(filter: Filter, options: FindOptions = {}): Promise<T | null> {
    return (await this.find(filter, { ...options, limit: 1 }))[0] ?? null;
  }

  find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return this.run(async (session) => {
      checkFilter(filter);
      checkPaging(options);
      // Mongo reads limit 0 as "no limit"; the port means none.
      if (options.limit === 0) return [];
      let cursor = this.collection.find(filter as MongoFilter<Doc>, session);
      // The id breaks ties so that skip/limit pages are stable, as in the SQLite adapter.
      // A sort no index serves is done in memory, and past 100 MB fails unless it may spill to disk.
      if (options.sort && Object.keys(options.sort).length > 0) {
        cursor = cursor.sort({ ...options.sort, ...('_id' in options.sort ? {} : { _id: 1 }) }).allowDiskUse();
      }
      if (options.skip) cursor = cursor.skip(options.skip);
      if (options.limit !== undefined) cursor = cursor.limit(options.limit);
      return (await cursor.toArray()) as T[];
    });
  }

  count(filter: Filter = {}): Promise<number> {
    return this.run((session) => {
      checkFilter(filter);
      return this.collection.countDocuments(filter as MongoFilter<Doc>, session);
    });
  }

  put(doc: T): Promise<void> {
    return this.run(async (session) => {
      await this.collection.replaceOne({ _id: checkDoc(doc) }, doc, { ...session, upsert: true });
    });
  }

  update(id: string, update: Update, options: { upsert?: boolean } = {}): Promise<boolean> {
    return this.run(async (session) => {
      const result = await this.collection.updateOne({ _id: checkId(id) }, normalizeUpdate(update) as UpdateFilter<Doc>, {
        ...session,
        upsert: options.upsert ?? false,
      });
      return result.matchedCount > 0 || result.upsertedCount > 0;
    });
  }

  updateMany(filter: Filter, update: Update): Promise<number> {
    return this.run(async (session) => {
      checkFilter(filter);
      const result = await this.collection.updateMany(filter as MongoFilter<Doc>, normalizeUpdate(update) as UpdateFilter<Doc>, session);
      return result.matchedCount;
    });
  }

  delete(id: string): Promise<boolean> {
    return this.run(async (session) => (await this.collection.deleteOne({ _id: id }, session)).deletedCount === 1);
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.run(async (session) => {
      checkFilter(filter);
      return (await this.collection.deleteMany(filter as MongoFilter<Doc>, session)).deletedCount;
    });
  }

  ensureIndex(spec: IndexSpec): Promise<void> {
    return this.run(async (session) => {
      const name = indexName(spec);
      const partial = spec.unique ? { partialFilterExpression: uniquePartialFilter(spec.fields) } : {};
      await this.collection.createIndex(spec.fields, { ...session, name, unique: spec.unique ?? false, ...partial });
    });
  }
}

export class MongoReadStore implements ReadStore {
  private readonly client: MongoClient;
  private readonly db: Db;
  private readonly allowStandalone: boolean;
  private transactions: Promise<boolean> | undefined;

  constructor(url: string, dbName: string, options: MongoReadStoreOptions = {}) {
    this.client = new MongoClient(url);
    this.db = this.client.db(dbName);
    this.allowStandalone = options.allowStandalone ?? false;
  }

  /** Whether batches are atomic; refuses a server older than MIN_MONGO_VERSION, and a standalone one unless it is allowed. */
  supportsTransactions(): Promise<boolean> {
    const admin = this.db.admin();
    this.transactions ??= Promise.all([admin.command({ buildInfo: 1 }), admin.command({ hello: 1 })])
      .then(([build, hello]) => {
        checkVersion(String(build.version));
        return checkDeployment(hello, this.allowStandalone);
      })
      .catch((error: unknown) => {
        this.transactions = undefined;
        throw error;
      });
    return this.transactions;
  }

  private checkpoints() {
    return this.db.collection<Checkpoint>('_checkpoints');
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    return new MongoReadCollection<T>(this.db.collection<Doc>(checkCollectionName(name)), name, () => ({}));
  }

  /**
   * withTransaction may run `work` again after a transient error, and a failed write aborts the
   * whole transaction on the server, so `work` must let errors propagate and await its calls in turn.
   */
  async transaction<R>(work: (tx: ReadStoreTx) => Promise<R>): Promise<R> {
    if (!(await this.supportsTransactions())) return this.runWork(work, undefined);
    const session = this.client.startSession();
    try {
      return await session.withTransaction(() => this.runWork(work, session));
    } finally {
      await session.endSession();
    }
  }

  private async runWork<R>(work: (tx: ReadStoreTx) => Promise<R>, session: ClientSession | undefined): Promise<R> {
    let active = true;
    const option: SessionOption = () => {
      if (!active) throw new Error('transaction already ended');
      return session ? { session } : {};
    };
    const tx: ReadStoreTx = {
      collection: <T extends Doc = Doc>(name: string) => new MongoReadCollection<T>(this.db.collection<Doc>(checkCollectionName(name)), name, option),
      setCheckpoint: async (projection, position) => {
        checkPosition(position);
        await this.checkpoints().updateOne({ _id: projection }, { $set: { position } }, { ...option(), upsert: true });
      },
    };
    try {
      return await work(tx);
    } finally {
      active = false;
    }
  }

  setup(work: (store: Pick<ReadStore, 'collection'>) => Promise<void>): Promise<void> {
    return work(this);
  }

  /** Every transaction here has committed by the time it resolves. */
  async flushed(): Promise<void> {}

  async getCheckpoint(projection: string): Promise<number> {
    return (await this.checkpoints().findOne({ _id: projection }))?.position ?? 0;
  }

  /**
   * Not atomic: collection drops cannot join a transaction. The checkpoint goes first, so an
   * interrupted reset leaves checkpoint 0 beside stale documents, which running reset again clears;
   * the other order could leave a checkpoint past emptied collections, which nothing would notice.
   */
  async reset(projection: string, collections: string[]): Promise<void> {
    collections.forEach(checkCollectionName);
    await this.checkpoints().deleteOne({ _id: projection });
    for (const name of collections) await this.db.collection(name).drop();
  }

  /** Also answers whether the deployment is one the store runs on, so /healthz shows a refused standalone server. */
  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
    await this.supportsTransactions();
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

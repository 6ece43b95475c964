/**
 * The embedded ReadStore: one SQLite file, one table `(id, doc)` per collection with the document as
 * JSON text, filters compiled to `json_extract` so that expression indexes serve them.
 *
 * Where it differs from Mongo (keep projections within the common subset): a dotted path does not
 * descend into arrays, and a scalar filter does not match an element of an array field; a unique
 * index does not constrain documents whose indexed field is missing or null; sort puts booleans
 * among the numbers (as 0 and 1).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import Database from 'better-sqlite3';
import { DuplicateKeyError, type Collection, type Doc, type Filter, type FindOptions, type IndexSpec, type ReadStore, type ReadStoreTx, type Scalar, type TransactionOptions, type Update } from './port.ts';
import { applyUpdate, checkCollectionName, checkDoc, checkFilter, checkId, checkPaging, checkPosition, indexName, isScalar, normalizeUpdate, splitPath } from './shared.ts';
import { WriteBehind } from './sqliteWriteBehind.ts';
import type { PendingWrite } from './sqliteWriter.ts';

type Exec = <R>(fn: () => R) => Promise<R>;

/** FIFO: each caller waits for the one before it, whether that one finished or failed. */
class Mutex {
  private tail: Promise<unknown> = Promise.resolve();

  run<R>(fn: () => R | Promise<R>): Promise<R> {
    const result = this.tail.then(fn);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

interface FieldSql {
  value: string;
  type: string;
}

/** SQL for a field's value and JSON type; identical text for a path everywhere, so expression indexes match. */
function fieldSql(path: string): FieldSql {
  if (path === '_id') return { value: 'id', type: `'text'` };
  const jsonPath = `'$${splitPath(path).map((segment) => `."${segment.replaceAll("'", "''")}"`).join('')}'`;
  return { value: `json_extract(doc, ${jsonPath})`, type: `json_type(doc, ${jsonPath})` };
}

type Comparison = '=' | '>' | '>=' | '<' | '<=';

/**
 * Comparisons only match values of the operand's type, as Mongo's type bracketing does; `IS` keeps
 * equality two-valued, so `NOT` of it is true for a missing field.
 */
function compare(field: FieldSql, op: Comparison, operand: Scalar, params: unknown[]): string {
  const sqlOp = op === '=' ? 'IS' : op;
  if (operand === null) {
    if (op === '=' || op === '>=' || op === '<=') return `${field.value} IS NULL`;
    return '0';
  }
  if (typeof operand === 'string') {
    params.push(operand);
    return `(${field.value} ${sqlOp} ? AND ${field.type} IS 'text')`;
  }
  if (typeof operand === 'number') {
    params.push(operand);
    return `(${field.value} ${sqlOp} ? AND ${field.type} IN ('integer', 'real'))`;
  }
  params.push(operand ? 1 : 0);
  return `(${field.value} ${sqlOp} ? AND ${field.type} IN ('true', 'false'))`;
}

const RANGE: Record<string, Comparison> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };

export function compileFilter(filter: Filter): { sql: string; params: unknown[] } {
  checkFilter(filter);
  const params: unknown[] = [];
  const clauses: string[] = [];
  for (const [path, condition] of Object.entries(filter)) {
    const field = fieldSql(path);
    if (isScalar(condition)) {
      clauses.push(compare(field, '=', condition, params));
      continue;
    }
    for (const [operator, operand] of Object.entries(condition)) {
      if (operator === '$eq') clauses.push(compare(field, '=', operand as Scalar, params));
      else if (operator === '$ne') clauses.push(`NOT ${compare(field, '=', operand as Scalar, params)}`);
      else if (operator === '$exists') clauses.push(`${field.type} IS ${operand ? 'NOT ' : ''}NULL`);
      else if (operator === '$in') {
        const alternatives = (operand as Scalar[]).map((value) => compare(field, '=', value, params));
        clauses.push(alternatives.length === 0 ? '0' : `(${alternatives.join(' OR ')})`);
      } else clauses.push(compare(field, RANGE[operator]!, operand as Scalar, params));
    }
  }
  return { sql: clauses.length === 0 ? '1' : clauses.join(' AND '), params };
}

/** The id breaks ties so that skip/limit pages are stable. */
function compileSort(sort: Record<string, 1 | -1> | undefined): string {
  if (sort === undefined || Object.keys(sort).length === 0) return '';
  const keys = Object.entries(sort).map(([path, direction]) => `${fieldSql(path).value} ${direction === 1 ? 'ASC' : 'DESC'}`);
  if (!('_id' in sort)) keys.push('id ASC');
  return ` ORDER BY ${keys.join(', ')}`;
}

function duplicateKey(error: unknown, table: string): DuplicateKeyError | undefined {
  if (!(error instanceof Database.SqliteError) || error.code !== 'SQLITE_CONSTRAINT_UNIQUE') return undefined;
  const index = /index '(.*)'$/.exec(error.message)?.[1];
  return new DuplicateKeyError(table, index?.startsWith(`${table}__`) ? index.slice(table.length + 2) : (index ?? 'unique index'));
}

/** The connection and what is cached about it; shared by the store and every collection handle. */
class Engine {
  readonly db: Database.Database;
  private readonly tables = new Map<string, string>();
  private statements = new Map<string, Database.Statement>();
  /** better-sqlite3 builds a wrapper per `transaction()` call; one that runs whatever it is given is built once. */
  private readonly wrapped: Database.Transaction<(fn: () => unknown) => unknown>;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // Read models are rebuilt from the event log, so a commit lost to a power cut costs nothing.
    this.db.pragma('synchronous = NORMAL');
    this.db.exec('CREATE TABLE IF NOT EXISTS _checkpoints (projection TEXT PRIMARY KEY, position INTEGER NOT NULL)');
    this.wrapped = this.db.transaction((fn: () => unknown) => fn());
  }

  statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      // $in lists of many lengths make many shapes; a full cache is simply started again.
      if (this.statements.size >= 1000) this.statements = new Map();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** The collection's table, quoted for SQL; created the first time. */
  table(collection: string): string {
    let quoted = this.tables.get(collection);
    if (quoted === undefined) {
      quoted = quoteIdent(collection);
      this.db.exec(`CREATE TABLE IF NOT EXISTS ${quoted} (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
      this.tables.set(collection, quoted);
    }
    return quoted;
  }

  upsert(table: string, id: string, doc: string): void {
    this.statement(`INSERT INTO ${table} (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`).run(id, doc);
  }

  setCheckpoint(projection: string, position: number): void {
    this.statement('INSERT INTO _checkpoints (projection, position) VALUES (?, ?) ON CONFLICT (projection) DO UPDATE SET position = excluded.position').run(projection, position);
  }

  /** After a rollback or a drop the cache may name tables that no longer exist. */
  forgetSchema(): void {
    this.tables.clear();
    this.statements = new Map();
  }

  /** All or nothing: a transaction of its own, or a savepoint inside the caller's. */
  atomically<R>(fn: () => R): R {
    return this.wrapped.immediate(fn) as R;
  }

  /** One read, then one write: atomic as it is inside the caller's transaction, which holds the write lock. */
  readThenWrite<R>(fn: () => R): R {
    return this.db.inTransaction ? fn() : this.atomically(fn);
  }
}

class SqliteCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly engine: Engine,
    private readonly name: string,
    private readonly exec: Exec,
  ) {}

  private run<R>(fn: (table: string) => R): Promise<R> {
    return this.exec(() => {
      try {
        return fn(this.engine.table(this.name));
      } catch (error) {
        throw duplicateKey(error, this.name) ?? error;
      }
    });
  }

  private select(table: string, filter: Filter, options: FindOptions): T[] {
    checkPaging(options);
    const where = compileFilter(filter);
    const params = [...where.params];
    let paging = '';
    if (options.limit !== undefined || options.skip !== undefined) {
      paging = ' LIMIT ? OFFSET ?';
      params.push(options.limit ?? -1, options.skip ?? 0);
    }
    const sql = `SELECT doc FROM ${table} WHERE ${where.sql}${compileSort(options.sort)}${paging}`;
    return (this.engine.statement(sql).all(...params) as { doc: string }[]).map((row) => JSON.parse(row.doc) as T);
  }

  private load(table: string, id: string): T | null {
    const row = this.engine.statement(`SELECT doc FROM ${table} WHERE id = ?`).get(id) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as T) : null;
  }

  get(id: string): Promise<T | null> {
    return this.run((table) => this.load(table, id));
  }

  findOne(filter: Filter, options: FindOptions = {}): Promise<T | null> {
    return this.run((table) => this.select(table, filter, { ...options, limit: 1 })[0] ?? null);
  }

  find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return this.run((table) => this.select(table, filter, options));
  }

  count(filter: Filter = {}): Promise<number> {
    return this.run((table) => {
      const where = compileFilter(filter);
      return (this.engine.statement(`SELECT count(*) AS n FROM ${table} WHERE ${where.sql}`).get(...where.params) as { n: number }).n;
    });
  }

  put(doc: T): Promise<void> {
    return this.run((table) => this.engine.upsert(table, checkDoc(doc), JSON.stringify(doc)));
  }

  update(id: string, update: Update, options: { upsert?: boolean } = {}): Promise<boolean> {
    return this.run((table) => {
      const normalized = normalizeUpdate(update);
      return this.engine.readThenWrite(() => {
        const current = this.load(table, id);
        if (current === null) {
          if (!options.upsert) return false;
          const created = applyUpdate({ _id: checkId(id) }, normalized, true);
          this.engine.statement(`INSERT INTO ${table} (id, doc) VALUES (?, ?)`).run(id, JSON.stringify(created));
          return true;
        }
        this.engine.statement(`UPDATE ${table} SET doc = ? WHERE id = ?`).run(JSON.stringify(applyUpdate(current, normalized, false)), id);
        return true;
      });
    });
  }

  updateMany(filter: Filter, update: Update): Promise<number> {
    return this.run((table) => {
      const normalized = normalizeUpdate(update);
      const where = compileFilter(filter);
      return this.engine.atomically(() => {
        const rows = this.engine.statement(`SELECT id, doc FROM ${table} WHERE ${where.sql}`).all(...where.params) as { id: string; doc: string }[];
        const write = this.engine.statement(`UPDATE ${table} SET doc = ? WHERE id = ?`);
        for (const row of rows) write.run(JSON.stringify(applyUpdate(JSON.parse(row.doc) as Doc, normalized, false)), row.id);
        return rows.length;
      });
    });
  }

  delete(id: string): Promise<boolean> {
    return this.run((table) => this.engine.statement(`DELETE FROM ${table} WHERE id = ?`).run(id).changes === 1);
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.run((table) => {
      const where = compileFilter(filter);
      return this.engine.statement(`DELETE FROM ${table} WHERE ${where.sql}`).run(...where.params).changes;
    });
  }

  ensureIndex(spec: IndexSpec): Promise<void> {
    return this.run((table) => {
      const name = indexName(spec);
      const sqlName = `${this.name}__${name}`;
      const columns = Object.entries(spec.fields).map(([path, direction]) => `${fieldSql(path).value} ${direction === 1 ? 'ASC' : 'DESC'}`);
      const sql = `CREATE ${spec.unique ? 'UNIQUE ' : ''}INDEX ${quoteIdent(sqlName)} ON ${table} (${columns.join(', ')})`;
      const existing = this.engine.db.prepare(`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?`).get(sqlName) as { sql: string } | undefined;
      if (existing === undefined) this.engine.db.exec(sql);
      else if (existing.sql !== sql) throw new Error(`index ${name} on ${this.name} already exists with another definition`);
    });
  }
}

interface TxScope {
  active: boolean;
}

/**
 * A bulk transaction's writes until it ends, when they go to the writer thread; or, once the
 * transaction asks a query (which only SQLite can answer), a transaction of this connection's own.
 */
class BulkScope {
  /** Quoted table → id → the document's JSON text, null once deleted. */
  readonly writes = new Map<string, Map<string, string | null>>();
  readonly checkpoints = new Map<string, number>();
  direct = false;

  written(table: string, id: string): string | null | undefined {
    return this.writes.get(table)?.get(id);
  }

  write(table: string, id: string, doc: string | null): void {
    let docs = this.writes.get(table);
    if (docs === undefined) {
      docs = new Map();
      this.writes.set(table, docs);
    }
    docs.set(id, doc);
  }

  pending(): PendingWrite[] {
    const list: PendingWrite[] = [];
    for (const [table, docs] of this.writes) for (const [id, doc] of docs) list.push([table, id, doc]);
    return list;
  }
}

/**
 * A collection inside a bulk transaction: reads see the transaction's own writes, then those still
 * on their way to the writer thread, then the file; writes are kept in the scope. Queries first make
 * the transaction direct (`toDirect`), and from then on every call goes to `direct`.
 */
class BufferedCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly engine: Engine,
    private readonly name: string,
    private readonly scope: BulkScope,
    private readonly writer: WriteBehind,
    private readonly direct: SqliteCollection<T>,
    private readonly exec: Exec,
    private readonly toDirect: () => Promise<void>,
  ) {}

  private text(table: string, id: string): string | null {
    const own = this.scope.written(table, id);
    if (own !== undefined) return own;
    const unwritten = this.writer.lookup(table, id);
    if (unwritten !== undefined) return unwritten;
    const row = this.engine.statement(`SELECT doc FROM ${table} WHERE id = ?`).get(id) as { doc: string } | undefined;
    return row?.doc ?? null;
  }

  private buffered<R>(fn: (table: string) => R): Promise<R> {
    return this.exec(() => fn(this.engine.table(this.name)));
  }

  private async query<R>(fn: () => Promise<R>): Promise<R> {
    await this.toDirect();
    return fn();
  }

  get(id: string): Promise<T | null> {
    if (this.scope.direct) return this.direct.get(id);
    return this.buffered((table) => {
      const text = this.text(table, id);
      return text === null ? null : (JSON.parse(text) as T);
    });
  }

  put(doc: T): Promise<void> {
    if (this.scope.direct) return this.direct.put(doc);
    return this.buffered((table) => this.scope.write(table, checkDoc(doc), JSON.stringify(doc)));
  }

  update(id: string, update: Update, options: { upsert?: boolean } = {}): Promise<boolean> {
    if (this.scope.direct) return this.direct.update(id, update, options);
    return this.buffered((table) => {
      const normalized = normalizeUpdate(update);
      const text = this.text(table, id);
      if (text === null) {
        if (!options.upsert) return false;
        this.scope.write(table, id, JSON.stringify(applyUpdate({ _id: checkId(id) }, normalized, true)));
        return true;
      }
      this.scope.write(table, id, JSON.stringify(applyUpdate(JSON.parse(text) as Doc, normalized, false)));
      return true;
    });
  }

  delete(id: string): Promise<boolean> {
    if (this.scope.direct) return this.direct.delete(id);
    return this.buffered((table) => {
      if (this.text(table, id) === null) return false;
      this.scope.write(table, id, null);
      return true;
    });
  }

  findOne(filter: Filter, options?: FindOptions): Promise<T | null> {
    return this.query(() => this.direct.findOne(filter, options));
  }

  find(filter: Filter, options?: FindOptions): Promise<T[]> {
    return this.query(() => this.direct.find(filter, options));
  }

  count(filter?: Filter): Promise<number> {
    return this.query(() => this.direct.count(filter));
  }

  updateMany(filter: Filter, update: Update): Promise<number> {
    return this.query(() => this.direct.updateMany(filter, update));
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.query(() => this.direct.deleteMany(filter));
  }

  ensureIndex(spec: IndexSpec): Promise<void> {
    return this.query(() => this.direct.ensureIndex(spec));
  }
}

export class SqliteReadStore implements ReadStore {
  private readonly engine: Engine;
  /** One connection: while a transaction is open, nobody else's statement may run on it. */
  private readonly lock = new Mutex();
  /** Tells a call made from inside `work` (which would wait on itself forever) from another caller's. */
  private readonly insideTransaction = new AsyncLocalStorage<TxScope>();
  /** Commits bulk transactions on a thread of its own; none for a database private to this connection. */
  private readonly writer: WriteBehind | undefined;

  constructor(file: string) {
    this.engine = new Engine(file);
    this.writer = file === '' || file === ':memory:' ? undefined : new WriteBehind(file);
  }

  /** Runs `fn` alone on the connection; a call from inside a transaction's own work would wait on itself forever. */
  private locked<R>(fn: () => R | Promise<R>): Promise<R> {
    if (this.insideTransaction.getStore()?.active) {
      return Promise.reject(new Error('ReadStore used directly inside its own transaction: use the tx handle'));
    }
    return this.lock.run(fn);
  }

  /** What a transaction's handles run through: refused once the transaction has ended. */
  private static execWhile(scope: TxScope): Exec {
    return async (fn) => {
      if (!scope.active) throw new Error('transaction already ended');
      return fn();
    };
  }

  /** Ends a transaction that threw: nothing of it stays. */
  private abandon(scope: TxScope, error: unknown): never {
    scope.active = false;
    if (this.engine.db.inTransaction) this.engine.db.exec('ROLLBACK');
    this.engine.forgetSchema();
    throw error;
  }

  /**
   * Every call outside a bulk transaction waits for the bulk transactions before it to be committed,
   * so that it sees them; a transaction is also told of one the writer refused.
   */
  private outside<R>(fn: () => R | Promise<R>, options: { transaction?: boolean } = {}): Promise<R> {
    const writer = this.writer;
    if (writer === undefined) return this.locked(fn);
    return this.locked(async () => {
      await writer.idle();
      const failure = options.transaction ? writer.takeFailure() : undefined;
      if (failure !== undefined) throw failure;
      return fn();
    });
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    return new SqliteCollection<T>(this.engine, checkCollectionName(name), (fn) => this.outside(fn));
  }

  transaction<R>(work: (tx: ReadStoreTx) => Promise<R>, options: TransactionOptions = {}): Promise<R> {
    if (options.bulk && this.writer?.usable) return this.bulkTransaction(work, this.writer);
    return this.outside(
      async () => {
        const scope: TxScope = { active: true };
        const exec = SqliteReadStore.execWhile(scope);
        const tx: ReadStoreTx = {
          collection: <T extends Doc = Doc>(name: string) => new SqliteCollection<T>(this.engine, checkCollectionName(name), exec),
          setCheckpoint: (projection, position) =>
            exec(() => {
              checkPosition(position);
              this.engine.setCheckpoint(projection, position);
            }),
        };
        // A bulk batch is replayed from the log after a crash (docs/decisions.md, "Performance"): neither
        // its commit nor the WAL checkpoints it triggers wait for the disk.
        if (options.bulk) this.engine.db.exec('PRAGMA synchronous = OFF');
        try {
          this.engine.db.exec('BEGIN IMMEDIATE');
          const result = await this.insideTransaction.run(scope, () => work(tx));
          scope.active = false;
          this.engine.db.exec('COMMIT');
          return result;
        } catch (error) {
          return this.abandon(scope, error);
        } finally {
          if (options.bulk) this.engine.db.exec('PRAGMA synchronous = NORMAL');
        }
      },
      { transaction: true },
    );
  }

  /**
   * A bulk transaction (a projector catching up) is computed here and committed by the writer thread
   * while the next one is computed: SQLite's inserts, index upkeep and commits then overlap reading
   * and applying the log (docs/performance.md, "Session 12"). It resolves once handed over; `flushed`
   * says when it can be read. One that asks a query is committed here instead, after the writer has
   * caught up, so that the query sees every write before it.
   */
  private bulkTransaction<R>(work: (tx: ReadStoreTx) => Promise<R>, writer: WriteBehind): Promise<R> {
    return this.locked(async () => {
      await writer.room();
      const earlier = writer.takeFailure();
      if (earlier !== undefined) throw earlier;
      const txScope: TxScope = { active: true };
      const scope = new BulkScope();
      const exec = SqliteReadStore.execWhile(txScope);
      const toDirect = async () => {
        if (scope.direct) return;
        await writer.idle();
        const failure = writer.takeFailure();
        if (failure !== undefined) throw failure;
        if (!txScope.active) throw new Error('transaction already ended');
        this.engine.db.exec('PRAGMA synchronous = OFF');
        this.engine.db.exec('BEGIN IMMEDIATE');
        scope.direct = true;
        for (const [table, id, doc] of scope.pending()) {
          if (doc === null) this.engine.statement(`DELETE FROM ${table} WHERE id = ?`).run(id);
          else this.engine.upsert(table, id, doc);
        }
        for (const [projection, position] of scope.checkpoints) this.engine.setCheckpoint(projection, position);
      };
      const tx: ReadStoreTx = {
        collection: <T extends Doc = Doc>(name: string) => {
          const checked = checkCollectionName(name);
          return new BufferedCollection<T>(this.engine, checked, scope, writer, new SqliteCollection<T>(this.engine, checked, exec), exec, toDirect);
        },
        setCheckpoint: (projection, position) =>
          exec(() => {
            checkPosition(position);
            if (scope.direct) this.engine.setCheckpoint(projection, position);
            else scope.checkpoints.set(projection, position);
          }),
      };
      try {
        const result = await this.insideTransaction.run(txScope, () => work(tx));
        txScope.active = false;
        if (scope.direct) {
          this.engine.db.exec('COMMIT');
        } else {
          // Computed on documents the writer has since refused: the transaction is void.
          const failure = writer.takeFailure();
          if (failure !== undefined) throw failure;
          writer.submit(scope.pending(), [...scope.checkpoints]);
        }
        return result;
      } catch (error) {
        return this.abandon(txScope, error);
      } finally {
        if (scope.direct) this.engine.db.exec('PRAGMA synchronous = NORMAL');
      }
    });
  }

  flushed(): Promise<void> {
    const writer = this.writer;
    if (writer === undefined) return Promise.resolve();
    return writer.idle().then(() => {
      const failure = writer.pendingFailure();
      if (failure !== undefined) throw failure;
    });
  }

  setup(work: (store: Pick<ReadStore, 'collection'>) => Promise<void>): Promise<void> {
    return this.transaction(work);
  }

  getCheckpoint(projection: string): Promise<number> {
    return this.outside(() => {
      const row = this.engine.statement('SELECT position FROM _checkpoints WHERE projection = ?').get(projection) as { position: number } | undefined;
      return row?.position ?? 0;
    });
  }

  reset(projection: string, collections: string[]): Promise<void> {
    return this.outside(() => {
      collections.forEach(checkCollectionName);
      try {
        this.engine.atomically(() => {
          for (const name of collections) this.engine.db.exec(`DROP TABLE IF EXISTS ${quoteIdent(name)}`);
          this.engine.db.prepare('DELETE FROM _checkpoints WHERE projection = ?').run(projection);
        });
      } finally {
        this.engine.forgetSchema();
      }
    });
  }

  ping(): Promise<void> {
    return this.outside(() => {
      this.engine.db.prepare('SELECT 1').get();
    });
  }

  close(): Promise<void> {
    return this.outside(async () => {
      await this.writer?.close();
      this.engine.db.close();
    });
  }
}

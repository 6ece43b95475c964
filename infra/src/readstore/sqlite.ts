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
    return this.run((table) => {
      this.engine
        .statement(`INSERT INTO ${table} (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`)
        .run(checkDoc(doc), JSON.stringify(doc));
    });
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

export class SqliteReadStore implements ReadStore {
  private readonly engine: Engine;
  /** One connection: while a transaction is open, nobody else's statement may run on it. */
  private readonly lock = new Mutex();
  /** Tells a call made from inside `work` (which would wait on itself forever) from another caller's. */
  private readonly insideTransaction = new AsyncLocalStorage<TxScope>();

  constructor(file: string) {
    this.engine = new Engine(file);
  }

  private outside<R>(fn: () => R | Promise<R>): Promise<R> {
    if (this.insideTransaction.getStore()?.active) {
      return Promise.reject(new Error('ReadStore used directly inside its own transaction: use the tx handle'));
    }
    return this.lock.run(fn);
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    return new SqliteCollection<T>(this.engine, checkCollectionName(name), (fn) => this.outside(fn));
  }

  transaction<R>(work: (tx: ReadStoreTx) => Promise<R>, options: TransactionOptions = {}): Promise<R> {
    return this.outside(async () => {
      const scope: TxScope = { active: true };
      const exec: Exec = async (fn) => {
        if (!scope.active) throw new Error('transaction already ended');
        return fn();
      };
      const tx: ReadStoreTx = {
        collection: <T extends Doc = Doc>(name: string) => new SqliteCollection<T>(this.engine, checkCollectionName(name), exec),
        setCheckpoint: (projection, position) =>
          exec(() => {
            checkPosition(position);
            this.engine
              .statement('INSERT INTO _checkpoints (projection, position) VALUES (?, ?) ON CONFLICT (projection) DO UPDATE SET position = excluded.position')
              .run(projection, position);
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
        scope.active = false;
        if (this.engine.db.inTransaction) this.engine.db.exec('ROLLBACK');
        this.engine.forgetSchema();
        throw error;
      } finally {
        if (options.bulk) this.engine.db.exec('PRAGMA synchronous = NORMAL');
      }
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
    return this.outside(() => {
      this.engine.db.close();
    });
  }
}

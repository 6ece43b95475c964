/**
 * The scale-out ReadStore on PostgreSQL: schema `read_models`, one table `(id, doc jsonb)` per
 * collection, filters compiled to `doc #> '{path}'` so that expression indexes serve equality, and
 * checkpoints in `read_models._checkpoints`, written in the same transaction as the batch they end.
 *
 * Semantics follow the SQLite adapter (the common subset of the port): comparisons match only values
 * of the operand's type, strings compare and sort by code point (`COLLATE "C"`, as SQLite and Mongo
 * do), sort puts missing and null first and then numbers, strings, objects, arrays, booleans (Mongo's
 * order), a dotted path does not descend into arrays, and a unique index does not constrain
 * documents that lack the field or hold null there.
 *
 * Inside `transaction`, a failed statement aborts the whole PostgreSQL transaction, so `work` must let
 * errors propagate (the projection runner does) rather than catch one and carry on.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { inTransaction } from '../pgTransaction.ts';
import { DuplicateKeyError, type Collection, type Doc, type Filter, type FindOptions, type IndexSpec, type ReadStore, type ReadStoreTx, type Scalar, type TransactionOptions, type Update } from './port.ts';
import { applyUpdate, checkCollectionName, checkDoc, checkFilter, checkId, checkPaging, checkPosition, indexName, isScalar, normalizeUpdate, splitPath } from './shared.ts';

const SCHEMA = 'read_models';
/** Serialises the first processes to start as they create the schema. */
const SCHEMA_LOCK = 0x5c121e02;
/** PostgreSQL truncates longer identifiers, which could make two index names one. */
const MAX_IDENTIFIER = 63;

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
const tableOf = (collection: string) => `${SCHEMA}.${quoteIdent(collection)}`;

/** The shared checks, plus PostgreSQL's identifier length: a longer name would be truncated into another's. */
function checkName(name: string): string {
  checkCollectionName(name);
  if (Buffer.byteLength(name) > MAX_IDENTIFIER) throw new Error(`invalid collection name ${JSON.stringify(name)}: longer than ${MAX_IDENTIFIER} bytes`);
  return name;
}

/** What runs a statement: the pool, or the one client of an open transaction. */
interface Queryable {
  query<R extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
}

interface FieldSql {
  /** The value as jsonb; SQL NULL when the path is missing. */
  json: string;
  /** The value as text, for string comparisons and sorts. */
  text: string;
  /** jsonb_typeof of the value; SQL NULL when missing. */
  type: string;
}

/** Identical SQL text for a path everywhere, so that expression indexes match the filters. */
function fieldSql(path: string): FieldSql {
  if (path === '_id') return { json: 'to_jsonb(id)', text: 'id', type: `'string'` };
  const literal = `'{${splitPath(path)
    .map((segment) => `"${segment.replaceAll("'", "''")}"`)
    .join(',')}}'`;
  return { json: `(doc #> ${literal})`, text: `(doc #>> ${literal})`, type: `jsonb_typeof(doc #> ${literal})` };
}

type Comparison = '=' | '>' | '>=' | '<' | '<=';

class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Comparisons match only values of the operand's type, as Mongo's type bracketing does. */
function compare(path: string, op: Comparison, operand: Scalar, params: Params): string {
  const field = fieldSql(path);
  const isId = path === '_id';
  if (operand === null) {
    if (op === '>' || op === '<' || isId) return 'false';
    return `(${field.json} IS NULL OR ${field.json} = 'null'::jsonb)`;
  }
  if (typeof operand === 'string') {
    if (isId) return `id ${op} ${params.add(operand)}`;
    if (op === '=') return `${field.json} = ${params.add(JSON.stringify(operand))}::jsonb`;
    return `(${field.type} = 'string' AND ${field.text} COLLATE "C" ${op} ${params.add(operand)})`;
  }
  if (isId) return 'false';
  if (op === '=') return `${field.json} = ${params.add(JSON.stringify(operand))}::jsonb`;
  const type = typeof operand === 'number' ? 'number' : 'boolean';
  return `(${field.type} = '${type}' AND ${field.json} ${op} ${params.add(JSON.stringify(operand))}::jsonb)`;
}

const RANGE: Record<string, Comparison> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };

export function compileFilter(filter: Filter, params = new Params()): { sql: string; params: unknown[] } {
  checkFilter(filter);
  const clauses: string[] = [];
  for (const [path, condition] of Object.entries(filter)) {
    if (isScalar(condition)) {
      clauses.push(compare(path, '=', condition, params));
      continue;
    }
    for (const [operator, operand] of Object.entries(condition)) {
      if (operator === '$eq') clauses.push(compare(path, '=', operand as Scalar, params));
      // Two-valued: a missing field compares as NULL, and NOT NULL would drop the document.
      else if (operator === '$ne') clauses.push(`NOT coalesce(${compare(path, '=', operand as Scalar, params)}, false)`);
      else if (operator === '$exists') clauses.push(path === '_id' ? String(operand) : `${fieldSql(path).json} IS ${operand ? 'NOT ' : ''}NULL`);
      else if (operator === '$in') {
        const alternatives = (operand as Scalar[]).map((value) => compare(path, '=', value, params));
        clauses.push(alternatives.length === 0 ? 'false' : `(${alternatives.join(' OR ')})`);
      } else clauses.push(compare(path, RANGE[operator]!, operand as Scalar, params));
    }
  }
  return { sql: clauses.length === 0 ? 'true' : clauses.join(' AND '), params: params.values };
}

/** Mongo's order of types, then the value within its type; the id breaks ties so that pages are stable. */
function compileSort(sort: Record<string, 1 | -1> | undefined): string {
  if (sort === undefined || Object.keys(sort).length === 0) return '';
  const keys = Object.entries(sort).flatMap(([path, direction]) => {
    const dir = direction === 1 ? 'ASC' : 'DESC';
    if (path === '_id') return [`id ${dir}`];
    const field = fieldSql(path);
    return [
      `CASE ${field.type} WHEN 'number' THEN 1 WHEN 'string' THEN 2 WHEN 'object' THEN 3 WHEN 'array' THEN 4 WHEN 'boolean' THEN 5 ELSE 0 END ${dir}`,
      `CASE ${field.type} WHEN 'number' THEN ${field.json}::numeric END ${dir}`,
      `CASE ${field.type} WHEN 'string' THEN ${field.text} END COLLATE "C" ${dir}`,
      `${field.json} ${dir}`,
    ];
  });
  if (!('_id' in sort)) keys.push('id ASC');
  return ` ORDER BY ${keys.join(', ')}`;
}

/** What an index is, kept as its comment: tells an existing index apart from another with the same name. */
const indexDefinition = (collection: string, name: string, spec: IndexSpec) =>
  JSON.stringify({ collection, name, fields: Object.entries(spec.fields), unique: spec.unique ?? false, ...(spec.unique ? { nulls: 'unconstrained' } : {}) });

/**
 * A unique index constrains a document only where every field holds a value other than null, as
 * SQLite's does (a missing field is SQL NULL already; JSON null is a value to jsonb). The planner
 * proves `x = '"a"'` implies `x <> 'null'`, so equality lookups still use the index.
 */
const uniquePredicate = (spec: IndexSpec) =>
  ` WHERE ${Object.keys(spec.fields)
    .map((path) => `${fieldSql(path).json} <> 'null'::jsonb`)
    .join(' AND ')}`;

/** `<collection>__<index>`, or a digest of it when PostgreSQL would truncate the name. */
function sqlIndexName(collection: string, name: string): string {
  const full = `${collection}__${name}`;
  if (Buffer.byteLength(full) <= MAX_IDENTIFIER) return full;
  return `ix_${createHash('sha256').update(full).digest('hex').slice(0, 40)}`;
}

function isUniqueViolation(error: unknown): error is pg.DatabaseError {
  return error instanceof pg.DatabaseError && error.code === '23505';
}

/** Operations on one transaction's handle run one at a time: they share its client, and an update reads then writes. */
class Serial {
  private tail: Promise<unknown> = Promise.resolve();

  run<R>(fn: () => Promise<R>): Promise<R> {
    const result = this.tail.then(fn);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** How a collection reaches the database: outside a transaction, or inside one. */
interface Scope {
  /** Runs `fn` with something to query, inside a transaction when `atomic` asks for one. */
  run<R>(fn: (db: Queryable) => Promise<R>, atomic: boolean): Promise<R>;
  /** Creates the collection's table when missing. */
  ensureTable(db: Queryable, collection: string): Promise<void>;
}

class PostgresCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly scope: Scope,
    private readonly name: string,
    private readonly indexName: (sqlName: string) => Promise<string>,
  ) {}

  private run<R>(fn: (db: Queryable, table: string) => Promise<R>, atomic = false): Promise<R> {
    return this.scope
      .run(async (db) => {
        await this.scope.ensureTable(db, this.name);
        return fn(db, tableOf(this.name));
      }, atomic)
      .catch(async (error: unknown) => {
        if (isUniqueViolation(error) && error.constraint !== undefined && !error.constraint.endsWith('_pkey')) {
          throw new DuplicateKeyError(this.name, await this.indexName(error.constraint));
        }
        throw error;
      });
  }

  private async select(db: Queryable, table: string, filter: Filter, options: FindOptions): Promise<T[]> {
    checkPaging(options);
    const params = new Params();
    const where = compileFilter(filter, params);
    let paging = '';
    if (options.limit !== undefined) paging += ` LIMIT ${params.add(options.limit)}`;
    if (options.skip !== undefined) paging += ` OFFSET ${params.add(options.skip)}`;
    const sql = `SELECT doc FROM ${table} WHERE ${where.sql}${compileSort(options.sort)}${paging}`;
    return (await db.query<{ doc: T }>(sql, params.values)).rows.map((row) => row.doc);
  }

  get(id: string): Promise<T | null> {
    return this.run(async (db, table) => (await db.query<{ doc: T }>(`SELECT doc FROM ${table} WHERE id = $1`, [id])).rows[0]?.doc ?? null);
  }

  async findOne(filter: Filter, options: FindOptions = {}): Promise<T | null> {
    return (await this.find(filter, { ...options, limit: 1 }))[0] ?? null;
  }

  find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return this.run((db, table) => this.select(db, table, filter, options));
  }

  count(filter: Filter = {}): Promise<number> {
    return this.run(async (db, table) => {
      const where = compileFilter(filter);
      return Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE ${where.sql}`, where.params)).rows[0]!.n);
    });
  }

  put(doc: T): Promise<void> {
    return this.run(async (db, table) => {
      await db.query(`INSERT INTO ${table} (id, doc) VALUES ($1, $2::jsonb) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`, [
        checkDoc(doc),
        JSON.stringify(doc),
      ]);
    });
  }

  update(id: string, update: Update, options: { upsert?: boolean } = {}): Promise<boolean> {
    return this.run(async (db, table) => {
      const normalized = normalizeUpdate(update);
      const load = async () => (await db.query<{ doc: Doc }>(`SELECT doc FROM ${table} WHERE id = $1 FOR UPDATE`, [id])).rows[0]?.doc;
      let current = await load();
      if (current === undefined) {
        if (!options.upsert) return false;
        const created = applyUpdate({ _id: checkId(id) }, normalized, true);
        const inserted = await db.query(`INSERT INTO ${table} (id, doc) VALUES ($1, $2::jsonb) ON CONFLICT (id) DO NOTHING`, [id, JSON.stringify(created)]);
        if (inserted.rowCount === 1) return true;
        // Another transaction inserted it between our read and our insert: update theirs.
        current = await load();
        if (current === undefined) return false;
      }
      await db.query(`UPDATE ${table} SET doc = $2::jsonb WHERE id = $1`, [id, JSON.stringify(applyUpdate(current, normalized, false))]);
      return true;
    }, true);
  }

  updateMany(filter: Filter, update: Update): Promise<number> {
    return this.run(async (db, table) => {
      const normalized = normalizeUpdate(update);
      const where = compileFilter(filter);
      const rows = (await db.query<{ id: string; doc: Doc }>(`SELECT id, doc FROM ${table} WHERE ${where.sql} FOR UPDATE`, where.params)).rows;
      if (rows.length === 0) return 0;
      const docs = rows.map((row) => JSON.stringify(applyUpdate(row.doc, normalized, false)));
      await db.query(`UPDATE ${table} AS t SET doc = u.doc::jsonb FROM unnest($1::text[], $2::text[]) AS u(id, doc) WHERE t.id = u.id`, [
        rows.map((row) => row.id),
        docs,
      ]);
      return rows.length;
    }, true);
  }

  delete(id: string): Promise<boolean> {
    return this.run(async (db, table) => (await db.query(`DELETE FROM ${table} WHERE id = $1`, [id])).rowCount === 1);
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.run(async (db, table) => {
      const where = compileFilter(filter);
      return (await db.query(`DELETE FROM ${table} WHERE ${where.sql}`, where.params)).rowCount ?? 0;
    });
  }

  ensureIndex(spec: IndexSpec): Promise<void> {
    return this.run(async (db, table) => {
      const name = indexName(spec);
      const sqlName = sqlIndexName(this.name, name);
      const definition = indexDefinition(this.name, name, spec);
      // Two processes may add the same index at once: under the table's lock the second finds the first's.
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${SCHEMA}.${this.name}`]);
      const existing = (
        await db.query<{ comment: string | null }>(`SELECT obj_description(to_regclass($1), 'pg_class') AS comment`, [`${SCHEMA}.${quoteIdent(sqlName)}`])
      ).rows[0];
      if (existing?.comment === undefined || existing.comment === null) {
        // An index expression must be immutable and `to_jsonb` is not, so `_id` is indexed as its text column.
        const columns = Object.entries(spec.fields).map(([path, direction]) => `${path === '_id' ? 'id' : `(${fieldSql(path).json})`} ${direction === 1 ? 'ASC' : 'DESC'}`);
        await db.query(`CREATE ${spec.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${quoteIdent(sqlName)} ON ${table} (${columns.join(', ')})${spec.unique ? uniquePredicate(spec) : ''}`);
        await db.query(`COMMENT ON INDEX ${SCHEMA}.${quoteIdent(sqlName)} IS ${pg.escapeLiteral(definition)}`);
      } else if (existing.comment !== definition) {
        throw new Error(`index ${name} on ${this.name} already exists with another definition`);
      }
    }, true);
  }
}

export interface PostgresReadStoreOptions {
  /** Connections in the pool (a transaction holds one until it ends). */
  maxConnections?: number;
}

export class PostgresReadStore implements ReadStore {
  private readonly pool: pg.Pool;
  private schema: Promise<void> | undefined;
  /** Tables known to exist: created outside a transaction, or by one that committed. */
  private readonly tables = new Set<string>();

  constructor(connectionString: string, options: PostgresReadStoreOptions = {}) {
    this.pool = new pg.Pool({ connectionString, max: options.maxConnections ?? 10 });
    // An idle client losing its connection emits here; without a listener that would crash the process.
    this.pool.on('error', () => undefined);
  }

  private ready(): Promise<void> {
    this.schema ??= inTransaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${SCHEMA}._checkpoints (projection text PRIMARY KEY, position bigint NOT NULL)`);
    }).catch((error: unknown) => {
      this.schema = undefined;
      throw error;
    });
    return this.schema;
  }

  /** Creates a table under a lock keyed by its name, so that concurrent creators wait instead of failing. */
  private async createTable(db: Queryable, collection: string): Promise<void> {
    await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${SCHEMA}.${collection}`]);
    await db.query(`CREATE TABLE IF NOT EXISTS ${tableOf(collection)} (id text COLLATE "C" PRIMARY KEY, doc jsonb NOT NULL)`);
  }

  private readonly outside: Scope = {
    run: async (fn, atomic) => {
      await this.ready();
      return atomic ? inTransaction(this.pool, fn) : fn(this.pool);
    },
    ensureTable: async (_db, collection) => {
      if (this.tables.has(collection)) return;
      await inTransaction(this.pool, (client) => this.createTable(client, collection));
      this.tables.add(collection);
    },
  };

  private async resolveIndexName(sqlName: string): Promise<string> {
    const comment = (await this.pool.query<{ comment: string | null }>(`SELECT obj_description(to_regclass($1), 'pg_class') AS comment`, [`${SCHEMA}.${quoteIdent(sqlName)}`])).rows[0]?.comment;
    if (comment) return (JSON.parse(comment) as { name: string }).name;
    return sqlName;
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    return new PostgresCollection<T>(this.outside, checkName(name), (sqlName) => this.resolveIndexName(sqlName));
  }

  async transaction<R>(work: (tx: ReadStoreTx) => Promise<R>, options: TransactionOptions = {}): Promise<R> {
    await this.ready();
    const created = new Set<string>();
    const result = await inTransaction(this.pool, async (client) => {
      // The commit of a bulk batch, which is replayed from the log, does not wait for the WAL flush;
      // PostgreSQL never applies part of a transaction, so it is lost whole or kept whole.
      if (options.bulk) await client.query('SET LOCAL synchronous_commit = off');
      let active = true;
      const serial = new Serial();
      // Written together just before the commit: a batch moves every projection's checkpoint, and a
      // statement each was a round trip each (23 per batch) on the path of every read-your-writes wait.
      const checkpoints = new Map<string, number>();
      const scope: Scope = {
        run: (fn) =>
          serial.run(() => {
            if (!active) throw new Error('transaction already ended');
            return fn(client);
          }),
        ensureTable: async (db, collection) => {
          if (this.tables.has(collection) || created.has(collection)) return;
          await this.createTable(db, collection);
          created.add(collection);
        },
      };
      const tx: ReadStoreTx = {
        collection: <T extends Doc = Doc>(name: string) => new PostgresCollection<T>(scope, checkName(name), (sqlName) => this.resolveIndexName(sqlName)),
        setCheckpoint: async (projection, position) => {
          if (!active) throw new Error('transaction already ended');
          checkPosition(position);
          checkpoints.set(projection, position);
        },
      };
      try {
        const result = await work(tx);
        if (checkpoints.size > 0) {
          await scope.run((db) =>
            db.query(
              `INSERT INTO ${SCHEMA}._checkpoints (projection, position) SELECT * FROM unnest($1::text[], $2::bigint[]) ON CONFLICT (projection) DO UPDATE SET position = excluded.position`,
              [[...checkpoints.keys()], [...checkpoints.values()]],
            ),
            true,
          );
        }
        return result;
      } finally {
        // Operations still queued find the transaction ended instead of running after COMMIT.
        await serial.run(async () => {
          active = false;
        });
      }
    });
    for (const name of created) this.tables.add(name);
    return result;
  }

  setup(work: (store: Pick<ReadStore, 'collection'>) => Promise<void>): Promise<void> {
    return work(this);
  }

  /** Every transaction here has committed by the time it resolves. */
  async flushed(): Promise<void> {}

  async getCheckpoint(projection: string): Promise<number> {
    await this.ready();
    const row = (await this.pool.query<{ position: string }>(`SELECT position FROM ${SCHEMA}._checkpoints WHERE projection = $1`, [projection])).rows[0];
    return Number(row?.position ?? 0);
  }

  async reset(projection: string, collections: string[]): Promise<void> {
    collections.forEach(checkName);
    await this.ready();
    try {
      await inTransaction(this.pool, async (client) => {
        for (const name of collections) {
          await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${SCHEMA}.${name}`]);
          await client.query(`DROP TABLE IF EXISTS ${tableOf(name)}`);
        }
        await client.query(`DELETE FROM ${SCHEMA}._checkpoints WHERE projection = $1`, [projection]);
      });
    } finally {
      for (const name of collections) this.tables.delete(name);
    }
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

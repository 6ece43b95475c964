/**
 * Checks both adapters run before touching their engine, so that a filter, update or name that one
 * engine would reject is rejected by the other too, with the same message.
 */
import type { Filter, FindOptions, IndexSpec, Scalar, Update } from './port.ts';

const COLLECTION_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** Plain names keep clear of `_checkpoints`, Mongo's `system.*` and SQLite's `sqlite_*`. */
export function checkCollectionName(name: string): string {
  if (!COLLECTION_NAME.test(name) || /^sqlite_/i.test(name)) {
    throw new Error(`invalid collection name ${JSON.stringify(name)}: letters, digits, _ and -, starting with a letter`);
  }
  return name;
}

/** Quotes and backslashes would need escaping inside SQLite JSON paths; `__proto__` would reach the prototype. */
export function splitPath(path: string): string[] {
  const segments = path.split('.');
  for (const segment of segments) {
    if (segment === '' || segment.startsWith('$') || /["\\]/.test(segment) || segment === '__proto__') {
      throw new Error(`invalid field path ${JSON.stringify(path)}`);
    }
  }
  return segments;
}

export function checkId(id: unknown): string {
  if (typeof id !== 'string' || id === '') throw new Error('a document needs a non-empty string _id');
  return id;
}

export function checkPosition(position: number): void {
  if (!Number.isSafeInteger(position) || position < 0) throw new Error(`checkpoint position must be a non-negative integer, got ${position}`);
}

const FIELD_OPERATORS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$exists']);

export function isScalar(value: unknown): value is Scalar {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

export function checkFilter(filter: Filter): void {
  for (const [path, condition] of Object.entries(filter)) {
    splitPath(path);
    if (isScalar(condition)) continue;
    if (typeof condition !== 'object' || Array.isArray(condition)) {
      throw new Error(`filter on ${path}: expected a scalar or an operator object`);
    }
    const operators = Object.entries(condition);
    if (operators.length === 0) throw new Error(`filter on ${path}: empty operator object`);
    for (const [operator, operand] of operators) {
      if (!FIELD_OPERATORS.has(operator)) throw new Error(`filter on ${path}: unsupported operator ${operator}`);
      const ok =
        operator === '$in' ? Array.isArray(operand) && operand.every(isScalar)
        : operator === '$exists' ? typeof operand === 'boolean'
        : isScalar(operand);
      if (!ok) throw new Error(`filter on ${path}: bad operand for ${operator}`);
    }
  }
}

export function checkPaging(options: FindOptions): void {
  for (const key of ['skip', 'limit'] as const) {
    const value = options[key];
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) throw new Error(`${key} must be a non-negative integer`);
  }
  for (const [path, direction] of Object.entries(options.sort ?? {})) {
    splitPath(path);
    if (direction !== 1 && direction !== -1) throw new Error(`sort on ${path}: direction must be 1 or -1`);
  }
}

/** Mongo's default name (`a_1_b_-1`), so both engines name an unnamed index alike. */
export function indexName(spec: IndexSpec): string {
  const fields = Object.entries(spec.fields);
  if (fields.length === 0) throw new Error('an index needs at least one field');
  for (const [path, direction] of fields) {
    splitPath(path);
    if (direction !== 1 && direction !== -1) throw new Error(`index on ${path}: direction must be 1 or -1`);
  }
  return spec.name ?? fields.map(([path, direction]) => `${path}_${direction}`).join('_');
}

const UPDATE_OPERATORS = ['$set', '$unset', '$inc', '$push', '$setOnInsert'] as const;

/**
 * Drops empty operators and rejects what Mongo would reject: no field at all, `_id`, the same path
 * or a path and its parent under two operators, a non-numeric `$inc`.
 */
export function normalizeUpdate(update: Update): Update {
  const normalized: Update = {};
  const paths: string[] = [];
  for (const [operator, fields] of Object.entries(update) as [string, Record<string, unknown> | undefined][]) {
    if (!(UPDATE_OPERATORS as readonly string[]).includes(operator)) throw new Error(`unsupported update operator ${operator}`);
    if (fields === undefined || Object.keys(fields).length === 0) continue;
    for (const [path, value] of Object.entries(fields)) {
      if (splitPath(path)[0] === '_id') throw new Error('_id cannot be updated');
      if (operator === '$inc' && !(typeof value === 'number' && Number.isFinite(value))) {
        throw new Error(`$inc on ${path} needs a finite number`);
      }
      paths.push(path);
    }
    Object.assign(normalized, { [operator]: fields });
  }
  if (paths.length === 0) throw new Error('an update needs at least one field under an operator');
  for (const a of paths) {
    for (const b of paths) {
      if (a !== b && b.startsWith(`${a}.`)) throw new Error(`conflicting update paths ${a} and ${b}`);
    }
  }
  if (new Set(paths).size !== paths.length) throw new Error('the same path appears under two update operators');
  return normalized;
}

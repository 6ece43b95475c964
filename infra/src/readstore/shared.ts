/**
 * Checks every adapter runs before touching its engine, so that a filter, update or name that one
 * engine would reject is rejected by the others too, with the same message; and the update
 * semantics the SQL adapters apply in code, as Mongo applies them on the server.
 */
import type { Doc, Filter, FindOptions, IndexSpec, Scalar, Update } from './port.ts';

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

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Documents hold JSON values only, because the engines part ways on anything else: JSON text drops
 * `undefined` and functions, turns NaN and Infinity into null and a Date into a string, and cannot
 * hold a BigInt, while BSON keeps each of them as something else again. So every adapter refuses
 * them all, with this message, before writing anything.
 */
export function checkJson(value: unknown, path: string): void {
  visitJson(value, path, [], []);
}

/**
 * Every document written goes through here, so the walk allocates nothing per value: the keys leading
 * to it and its ancestors (for cycles) are stacks, and the path is spelled out only for an error.
 */
function visitJson(value: unknown, path: string, keys: Array<string | number>, ancestors: object[]): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return;
    throw notJson(path, keys, String(value));
  }
  if (typeof value !== 'object') throw notJson(path, keys, typeof value);
  const isArray = Array.isArray(value);
  if (!isArray) {
    const prototype = Object.getPrototypeOf(value) as object | null;
    if (prototype !== Object.prototype && prototype !== null) throw notJson(path, keys, `a ${value.constructor?.name ?? 'non-plain'} object`);
  }
  if (ancestors.includes(value)) throw notJson(path, keys, 'a cycle');
  ancestors.push(value);
  if (isArray) {
    for (let index = 0; index < value.length; index++) {
      keys.push(index);
      visitJson(value[index], path, keys, ancestors);
      keys.pop();
    }
  } else {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      keys.push(key);
      visitJson(record[key], path, keys, ancestors);
      keys.pop();
    }
  }
  ancestors.pop();
}

function notJson(path: string, keys: Array<string | number>, what: string): Error {
  const where = [...(path === '' ? [] : [path]), ...keys.map(String)].join('.');
  return new Error(`${where || 'document'}: ${what} is not a JSON value`);
}

/** A whole document: a string id and JSON values. */
export function checkDoc(doc: Doc): string {
  const id = checkId(doc._id);
  checkJson(doc, '');
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
      if (operator !== '$unset') checkJson(value, path);
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

/** The object holding the path's last segment; `create` makes missing parents as Mongo does. */
function parentOf(doc: Record<string, unknown>, segments: string[], create: boolean): Record<string, unknown> | undefined {
  let node = doc;
  for (let index = 0; index < segments.length - 1; index++) {
    const segment = segments[index]!;
    const next = node[segment];
    if (isPlainObject(next)) node = next;
    else if (next === undefined && create) node = node[segment] = {};
    else if (create) throw new Error(`cannot create a field inside ${segment}: it is not an object`);
    else return undefined;
  }
  return node;
}

type FieldChange = (parent: Record<string, unknown>, key: string, value: unknown, path: string) => void;

const setField: FieldChange = (parent, key, value) => {
  parent[key] = value;
};

const incField: FieldChange = (parent, key, amount, path) => {
  const current = parent[key];
  if (current !== undefined && typeof current !== 'number') throw new Error(`cannot $inc ${path}: not a number`);
  parent[key] = (current ?? 0) + (amount as number);
};

const pushField: FieldChange = (parent, key, value, path) => {
  const current = parent[key];
  if (current === undefined) parent[key] = [value];
  else if (Array.isArray(current)) current.push(value);
  else throw new Error(`cannot $push to ${path}: not an array`);
};

function changeFields(doc: Doc, fields: Record<string, unknown> | undefined, change: FieldChange): void {
  if (fields === undefined) return;
  for (const path of Object.keys(fields)) {
    const segments = splitPath(path);
    change(parentOf(doc, segments, true)!, segments[segments.length - 1]!, fields[path], path);
  }
}

/** Applies a normalized update to a parsed document, as Mongo would. */
export function applyUpdate(doc: Doc, update: Update, inserting: boolean): Doc {
  if (inserting) changeFields(doc, update.$setOnInsert, setField);
  changeFields(doc, update.$set, setField);
  changeFields(doc, update.$inc, incField);
  changeFields(doc, update.$push, pushField);
  for (const path of Object.keys(update.$unset ?? {})) {
    const segments = splitPath(path);
    const parent = parentOf(doc, segments, false);
    if (parent) delete parent[segments.at(-1)!];
  }
  return doc;
}

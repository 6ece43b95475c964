/**
 * The ReadStore contract: every adapter registers these tests through `readStoreContract`.
 * Each test gets its own store from the factory and its own collection and projection prefix, so
 * tests run concurrently even when the factory hands out one shared database.
 */
import test, { type ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import { DuplicateKeyError, type Collection, type Doc, type ReadStore } from '@scriptorium/infra/readstore/port';

export interface ReadStoreFixture {
  store: ReadStore;
  cleanup(): Promise<void>;
}

export interface ContractOptions {
  /**
   * False for an engine whose `transaction` cannot roll back or hide uncommitted writes (MongoDB
   * standalone); the tests that need that are then registered as skipped, with the reason.
   */
  atomicTransactions?: boolean;
}

interface Scope {
  store: ReadStore;
  /** A collection name unique to this test. */
  name(base: string): string;
  collection<T extends Doc = Doc>(base: string): Collection<T>;
}

/** Lets a test hold a transaction open until it has started operations from outside it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** Gives other callers' queued continuations their turn; a count of turns, not a duration. */
async function yieldTurns(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}

const ids = (docs: Doc[]) => docs.map((doc) => doc._id);

export function readStoreContract(name: string, factory: () => Promise<ReadStoreFixture>, options: ContractOptions = {}): void {
  const atomic = options.atomicTransactions ?? true;

  const contract = (title: string, body: (t: ExecutionContext, scope: Scope) => Promise<void>, needsAtomic = false) => {
    const fullTitle = `readstore ${name}: ${title}`;
    if (needsAtomic && !atomic) {
      test.skip(`${fullTitle} (engine has no atomic transactions)`, () => {});
      return;
    }
    test(fullTitle, async (t) => {
      const { store, cleanup } = await factory();
      const prefix = `t${randomUUID().replaceAll('-', '').slice(0, 12)}_`;
      const scope: Scope = {
        store,
        name: (base) => `${prefix}${base}`,
        collection: <T extends Doc = Doc>(base: string) => store.collection<T>(`${prefix}${base}`),
      };
      try {
        await body(t, scope);
      } finally {
        await cleanup();
      }
    });
  };

  async function seed(collection: Collection, docs: Doc[]): Promise<void> {
    for (const doc of docs) await collection.put(doc);
  }

  contract('get, put (replaces the whole document) and delete', async (t, { collection }) => {
    const notes = collection('notes');
    t.is(await notes.get('n1'), null);
    await notes.put({ _id: 'n1', title: 'first', tags: ['a'], meta: { words: 3 } });
    t.deepEqual(await notes.get('n1'), { _id: 'n1', title: 'first', tags: ['a'], meta: { words: 3 } });
    await notes.put({ _id: 'n1', title: 'second' });
    t.deepEqual(await notes.get('n1'), { _id: 'n1', title: 'second' });
    t.true(await notes.delete('n1'));
    t.false(await notes.delete('n1'));
    t.is(await notes.get('n1'), null);
  });

  contract('find by equality: every key must hold, and types are not coerced', async (t, { collection }) => {
    const items = collection('items');
    await seed(items, [
      { _id: 'a', owner: 'u1', n: 1, done: true },
      { _id: 'b', owner: 'u1', n: '1', done: false },
      { _id: 'c', owner: 'u2', n: 1, done: true },
    ]);
    t.deepEqual(ids(await items.find({ owner: 'u1' }, { sort: { _id: 1 } })), ['a', 'b']);
    t.deepEqual(ids(await items.find({ owner: 'u1', n: 1 })), ['a']);
    t.deepEqual(ids(await items.find({ n: '1' })), ['b']);
    t.deepEqual(ids(await items.find({ done: true }, { sort: { _id: 1 } })), ['a', 'c']);
    t.deepEqual(ids(await items.find({ done: { $eq: false } })), ['b']);
    t.deepEqual(ids(await items.find({ _id: 'c' })), ['c']);
    t.deepEqual(await items.find({ owner: 'nobody' }), []);
    t.deepEqual(ids(await items.find({}, { sort: { _id: 1 } })), ['a', 'b', 'c']);
  });

  contract('find by range on numbers and strings, within the operand type', async (t, { collection }) => {
    const items = collection('items');
    await seed(items, [
      { _id: 'a', n: 1, day: '2024-01-01' },
      { _id: 'b', n: 2.5, day: '2024-01-02' },
      { _id: 'c', n: 10, day: '2024-01-03' },
      { _id: 'd', n: 'ten', day: 20240104 },
      { _id: 'e' },
    ]);
    const sorted = { sort: { _id: 1 as const } };
    t.deepEqual(ids(await items.find({ n: { $gt: 1 } }, sorted)), ['b', 'c']);
    t.deepEqual(ids(await items.find({ n: { $gte: 1, $lt: 10 } }, sorted)), ['a', 'b']);
    t.deepEqual(ids(await items.find({ n: { $lte: 2.5 } }, sorted)), ['a', 'b']);
    t.deepEqual(ids(await items.find({ day: { $gte: '2024-01-02' } }, sorted)), ['b', 'c']);
    t.deepEqual(ids(await items.find({ day: { $gt: '2024-01-01', $lte: '2024-01-02' } }, sorted)), ['b']);
    t.deepEqual(ids(await items.find({ n: { $gt: 'a' } }, sorted)), ['d']);
  });

  contract('$in, including null and an empty list', async (t, { collection }) => {
    const items = collection('items');
    await seed(items, [
      { _id: 'a', status: 'open' },
      { _id: 'b', status: 'closed' },
      { _id: 'c', status: 'draft' },
      { _id: 'd', status: null },
      { _id: 'e' },
      { _id: 'f', status: 3 },
    ]);
    const sorted = { sort: { _id: 1 as const } };
    t.deepEqual(ids(await items.find({ status: { $in: ['open', 'draft'] } }, sorted)), ['a', 'c']);
    t.deepEqual(ids(await items.find({ status: { $in: ['open', null] } }, sorted)), ['a', 'd', 'e']);
    t.deepEqual(ids(await items.find({ status: { $in: [3, 'closed'] } }, sorted)), ['b', 'f']);
    t.deepEqual(await items.find({ status: { $in: [] } }), []);
    t.deepEqual(ids(await items.find({ _id: { $in: ['b', 'e', 'zz'] } }, sorted)), ['b', 'e']);
  });

  contract('$ne matches documents where the field is missing', async (t, { collection }) => {
    const items = collection('items');
    await seed(items, [{ _id: 'a', status: 'open' }, { _id: 'b', status: 'closed' }, { _id: 'c' }, { _id: 'd', status: null }]);
    const sorted = { sort: { _id: 1 as const } };
    t.deepEqual(ids(await items.find({ status: { $ne: 'open' } }, sorted)), ['b', 'c', 'd']);
    t.deepEqual(ids(await items.find({ status: { $ne: null } }, sorted)), ['a', 'b']);
    t.deepEqual(ids(await items.find({ status: { $ne: 'open', $exists: true } }, sorted)), ['b', 'd']);
  });

  contract('$exists counts an explicit null as present', async (t, { collection }) => {
    const items = collection('items');
    await seed(items, [{ _id: 'a', x: 0 }, { _id: 'b', x: null }, { _id: 'c' }, { _id: 'd', x: false }]);
    const sorted = { sort: { _id: 1 as const } };
    t.deepEqual(ids(await items.find({ x: { $exists: true } }, sorted)), ['a', 'b', 'd']);
    t.deepEqual(ids(await items.find({ x: { $exists: false } }, sorted)), ['c']);
  });

  contract('null semantics: {field: null} matches missing or null, nothing else', async (t, { collection }) => {
    const items = collection('items');
    await seed(items, [{ _id: 'a', x: null }, { _id: 'b' }, { _id: 'c', x: 0 }, { _id: 'd', x: '' }, { _id: 'e', x: false }]);
    const sorted = { sort: { _id: 1 as const } };
    t.deepEqual(ids(await items.find({ x: null }, sorted)), ['a', 'b']);
    t.deepEqual(ids(await items.find({ x: { $eq: null } }, sorted)), ['a', 'b']);
    t.deepEqual(ids(await items.find({ 'x.y': null }, sorted)), ['a', 'b', 'c', 'd', 'e']);
    t.is(await items.count({ x: null }), 2);
  });

  contract('dotted paths in filters, sorts and updates', async (t, { collection }) => {
    const users = collection('users');
    await seed(users, [
      { _id: 'u1', usage: { today: 5, plan: { name: 'free' } } },
      { _id: 'u2', usage: { today: 50, plan: { name: 'pro' } } },
      { _id: 'u3', usage: {} },
    ]);
    t.deepEqual(ids(await users.find({ 'usage.plan.name': 'pro' })), ['u2']);
    t.deepEqual(ids(await users.find({ 'usage.today': { $gte: 5 } }, { sort: { 'usage.today': -1 } })), ['u2', 'u1']);
    t.deepEqual(ids(await users.find({ 'usage.today': { $exists: false } })), ['u3']);
    t.true(await users.update('u3', { $set: { 'usage.plan.name': 'trial' }, $inc: { 'usage.today': 2 } }));
    t.deepEqual(await users.get('u3'), { _id: 'u3', usage: { today: 2, plan: { name: 'trial' } } });
    t.true(await users.update('u1', { $unset: { 'usage.plan.name': true, 'usage.nothing.here': true } }));
    t.deepEqual(await users.get('u1'), { _id: 'u1', usage: { today: 5, plan: {} } });
  });

  contract('sort ascending and descending on several keys; missing first, numbers before strings', async (t, { collection }) => {
    const items = collection('items');
    await seed(items, [
      { _id: 'a', group: 2, title: 'b' },
      { _id: 'b', group: 1, title: 'z' },
      { _id: 'c', group: 2, title: 'a' },
      { _id: 'd', group: 1, title: 'a' },
      { _id: 'e', group: 10, title: 'a' },
      { _id: 'f', title: 'a' },
      { _id: 'g', group: 'x', title: 'a' },
    ]);
    t.deepEqual(ids(await items.find({}, { sort: { group: 1, title: 1 } })), ['f', 'd', 'b', 'c', 'a', 'e', 'g']);
    t.deepEqual(ids(await items.find({}, { sort: { group: -1, title: -1 } })), ['g', 'e', 'a', 'c', 'b', 'd', 'f']);
    t.deepEqual(ids(await items.find({}, { sort: { group: 1, title: -1 } })), ['f', 'b', 'd', 'a', 'c', 'e', 'g']);
    t.deepEqual(ids(await items.find({ title: 'a' }, { sort: { _id: -1 } })), ['g', 'f', 'e', 'd', 'c']);
  });

  contract('skip, limit and findOne follow the sort', async (t, { collection }) => {
    const items = collection('items');
    await seed(items, Array.from({ length: 10 }, (_, i) => ({ _id: `i${i}`, rank: i % 5 })));
    const bySortKey = { sort: { rank: -1 as const } };
    t.deepEqual(ids(await items.find({}, { ...bySortKey, limit: 3 })), ['i4', 'i9', 'i3']);
    t.deepEqual(ids(await items.find({}, { ...bySortKey, skip: 3, limit: 3 })), ['i8', 'i2', 'i7']);
    t.deepEqual(ids(await items.find({}, { ...bySortKey, skip: 8 })), ['i0', 'i5']);
    t.deepEqual(await items.find({}, { ...bySortKey, skip: 20 }), []);
    t.deepEqual(await items.find({}, { limit: 0 }), []);
    t.is((await items.findOne({ rank: { $lt: 3 } }, bySortKey))?._id, 'i2');
    t.is(await items.findOne({ rank: 99 }), null);
    await t.throwsAsync(items.find({}, { limit: -1 }));
  });

  contract('count with and without a filter', async (t, { collection }) => {
    const items = collection('items');
    t.is(await items.count(), 0);
    await seed(items, [{ _id: 'a', k: 1 }, { _id: 'b', k: 2 }, { _id: 'c', k: 2 }]);
    t.is(await items.count(), 3);
    t.is(await items.count({ k: 2 }), 2);
    t.is(await items.count({ k: { $gt: 5 } }), 0);
  });

  contract('update with $set, $unset, $inc and $push', async (t, { collection }) => {
    const docs = collection('docs');
    await docs.put({ _id: 'd', title: 'old', count: 1, keep: true, list: ['x'] });
    t.true(await docs.update('d', { $set: { title: 'new', extra: { a: [1, 2] } }, $unset: { keep: true }, $inc: { count: 2, fresh: -3 }, $push: { list: 'y', other: { k: 1 } } }));
    t.deepEqual(await docs.get('d'), { _id: 'd', title: 'new', extra: { a: [1, 2] }, count: 3, fresh: -3, list: ['x', 'y'], other: [{ k: 1 }] });
    t.true(await docs.update('d', { $inc: { count: 0.5 } }));
    t.is((await docs.get('d'))?.count, 3.5);
  });

  contract('update without upsert on a missing document changes nothing', async (t, { collection }) => {
    const docs = collection('docs');
    t.false(await docs.update('missing', { $set: { a: 1 } }));
    t.is(await docs.get('missing'), null);
    t.is(await docs.count(), 0);
  });

  contract('upsert creates {_id} plus the update; $setOnInsert applies only on insert', async (t, { collection }) => {
    const counters = collection('counters');
    const update = { $inc: { n: 1 }, $setOnInsert: { createdAt: '2024-05-01T00:00:00Z' }, $push: { seen: 'first' } };
    t.true(await counters.update('c', update, { upsert: true }));
    t.deepEqual(await counters.get('c'), { _id: 'c', n: 1, createdAt: '2024-05-01T00:00:00Z', seen: ['first'] });
    t.true(await counters.update('c', { $inc: { n: 1 }, $setOnInsert: { createdAt: 'later' }, $push: { seen: 'second' } }, { upsert: true }));
    t.deepEqual(await counters.get('c'), { _id: 'c', n: 2, createdAt: '2024-05-01T00:00:00Z', seen: ['first', 'second'] });
    t.true(await counters.update('plain', { $set: { 'a.b': 'c' } }, { upsert: true }));
    t.deepEqual(await counters.get('plain'), { _id: 'plain', a: { b: 'c' } });
  });

  contract('invalid updates are rejected and change nothing', async (t, { collection }) => {
    const docs = collection('docs');
    await docs.put({ _id: 'd', text: 'words', a: { b: 1 } });
    await t.throwsAsync(docs.update('d', {}));
    await t.throwsAsync(docs.update('d', { $set: {} }));
    await t.throwsAsync(docs.update('d', { $set: { _id: 'other' } }));
    await t.throwsAsync(docs.update('d', { $set: { a: 1 }, $inc: { 'a.b': 1 } }));
    await t.throwsAsync(docs.update('d', { $set: { text: 'x' }, $unset: { text: true } }));
    await t.throwsAsync(docs.update('d', { $inc: { text: 1 } }));
    await t.throwsAsync(docs.update('d', { $push: { text: 'x' } }));
    await t.throwsAsync(docs.update('d', { $set: { 'text.inner': 1 } }));
    t.deepEqual(await docs.get('d'), { _id: 'd', text: 'words', a: { b: 1 } });
  });

  contract('updateMany updates every match and returns how many', async (t, { collection }) => {
    const items = collection('items');
    await seed(items, [
      { _id: 'a', owner: 'u1', n: 1 },
      { _id: 'b', owner: 'u1', n: 2 },
      { _id: 'c', owner: 'u2', n: 3 },
    ]);
    t.is(await items.updateMany({ owner: 'u1' }, { $inc: { n: 10 }, $set: { touched: true } }), 2);
    t.deepEqual(await items.find({}, { sort: { _id: 1 } }), [
      { _id: 'a', owner: 'u1', n: 11, touched: true },
      { _id: 'b', owner: 'u1', n: 12, touched: true },
      { _id: 'c', owner: 'u2', n: 3 },
    ]);
    t.is(await items.updateMany({ owner: 'nobody' }, { $set: { touched: true } }), 0);
    t.is(await items.updateMany({ owner: 'u2' }, { $setOnInsert: { ignored: true }, $set: { seen: 1 } }), 1);
    t.deepEqual(await items.get('c'), { _id: 'c', owner: 'u2', n: 3, seen: 1 });
  });

  contract('updateMany over thousands of documents', async (t, { store, name, collection }) => {
    const total = 3000;
    await store.transaction(async (tx) => {
      const items = tx.collection(name('bulk'));
      for (let i = 0; i < total; i++) await items.put({ _id: `d${i}`, parity: i % 2, n: i });
    });
    const items = collection('bulk');
    t.is(await items.updateMany({ parity: 0 }, { $inc: { n: 1 }, $push: { log: 'even' } }), total / 2);
    t.is(await items.count({ log: { $exists: true } }), total / 2);
    t.deepEqual(await items.get('d10'), { _id: 'd10', parity: 0, n: 11, log: ['even'] });
    t.deepEqual(await items.get('d11'), { _id: 'd11', parity: 1, n: 11 });
  });

  contract('deleteMany deletes every match and returns how many', async (t, { collection }) => {
    const items = collection('items');
    await seed(items, [{ _id: 'a', k: 1 }, { _id: 'b', k: 1 }, { _id: 'c', k: 2 }, { _id: 'd' }]);
    t.is(await items.deleteMany({ k: 1 }), 2);
    t.is(await items.deleteMany({ k: 1 }), 0);
    t.deepEqual(ids(await items.find({}, { sort: { _id: 1 } })), ['c', 'd']);
    t.is(await items.deleteMany({}), 2);
    t.is(await items.count(), 0);
  });

  contract('an index may end in _id, so a sort on it is read from the index alone', async (t, { collection }) => {
    const nodes = collection('nodes');
    await nodes.ensureIndex({ fields: { session: 1, key: -1, _id: -1 } });
    await nodes.put({ _id: 'a', session: 's', key: 'k1' });
    await nodes.put({ _id: 'b', session: 's', key: 'k1' });
    await nodes.put({ _id: 'c', session: 's', key: 'k2' });
    t.deepEqual(ids(await nodes.find({ session: 's' }, { sort: { key: -1, _id: -1 } })), ['c', 'b', 'a']);
  });

  contract('a unique index violation throws DuplicateKeyError and changes nothing', async (t, { name, collection }) => {
    const users = collection('users');
    await users.ensureIndex({ fields: { email: 1 }, unique: true });
    await users.ensureIndex({ fields: { email: 1 }, unique: true });
    await users.put({ _id: 'u1', email: 'a@example.com' });
    await users.put({ _id: 'u2', email: 'b@example.com' });

    const onInsert = await t.throwsAsync(users.put({ _id: 'u3', email: 'a@example.com' }), { instanceOf: DuplicateKeyError });
    t.is(onInsert?.collection, name('users'));
    t.is(onInsert?.index, 'email_1');
    t.is(await users.get('u3'), null);

    await t.throwsAsync(users.put({ _id: 'u2', email: 'a@example.com', name: 'changed' }), { instanceOf: DuplicateKeyError });
    await t.throwsAsync(users.update('u2', { $set: { email: 'a@example.com', name: 'changed' } }), { instanceOf: DuplicateKeyError });
    await t.throwsAsync(users.update('u9', { $set: { email: 'b@example.com' } }, { upsert: true }), { instanceOf: DuplicateKeyError });
    t.deepEqual(await users.find({}, { sort: { _id: 1 } }), [
      { _id: 'u1', email: 'a@example.com' },
      { _id: 'u2', email: 'b@example.com' },
    ]);

    // Documents without the field are not constrained.
    await users.put({ _id: 'u4' });
    await users.put({ _id: 'u5' });
    t.is(await users.count(), 4);
  });

  contract('compound and named unique indexes; creating one over duplicates fails', async (t, { collection }) => {
    const daily = collection('daily');
    await daily.ensureIndex({ fields: { userId: 1, day: -1 }, unique: true, name: 'user_day' });
    await daily.put({ _id: 'a', userId: 'u1', day: '2024-01-01' });
    await daily.put({ _id: 'b', userId: 'u1', day: '2024-01-02' });
    await daily.put({ _id: 'c', userId: 'u2', day: '2024-01-01' });
    const error = await t.throwsAsync(daily.put({ _id: 'd', userId: 'u1', day: '2024-01-01' }), { instanceOf: DuplicateKeyError });
    t.is(error?.index, 'user_day');
    t.is(await daily.count(), 3);

    const tags = collection('tags');
    await seed(tags, [{ _id: 'a', label: 'x' }, { _id: 'b', label: 'x' }]);
    await t.throwsAsync(tags.ensureIndex({ fields: { label: 1 }, unique: true }), { instanceOf: DuplicateKeyError });
    await tags.put({ _id: 'c', label: 'x' });
    t.is(await tags.count({ label: 'x' }), 3);
  });

  // SQLite's NULLs are distinct; jsonb's null and Mongo's null are values, which the adapters leave out.
  contract('a unique index constrains neither a missing field nor an explicit null, in any of its fields', async (t, { collection }) => {
    const users = collection('users');
    await users.ensureIndex({ fields: { email: 1 }, unique: true });
    await seed(users, [{ _id: 'a', email: null }, { _id: 'b', email: null }, { _id: 'c' }, { _id: 'd', email: 'x@example.com' }]);
    await users.update('c', { $set: { email: null } });
    await t.throwsAsync(users.put({ _id: 'e', email: 'x@example.com' }), { instanceOf: DuplicateKeyError });
    t.deepEqual(ids(await users.find({ email: 'x@example.com' })), ['d']);

    const daily = collection('daily');
    await daily.ensureIndex({ fields: { userId: 1, day: 1 }, unique: true });
    await seed(daily, [{ _id: 'a', userId: 'u1', day: null }, { _id: 'b', userId: 'u1', day: null }, { _id: 'c', userId: 'u1', day: 'd1' }]);
    await t.throwsAsync(daily.put({ _id: 'd', userId: 'u1', day: 'd1' }), { instanceOf: DuplicateKeyError });
    t.is(await daily.count(), 3);
  });

  // JSON text and BSON disagree on each of these (dropped, null, a string, a Long, a Date), so every adapter refuses them alike.
  contract('values JSON cannot hold as they are are refused by put and update, writing nothing', async (t, { collection }) => {
    const docs = collection('docs');
    await docs.put({ _id: 'a', n: 1, list: [1] });
    const refused: [string, unknown][] = [
      ['undefined', undefined],
      ['function', () => 1],
      ['NaN', Number.NaN],
      ['Infinity', Number.POSITIVE_INFINITY],
      ['-Infinity', Number.NEGATIVE_INFINITY],
      ['bigint', 1n],
      ['a Date object', new Date('2025-01-01T00:00:00.000Z')],
      ['a Map object', new Map()],
    ];
    for (const [what, value] of refused) {
      const message = `x.y: ${what} is not a JSON value`;
      await t.throwsAsync(docs.put({ _id: 'b', x: { y: value } }), { message }, `put ${what}`);
      await t.throwsAsync(docs.put({ _id: 'b', x: [1, value] }), { message: `x.1: ${what} is not a JSON value` }, `put ${what} in an array`);
      await t.throwsAsync(docs.update('a', { $set: { x: { y: value } } }), { message }, `$set ${what}`);
      await t.throwsAsync(docs.update('b', { $setOnInsert: { x: { y: value } } }, { upsert: true }), { message }, `$setOnInsert ${what}`);
      await t.throwsAsync(docs.update('a', { $push: { list: value } }), { message: `list: ${what} is not a JSON value` }, `$push ${what}`);
      await t.throwsAsync(docs.updateMany({}, { $set: { x: { y: value } } }), { message }, `updateMany ${what}`);
    }
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await t.throwsAsync(docs.put({ _id: 'b', x: { y: cyclic } }), { message: 'x.y.self: a cycle is not a JSON value' });
    t.deepEqual(await docs.find({}), [{ _id: 'a', n: 1, list: [1] }]);
  });

  contract('a non-unique index allows duplicates and serves queries', async (t, { collection }) => {
    const messages = collection('messages');
    await messages.ensureIndex({ fields: { conversationId: 1, at: 1 } });
    await messages.ensureIndex({ fields: { 'meta.kind': 1 } });
    await seed(messages, [
      { _id: 'm1', conversationId: 'c1', at: 2, meta: { kind: 'user' } },
      { _id: 'm2', conversationId: 'c1', at: 1, meta: { kind: 'user' } },
      { _id: 'm3', conversationId: 'c2', at: 1, meta: { kind: 'assistant' } },
    ]);
    t.deepEqual(ids(await messages.find({ conversationId: 'c1' }, { sort: { at: 1 } })), ['m2', 'm1']);
    t.is(await messages.count({ 'meta.kind': 'user' }), 2);
  });

  contract('getCheckpoint is 0 before any; setCheckpoint overwrites', async (t, { store, name }) => {
    t.is(await store.getCheckpoint(name('proj')), 0);
    await store.transaction((tx) => tx.setCheckpoint(name('proj'), 17));
    t.is(await store.getCheckpoint(name('proj')), 17);
    await store.transaction((tx) => tx.setCheckpoint(name('proj'), 42));
    t.is(await store.getCheckpoint(name('proj')), 42);
    t.is(await store.getCheckpoint(name('other')), 0);
  });

  contract('transaction commit: writes and checkpoint become visible together', async (t, { store, name, collection }) => {
    const result = await store.transaction(async (tx) => {
      const items = tx.collection(name('items'));
      await items.put({ _id: 'a', n: 1 });
      await items.update('a', { $inc: { n: 1 } });
      await items.update('b', { $set: { n: 5 } }, { upsert: true });
      t.deepEqual(await items.get('a'), { _id: 'a', n: 2 });
      t.is(await items.count(), 2);
      await tx.setCheckpoint(name('proj'), 7);
      return 'done';
    });
    t.is(result, 'done');
    t.deepEqual(await collection('items').find({}, { sort: { _id: 1 } }), [{ _id: 'a', n: 2 }, { _id: 'b', n: 5 }]);
    t.is(await store.getCheckpoint(name('proj')), 7);
  });

  contract('a bulk transaction (a rebuild) commits and rolls back like any other', async (t, { store, name, collection }) => {
    await store.transaction(
      async (tx) => {
        await tx.collection(name('items')).put({ _id: 'a', n: 1 });
        await tx.setCheckpoint(name('proj'), 5);
      },
      { bulk: true },
    );
    await t.throwsAsync(
      store.transaction(
        async (tx) => {
          await tx.collection(name('items')).put({ _id: 'b', n: 1 });
          await tx.setCheckpoint(name('proj'), 6);
          throw new Error('projection failed');
        },
        { bulk: true },
      ),
    );
    // The next ordinary transaction is durable again and sees the bulk one's writes.
    await store.transaction((tx) => tx.collection(name('items')).update('a', { $inc: { n: 1 } }));
    t.deepEqual(await collection('items').find({}), [{ _id: 'a', n: 2 }]);
    t.is(await store.getCheckpoint(name('proj')), 5);
  });

  contract('bulk transactions in a row read one another at once, and flushed makes them readable by everyone', async (t, { store, name, collection }) => {
    for (let round = 1; round <= 6; round++) {
      await store.transaction(
        async (tx) => {
          const items = tx.collection(name('items'));
          await items.update('total', { $inc: { n: 1 } }, { upsert: true });
          await items.put({ _id: `round-${round}`, kind: 'round' });
          if (round > 2) t.true(await items.delete(`round-${round - 2}`));
          if (round === 4) t.is(await items.count({ kind: 'round' }), 2);
          await tx.setCheckpoint(name('proj'), round);
        },
        { bulk: true },
      );
    }
    await store.flushed();
    t.deepEqual(await collection('items').find({}, { sort: { _id: 1 } }), [
      { _id: 'round-5', kind: 'round' },
      { _id: 'round-6', kind: 'round' },
      { _id: 'total', n: 6 },
    ]);
    t.is(await store.getCheckpoint(name('proj')), 6);
  });

  contract(
    'transaction throw: neither the writes nor the checkpoint persist',
    async (t, { store, name, collection }) => {
      await collection('items').put({ _id: 'kept', n: 1 });
      await store.transaction((tx) => tx.setCheckpoint(name('proj'), 3));
      const failure = new Error('projection failed');
      const error = await t.throwsAsync(
        store.transaction(async (tx) => {
          const items = tx.collection(name('items'));
          await items.put({ _id: 'new', n: 1 });
          await items.update('kept', { $inc: { n: 1 } });
          await items.deleteMany({});
          await tx.collection(name('fresh')).put({ _id: 'x' });
          await tx.setCheckpoint(name('proj'), 4);
          throw failure;
        }),
      );
      t.is(error, failure);
      t.deepEqual(await collection('items').find({}), [{ _id: 'kept', n: 1 }]);
      t.is(await collection('fresh').count(), 0);
      t.is(await store.getCheckpoint(name('proj')), 3);
    },
    true,
  );

  contract('operations from outside an open transaction are not lost when it rolls back', async (t, { store, name, collection }) => {
    const { open, opened } = gate();
    const outside = (async () => {
      await opened;
      await collection('items').put({ _id: 'outside', n: 1 });
      await collection('items').update('outside', { $inc: { n: 1 } });
    })();
    await t.throwsAsync(
      store.transaction(async (tx) => {
        await tx.collection(name('items')).put({ _id: 'inside' });
        open();
        await yieldTurns();
        throw new Error('rolled back');
      }),
      { message: 'rolled back' },
    );
    await outside;
    t.deepEqual(await collection('items').get('outside'), { _id: 'outside', n: 2 });
  });

  contract(
    'operations from outside an open transaction do not see its uncommitted writes',
    async (t, { store, name, collection }) => {
      await collection('items').put({ _id: 'a', v: 'committed' });
      const { open, opened } = gate();
      const outside = (async () => {
        await opened;
        return Promise.all([collection('items').get('a'), collection('items').get('b'), store.getCheckpoint(name('proj'))]);
      })();
      await t.throwsAsync(
        store.transaction(async (tx) => {
          await tx.collection(name('items')).put({ _id: 'a', v: 'uncommitted' });
          await tx.collection(name('items')).put({ _id: 'b' });
          await tx.setCheckpoint(name('proj'), 9);
          open();
          await yieldTurns();
          throw new Error('rolled back');
        }),
      );
      t.deepEqual(await outside, [{ _id: 'a', v: 'committed' }, null, 0]);
    },
    true,
  );

  contract('a transaction handle cannot be used after its transaction', async (t, { store, name }) => {
    let leaked: Collection | undefined;
    await store.transaction(async (tx) => {
      leaked = tx.collection(name('items'));
    });
    await t.throwsAsync(leaked!.put({ _id: 'late' }));
  });

  contract('reset drops the collections and the checkpoint, nothing else', async (t, { store, name, collection }) => {
    await store.transaction(async (tx) => {
      await tx.collection(name('a')).put({ _id: '1' });
      await tx.collection(name('b')).put({ _id: '1' });
      await tx.collection(name('other')).put({ _id: '1' });
      await tx.setCheckpoint(name('proj'), 12);
      await tx.setCheckpoint(name('otherProj'), 5);
    });
    await collection('a').ensureIndex({ fields: { k: 1 }, unique: true });
    await store.reset(name('proj'), [name('a'), name('b'), name('neverCreated')]);
    t.is(await collection('a').count(), 0);
    t.is(await collection('b').count(), 0);
    t.is(await collection('other').count(), 1);
    t.is(await store.getCheckpoint(name('proj')), 0);
    t.is(await store.getCheckpoint(name('otherProj')), 5);

    // The collection is usable again, and its old unique index went with it.
    await collection('a').put({ _id: 'x', k: 1 });
    await collection('a').put({ _id: 'y', k: 1 });
    t.is(await collection('a').count({ k: 1 }), 2);
  });

  contract('Chinese text round-trips and can be filtered and sorted', async (t, { collection }) => {
    const notes = collection('notes');
    const body = '写作助手：检索、规划与润色。引用「论语」——学而时习之，不亦说乎？🙂';
    await notes.put({ _id: '笔记-1', title: '第一章', body, tags: ['历史', '哲学'] });
    await notes.put({ _id: '笔记-2', title: '第二章', body: '短' });
    t.deepEqual(await notes.get('笔记-1'), { _id: '笔记-1', title: '第一章', body, tags: ['历史', '哲学'] });
    t.deepEqual(ids(await notes.find({ title: '第二章' })), ['笔记-2']);
    t.deepEqual(ids(await notes.find({}, { sort: { title: -1 } })), ['笔记-2', '笔记-1']);
    t.true(await notes.update('笔记-2', { $set: { '元数据.作者': '孔子' } }));
    t.deepEqual(await notes.findOne({ '元数据.作者': '孔子' }), { _id: '笔记-2', title: '第二章', body: '短', 元数据: { 作者: '孔子' } });
  });

  contract('invalid names and filters are rejected', async (t, { store, collection }) => {
    t.throws(() => store.collection('_checkpoints'));
    t.throws(() => store.collection('has space'));
    t.throws(() => store.collection(''));
    const items = collection('items');
    await t.throwsAsync(items.find({ x: { $regex: 'a' } } as never));
    await t.throwsAsync(items.find({ x: {} }));
    await t.throwsAsync(items.find({ 'a..b': 1 }));
    await t.throwsAsync(items.put({ _id: '' }));
  });
}

import test from 'ava';
import type { Collection as MongoCollection } from 'mongodb';
import { MongoReadCollection, checkDeployment, checkVersion, uniquePartialFilter } from './mongo.ts';
import type { Doc } from './port.ts';

// What the adapter decides without a server; tests/contract/readstore.ts checks it against one (MONGO_URL).

test('a replica set or mongos runs transactions; a standalone server is refused unless allowed', (t) => {
  t.true(checkDeployment({ setName: 'rs0', isWritablePrimary: true } as { setName: string }, false));
  t.true(checkDeployment({ msg: 'isdbgrid' }, false));
  t.throws(() => checkDeployment({}, false), { message: /standalone.*MONGO_ALLOW_STANDALONE=true/s });
  t.false(checkDeployment({}, true));
});

test('a server older than MongoDB 6.0 is refused with the version it has and the one it needs', (t) => {
  t.notThrows(() => checkVersion('6.0.0'));
  t.notThrows(() => checkVersion('7.0.12'));
  t.throws(() => checkVersion('5.0.26'), { message: /MongoDB 5\.0\.26 is too old: the read store needs MongoDB 6\.0 or later/ });
  t.throws(() => checkVersion('4.4.29'), { message: /too old/ });
});

test('a unique index leaves out documents where any of its fields is missing or null', (t) => {
  const filter = uniquePartialFilter({ userId: 1, day: -1 }) as { $and: { $or: Record<string, unknown>[] }[] };
  t.is(filter.$and.length, 2);
  const clauses = filter.$and[1]!.$or.map((clause) => clause.day);
  // Every JSON type but null; each scalar as a `$gte` from its type's least value, which an equality implies.
  t.deepEqual(clauses, [{ $gte: '' }, { $gte: Number.NEGATIVE_INFINITY }, { $gte: false }, { $type: 'object' }, { $type: 'array' }]);
});

/** A collection whose find() records what the adapter asked of the cursor. */
function recordingCollection() {
  const calls: string[] = [];
  const cursor = {
    sort: (spec: unknown) => (calls.push(`sort ${JSON.stringify(spec)}`), cursor),
    allowDiskUse: () => (calls.push('allowDiskUse'), cursor),
    skip: () => cursor,
    limit: () => cursor,
    toArray: async () => [],
  };
  const collection = { find: () => cursor } as unknown as MongoCollection<Doc>;
  return { calls, collection: new MongoReadCollection(collection, 'items', () => ({})) };
}

test('a sorted find may spill to disk, so a sort no index serves does not fail past the memory limit', async (t) => {
  const { calls, collection } = recordingCollection();
  await collection.find({}, { sort: { score: -1 } });
  t.deepEqual(calls, ['sort {"score":-1,"_id":1}', 'allowDiskUse']);
  calls.length = 0;
  await collection.find({});
  t.deepEqual(calls, []);
});

test('documents and updates with values JSON cannot hold are refused before the server is asked', async (t) => {
  const { collection } = recordingCollection();
  await t.throwsAsync(collection.put({ _id: 'a', at: new Date() }), { message: 'at: a Date object is not a JSON value' });
  await t.throwsAsync(collection.update('a', { $set: { n: Number.NaN } }), { message: 'n: NaN is not a JSON value' });
});

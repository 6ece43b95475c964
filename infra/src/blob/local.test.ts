import test from 'ava';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { createBlobStore } from './index.ts';
import { LocalBlobStore } from './local.ts';
import { assertBlobKey, BlobNotFoundError, InvalidBlobKeyError } from './port.ts';

const tempRoot = (t: { teardown(fn: () => void): void }) => {
  const dir = mkdtempSync(join(tmpdir(), 'blobs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

test('bytes put under a key come back with size, digest, type and metadata', async (t) => {
  const store = new LocalBlobStore(tempRoot(t));
  const bytes = Buffer.from('事件溯源 event sourcing', 'utf8');
  const put = await store.put('uploads/u1/a.txt', bytes, { contentType: 'text/plain; charset=utf-8', metadata: { filename: '笔记.txt' } });
  t.deepEqual(put, { key: 'uploads/u1/a.txt', size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  t.is(await text(await store.get('uploads/u1/a.txt')), '事件溯源 event sourcing');
  t.like(await store.stat('uploads/u1/a.txt'), { ...put, contentType: 'text/plain; charset=utf-8', metadata: { filename: '笔记.txt' } });
});

test('a stream is stored whole and hashed as it goes', async (t) => {
  const store = new LocalBlobStore(tempRoot(t));
  const chunks = Array.from({ length: 50 }, (_, index) => Buffer.alloc(10_000, index));
  const put = await store.put('big', Readable.from(chunks), { contentType: 'application/octet-stream' });
  const all = Buffer.concat(chunks);
  t.is(put.size, all.length);
  t.is(put.sha256, createHash('sha256').update(all).digest('hex'));
});

test('a failing source leaves nothing behind, not even a staged file', async (t) => {
  const root = tempRoot(t);
  const store = new LocalBlobStore(root);
  async function* broken() {
    yield Buffer.from('partial');
    throw new Error('client went away');
  }
  await t.throwsAsync(store.put('uploads/x', broken(), { contentType: 'text/plain' }), { message: 'client went away' });
  t.is(await store.stat('uploads/x'), null);
  t.false(existsSync(join(root, 'uploads', 'x')));
  t.deepEqual(readdirSync(join(root, '.tmp')), []);
});

test('overwriting replaces the object; delete reports whether it existed', async (t) => {
  const store = new LocalBlobStore(tempRoot(t));
  await store.put('k', Buffer.from('one'), { contentType: 'text/plain' });
  await store.put('k', Buffer.from('two!'), { contentType: 'text/markdown' });
  t.like(await store.stat('k'), { size: 4, contentType: 'text/markdown' });
  t.true(await store.delete('k'));
  t.false(await store.delete('k'));
  t.is(await store.stat('k'), null);
  await t.throwsAsync(store.get('k'), { instanceOf: BlobNotFoundError });
});

test('keys that could leave the root or reach the hidden directories are refused', async (t) => {
  const store = new LocalBlobStore(tempRoot(t));
  for (const key of ['', '../x', 'a/../../x', '/etc/passwd', 'a//b', '.meta/k.json', 'a/.tmp', 'a\\b', 'a/b/', '..', 'a/ b', 'x'.repeat(600), 'a/b/c/d/e/f/g/h/i']) {
    t.throws(() => assertBlobKey(key), { instanceOf: InvalidBlobKeyError }, key);
    await t.throwsAsync(store.put(key, Buffer.from('x'), { contentType: 'text/plain' }), { instanceOf: InvalidBlobKeyError });
    await t.throwsAsync(store.get(key), { instanceOf: InvalidBlobKeyError });
  }
  t.notThrows(() => assertBlobKey('contexts/0b1c-2d/ctx_1.original'));
});

test('the factory defaults to DATA_DIR/blobs and honours BLOB_DIR', async (t) => {
  const dataDir = tempRoot(t);
  await createBlobStore({ DATA_DIR: dataDir }).put('a', Buffer.from('1'), { contentType: 'text/plain' });
  t.true(existsSync(join(dataDir, 'blobs', 'a')));
  const blobDir = join(dataDir, 'elsewhere');
  await createBlobStore({ DATA_DIR: dataDir, BLOB_DIR: blobDir }).put('b', Buffer.from('2'), { contentType: 'text/plain' });
  t.true(existsSync(join(blobDir, 'b')));
});

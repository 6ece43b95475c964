import test from 'ava';
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WriteBehind } from './sqliteWriteBehind.ts';

function tempFile(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'write-behind-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'read.sqlite3');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE _checkpoints (projection TEXT PRIMARY KEY, position INTEGER NOT NULL); CREATE TABLE "items" (id TEXT PRIMARY KEY, doc TEXT NOT NULL)');
  db.close();
  return file;
}

test('what is handed over is read back until the writer has committed it, then from the file', async (t) => {
  const file = tempFile(t);
  const writer = new WriteBehind(file);
  t.teardown(() => writer.close());
  writer.submit([['"items"', 'a', '{"_id":"a","n":1}']], [['items', 1]]);
  writer.submit([['"items"', 'a', null]], [['items', 2]]);
  t.is(writer.lookup('"items"', 'a'), null, 'the newest write wins: the deletion');
  await writer.idle();
  t.is(writer.lookup('"items"', 'a'), undefined);
  const db = new Database(file, { readonly: true });
  t.teardown(() => db.close());
  t.deepEqual(db.prepare('SELECT count(*) AS n FROM "items"').get(), { n: 0 });
  t.deepEqual(db.prepare('SELECT position FROM _checkpoints').get(), { position: 2 });
  t.is(writer.takeFailure(), undefined);
  t.true(writer.usable);
});

test('a writer thread that cannot start fails what was handed to it, once, and is not used again', async (t) => {
  const file = tempFile(t);
  const writer = new WriteBehind(file, new URL('./no-such-writer.ts', import.meta.url));
  t.teardown(() => writer.close());
  writer.submit([['"items"', 'a', '{"_id":"a"}']], [['items', 1]]);
  await writer.idle();
  t.truthy(writer.takeFailure());
  t.is(writer.takeFailure(), undefined);
  t.false(writer.usable);
  t.is(writer.lookup('"items"', 'a'), undefined, 'nothing it was handed is read back');
});

// `npm run bench` evaluates its benches as modules, and a worker inherits that flag.
test('the writer thread starts in a process run with --input-type=module', async (t) => {
  const file = tempFile(t);
  const script = `const { WriteBehind } = await import(${JSON.stringify(new URL('./sqliteWriteBehind.ts', import.meta.url).href)});
const writer = new WriteBehind(${JSON.stringify(file)});
writer.submit([['"items"', 'a', '{"_id":"a","n":1}']], [['items', 1]]);
await writer.idle();
const failure = writer.takeFailure();
await writer.close();
process.stdout.write(failure ? 'failed: ' + failure.message : 'committed');`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { encoding: 'utf8' });
  t.is(child.stdout, 'committed', child.stderr);
  const db = new Database(file, { readonly: true });
  t.teardown(() => db.close());
  t.deepEqual(db.prepare('SELECT count(*) AS n FROM "items"').get(), { n: 1 });
});

/**
 * DATA_DIR full: the product runs on a 6 MiB tmpfs mounted in a private mount namespace of its own
 * (`unshare -m`, so nothing outside the process sees it), and a user uploads and writes until the disk
 * refuses. The process must stay up and keep serving what it already had, byte for byte; the refusal
 * itself should be a clear one (a catalogue code saying storage is full), not an internal error.
 * Skipped, with the reason printed, where a mount namespace cannot be made.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { client, signUp, type Client } from '../support/app.ts';
import { startProduct, type Product } from '../support/product.ts';
import { upload } from '../support/world.ts';

const probe = spawnSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', 'd=$(mktemp -d) && mount -t tmpfs -o size=1m tmpfs "$d" && umount "$d" && rmdir "$d"'], { encoding: 'utf8' });
const canMount = probe.status === 0;
if (!canMount) console.log(`disk-full test skipped: cannot mount a tmpfs in a private mount namespace (${(probe.stderr || probe.error?.message || '').trim()})`);

interface Filled {
  product: Product;
  user: Client;
  notes: Array<{ id: string; content: string }>;
  /** Every response while filling the disk: the last is the refusal. */
  refusal: { status: number; body: any };
}

let filled: Filled | undefined;
let dataDir = '';

/** Writes notes of 200 KB and uploads of 1 MB until the disk refuses one (or 60 writes, which 6 MiB cannot hold). */
async function fill(): Promise<Filled> {
  dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-disk-full-'));
  const product = await startProduct(dataDir, { TIME_ZONE: 'UTC' }, {
    wrap: (argv) => ['unshare', '-m', '--propagation', 'private', 'sh', '-c', `mount -t tmpfs -o size=6m tmpfs "$DATA_DIR" && exec "$@"`, 'sh', ...argv],
  });
  const user = await signUp(product.url, 'filler');
  const notes: Filled['notes'] = [];
  const sessionId = (await user.request('POST', '/backend/conversation/sessions', {})).body.session_id as string;
  for (let index = 0; index < 60; index++) {
    const content = `第${index}篇：${'满'.repeat(70_000)}`;
    const note = await user.request('POST', '/backend/api/notes', { name: `笔记${index}`, content });
    if (note.status >= 300) return { product, user, notes, refusal: note };
    notes.push({ id: note.body.id, content });
    const file = await upload(product.url, user.token, '/backend/conversation/v2/research/upload_file', { conversation_id: sessionId, file_type: 'file' }, { name: `f${index}.txt`, bytes: new TextEncoder().encode('钠'.repeat(350_000)) });
    if (file.status >= 300) return { product, user, notes, refusal: file };
  }
  throw new Error('60 writes fitted in 6 MiB: the tmpfs was not mounted');
}

test.before(async () => {
  if (canMount) filled = await fill();
});
test.after.always(async () => {
  if (filled) {
    filled.product.child.kill('SIGTERM');
    await filled.product.exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

(canMount ? test.serial : test.skip)('a full DATA_DIR: the process stays up, and everything written before reads back the same', async (t) => {
  const { product, user, notes, refusal } = filled!;
  t.log(`refused after ${notes.length} notes: ${refusal.status} ${JSON.stringify(refusal.body).slice(0, 200)}`);
  t.true(notes.length > 0, 'something fitted before the disk was full');
  t.is(product.child.exitCode, null, 'the process did not exit');
  t.is((await fetch(`${product.url}/healthz`)).status, 200);
  t.is(typeof refusal.body?.code, 'string', 'a refusal, not a dropped connection');
  for (const note of notes) t.is((await user.request('GET', `/backend/api/notes/${note.id}`)).body.content, note.content);
  // A fresh sign-in reads the accounts' read model and the log, which must both still be whole.
  const login = await client(product.url).request('POST', '/backend/auth/login', { username: 'filler', password: 'correct horse battery' }, { form: true });
  t.true(login.status === 200 || typeof login.body?.code === 'string', `sign-in: ${login.status}`);
});

(canMount ? test : test.skip)('a full DATA_DIR is refused clearly: 507 or 503 with a storage code, not an internal error', (t) => {
  const { refusal } = filled!;
  t.true([503, 507].includes(refusal.status), `${refusal.status} ${JSON.stringify(refusal.body).slice(0, 200)}`);
  t.regex(String(refusal.body?.code), /storage|disk|full/);
});

import test from 'ava';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from '../../infra/deploy/build.ts';
import { signUp } from '../support/app.ts';
import { startProduct } from '../support/product.ts';
import { upload } from '../support/world.ts';

/**
 * The container's server: compiled to JavaScript and run by `node` alone (no tsx), it starts, serves,
 * reads an uploaded document in its compiled document worker, and ends on SIGTERM as PID 1 would.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

test('the compiled server starts under node, answers /healthz, reads a DOCX in its worker, and exits on SIGTERM', async (t) => {
  const outdir = join(ROOT, '.tmp', `build-${randomUUID()}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-compiled-'));
  t.teardown(() => {
    rmSync(outdir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });
  await buildServer(outdir);
  // Without tsx's loader: node alone must run it.
  const product = await startProduct(dataDir, {}, { wrap: () => [process.execPath, join(outdir, 'main.js')] });
  t.teardown(() => {
    if (product.child.exitCode === null) product.child.kill('SIGKILL');
  });
  t.false(product.child.spawnargs.some((arg) => arg.includes('tsx')));
  t.is((await fetch(`${product.url}/healthz`)).status, 200);
  const user = await signUp(product.url, 'compiled');
  const docx = await upload(product.url, user.token, '/backend/conversation/api/upload_file', {}, { name: '报告.docx', bytes: readFileSync(new URL('../fixtures/zh.docx', import.meta.url)) });
  t.is(docx.status, 200, JSON.stringify(docx.body));
  product.child.kill('SIGTERM');
  t.is(await product.exited, 0);
});

/** Starts the product as a test would, prints its pid, then waits to be killed (orphans.test.ts). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProduct } from '../support/product.ts';

const product = await startProduct(mkdtempSync(join(tmpdir(), 'scriptorium-orphan-')));
process.stdout.write(`${product.child.pid}\n`);
setInterval(() => undefined, 60_000);

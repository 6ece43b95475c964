import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { startBrowser } from './browser.ts';
import { startProduct, type Product } from './product.ts';

/** The product and the browser a test file drives; set once its `before` hook has run. */
export interface Running {
  product: Product;
  browser: Browser;
}

/**
 * Registers the file's hooks: the built product on a fresh data directory and one browser before
 * its tests, both stopped and the directory removed after them, whether they passed or not.
 */
export function productInBrowser(name: string, env: Record<string, string>): Running {
  const running = {} as Running;
  let dataDir: string | undefined;
  test.before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), `scriptorium-${name}-`));
    running.product = await startProduct(dataDir, env);
    running.browser = await startBrowser();
  });
  test.after.always(async () => {
    await running.browser?.close();
    running.product?.child.kill('SIGTERM');
    await running.product?.exited;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return running;
}

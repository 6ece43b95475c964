import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

export const SCREENSHOTS = fileURLToPath(new URL('../e2e/screenshots/', import.meta.url));
export const CHROMIUM = '/usr/bin/chromium';
export const CLIENT_BUILT = existsSync(fileURLToPath(new URL('../../frontend/dist/index.html', import.meta.url)));

/** Debian's Chromium, headless, with the flags this machine's closed network needs. */
export function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export const screenshot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}${name}.png` });

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

/**
 * A new browser context already signed in with `token` (stored before any script of the page runs;
 * in the top frame only, since sandboxed frames have no storage), its page, and the page errors
 * seen, which a test expects to stay empty. The context closes with the test.
 */
export async function signedInPage(
  t: { teardown(fn: () => Promise<void>): void },
  browser: Browser,
  token: string,
  options: { acceptDownloads?: boolean } = {},
): Promise<{ page: Page; pageErrors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN', ...options });
  t.teardown(() => context.close());
  await context.addInitScript((stored) => {
    if (window === window.top) localStorage.setItem('auth_token', stored);
  }, token);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { page, pageErrors };
}

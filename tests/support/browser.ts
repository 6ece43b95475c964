import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import type { Browser, Download, Page, Route } from 'playwright-core';
import { signUp, startTestApp, type TestApp } from './app.ts';
import { launchBrowser } from './chromium.ts';

export const SCREENSHOTS = fileURLToPath(new URL('../e2e/screenshots/', import.meta.url));
const CLIENT = fileURLToPath(new URL('../../frontend/dist/index.html', import.meta.url));
mkdirSync(SCREENSHOTS, { recursive: true });

/**
 * How long an action or a wait may take before it fails, in place of Playwright's 30 s: the suite's
 * hang detector (ava.config.js), a bound to fail by, not a measure. Playwright's 30 s, then 120 s,
 * were tripped on a loaded machine: at load average 35-40 (`npm run test:stress`, session 18) a
 * page took over 120 s to show its first control and a research that takes 20 s idle ran past it.
 */
const STEP_LIMIT_MS = 10 * 60_000;

/**
 * The browser a test drives the built client in, each context it opens with the limit above. Throws
 * when the client is not built, so that every browser test fails instead of passing over pages that
 * were never there; and when Chromium cannot start.
 */
export async function startBrowser(): Promise<Browser> {
  if (!existsSync(CLIENT)) throw new Error('frontend/dist is missing: run `npm run build` first (npm test does it)');
  const browser = await launchBrowser();
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(STEP_LIMIT_MS);
    return context;
  };
  return browser;
}

/** A download's bytes. */
export async function downloaded(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A browser test file's app and Chromium: started before its first test, closed after its last. Call
 * it at the top of the file; `suite.app` and `suite.browser` are there once the tests run.
 */
export function browserSuite(start: () => Promise<TestApp> = () => startTestApp()): { readonly app: TestApp; readonly browser: Browser } {
  const suite: { app?: TestApp; browser?: Browser } = {};
  test.before(async () => {
    suite.app = await start();
    suite.browser = await startBrowser();
  });
  test.after.always(async () => {
    await suite.browser?.close();
    await suite.app?.stop();
  });
  return {
    get app() {
      return suite.app!;
    },
    get browser() {
      return suite.browser!;
    },
  };
}

/**
 * Runs `shown` while the `method` requests to URLs ending in `pathEnd` are held back from the server,
 * and lets them through after: what `shown` waits for must appear before the server has answered,
 * which is what "at once" means without a clock a loaded machine trips.
 */
export async function beforeTheServerAnswers(page: Page, request: { method: string; pathEnd: string }, shown: () => Promise<void>): Promise<void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const matches = (url: URL) => url.pathname.endsWith(request.pathEnd);
  const passing: Array<Promise<void>> = [];
  const hold = (route: Route) => {
    const passed = (route.request().method() === request.method ? released : Promise.resolve()).then(() => route.continue());
    passing.push(passed);
    return passed;
  };
  await page.route(matches, hold);
  try {
    await shown();
  } finally {
    release();
    // Unrouting with a request still held would let it through twice.
    await Promise.all(passing);
    await page.unroute(matches, hold);
  }
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
  options: { acceptDownloads?: boolean; timezoneId?: string } = {},
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

/**
 * A new user's `/research` page in `language`. First-visit tips are off unless `tips`: they are the
 * guidance test's subject, and elsewhere one could sit over what a test is about to click.
 */
export async function newUserOnResearch(
  t: { teardown(fn: () => Promise<void>): void },
  suite: { readonly app: TestApp; readonly browser: Browser },
  name: string,
  language: 'zh' | 'en',
  { tips = false }: { tips?: boolean } = {},
): Promise<{ page: Page; pageErrors: string[] }> {
  const user = await signUp(suite.app.url, name);
  const opened = await signedInPage(t, suite.browser, user.token!);
  await opened.page.addInitScript(
    ({ lang, guidance }) => {
      localStorage.setItem('app_language', lang);
      if (!guidance) localStorage.setItem('guidance_enabled', 'false');
    },
    { lang: language, guidance: tips },
  );
  await opened.page.goto(`${suite.app.url}/research`, { waitUntil: 'networkidle' });
  return opened;
}

/**
 * Selects `text` inside the canvas editor as a user dragging over it would: its first occurrence, or
 * its last with `{ last: true }` (to edit the second of two equal sentences).
 */
export async function selectInCanvas(page: Page, text: string, options: { last?: boolean } = {}): Promise<void> {
  await page.evaluate(
    ({ wanted, last }) => {
      const root = document.querySelector('.canvas-doc .ProseMirror')!;
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      const found: Array<{ node: Node; at: number }> = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent!.indexOf(wanted);
        if (at !== -1) found.push({ node, at });
      }
      const chosen = last ? found.at(-1) : found[0];
      if (!chosen) throw new Error(`not in the canvas: ${wanted}`);
      const range = document.createRange();
      range.setStart(chosen.node, chosen.at);
      range.setEnd(chosen.node, chosen.at + wanted.length);
      (root as HTMLElement).focus();
      window.getSelection()!.removeAllRanges();
      window.getSelection()!.addRange(range);
    },
    { wanted: text, last: options.last ?? false },
  );
}

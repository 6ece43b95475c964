import { chromium, type Browser, type BrowserServer } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Debian's Chromium, headless, with the flags this machine's closed network needs. */
const LAUNCH = {
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
};

/**
 * Where the suite's shared Chromium listens (a Playwright browser server), set by tests/support/suite.ts
 * for the test processes it runs.
 */
export const SHARED_BROWSER = 'SCRIPTORIUM_TEST_BROWSER';

/**
 * A Chromium of this process's own. Apart from the test helpers (which import ava, and ava refuses
 * to be imported outside its runner) so that the benchmarks can start it too.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch(LAUNCH);
}

/** The Chromium that the test files of one suite run connect to, instead of each launching its own. */
export function launchBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer(LAUNCH);
}

/**
 * The shared Chromium when the suite runs one, else one of this process's own. Closing a shared
 * one's connection closes the contexts it opened and leaves the browser to the other files.
 */
export function connectBrowser(): Promise<Browser> {
  const endpoint = process.env[SHARED_BROWSER];
  return endpoint ? chromium.connect(endpoint) : launchBrowser();
}

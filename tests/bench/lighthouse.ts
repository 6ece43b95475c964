/**
 * Lighthouse on `/research` and `/cli`, mobile preset (Lighthouse's default: a mid-range phone on slow
 * 4G, simulated throttling), in Debian's Chromium against the built product (`npm run build` first).
 * Each page signed out, then signed in (a fresh account's token in localStorage, as the sign-in page
 * leaves it).
 * Prints the performance score, first and largest contentful paint, total blocking time and the
 * JavaScript transferred; the target is a score of at least 0.95 (docs/performance.md). No threshold
 * is asserted: only that Lighthouse ran and the page rendered. Each run has a Chromium of its own,
 * so the signed-in page is loaded with a cold cache too. One run's score moves by a few hundredths with
 * the machine, so each side runs LIGHTHOUSE_RUNS times (3 by default) and the median run is printed,
 * with the range of scores beside it. LIGHTHOUSE_REPORTS=<dir> keeps the JSON reports;
 * LIGHTHOUSE_PAGES=/cli audits only the pages named.
 * Run: npx tsx tests/bench/lighthouse.ts
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags, type RunnerResult } from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { signUp } from '../support/app.ts';
import { startProduct } from '../support/product.ts';
import { sized } from './short.ts';
import { requireBuiltClient } from './builtClient.ts';

const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu'];
/** Lighthouse's score is its own scale: the anchor is a target, printed as one, not a baseline. */
const TARGET_SCORE = 0.95;
/** The pages the issue names: the landing screen and the CLI's public page (LIGHTHOUSE_PAGES=/cli for one). */
const PAGES = process.env.LIGHTHOUSE_PAGES?.split(',') ?? ['/research', '/cli'];

interface Figures {
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  scriptBytes: number;
  scriptRequests: number;
}

function figures(result: RunnerResult | undefined): Figures {
  const lhr = result?.lhr;
  if (!lhr) throw new Error('Lighthouse returned no result');
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const numeric = (id: string): number => {
    const value = lhr.audits[id]?.numericValue;
    if (typeof value !== 'number') throw new Error(`Lighthouse audit ${id} has no value`);
    return value;
  };
  const requests = (lhr.audits['network-requests']?.details as { items?: Array<{ resourceType?: string; transferSize?: number }> } | undefined)?.items ?? [];
  const scripts = requests.filter((request) => request.resourceType === 'Script');
  return {
    score: lhr.categories.performance?.score ?? Number.NaN,
    fcpMs: numeric('first-contentful-paint'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    scriptBytes: scripts.reduce((sum, request) => sum + (request.transferSize ?? 0), 0),
    scriptRequests: scripts.length,
  };
}

const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? sized(3, 1));
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`LIGHTHOUSE_RUNS must be a whole number of at least 1, not ${process.env.LIGHTHOUSE_RUNS}`);

/** The median run by score, and the range of all runs' scores. */
function print(label: string, runs: Figures[]): void {
  const sorted = [...runs].sort((a, b) => a.score - b.score);
  const result = sorted[Math.floor(sorted.length / 2)]!;
  const range = sorted.length > 1 ? `, ${runs.length} runs ${sorted[0]!.score.toFixed(2)}–${sorted.at(-1)!.score.toFixed(2)}` : '';
  console.log(
    `  ${label.padEnd(21)} score ${result.score.toFixed(2)} (median${range}; target ≥ ${TARGET_SCORE}) · FCP ${ms(result.fcpMs)} · ` +
      `LCP ${ms(result.lcpMs)} · TBT ${ms(result.tbtMs)} · JS ${kb(result.scriptBytes)} in ${result.scriptRequests} requests`,
  );
}

async function runs(label: string, url: string, token?: string): Promise<Figures[]> {
  const results: Figures[] = [];
  for (let run = 1; run <= RUNS; run++) results.push(await audit(RUNS > 1 ? `${label} ${run}` : label, url, token));
  return results;
}

/** One Lighthouse run in a Chromium of its own; a token, when given, is in the origin's storage first. */
async function audit(label: string, url: string, token?: string): Promise<Figures> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
  try {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const page = await browser.newPage();
    if (token !== undefined) {
      // Storage as the sign-in page leaves it, set from a page that loads no script: the cache stays cold.
      await page.goto(new URL('/favicon.svg', url).href);
      await page.evaluate((value) => localStorage.setItem('auth_token', value), token);
    }
    const flags: Flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: token !== undefined };
    const result = await lighthouse(url, flags, undefined, page);
    const reports = process.env.LIGHTHOUSE_REPORTS;
    if (reports && result) {
      await mkdir(reports, { recursive: true });
      await writeFile(join(reports, `${label.replace(/\W+/g, '-').replace(/^-/, '')}.json`), JSON.stringify(result.lhr, null, 1));
    }
    await browser.disconnect();
    return figures(result);
  } finally {
    chrome.kill();
  }
}

export async function run(): Promise<void> {
  requireBuiltClient();
  const dataDir = await mkdtemp(join(tmpdir(), 'scriptorium-bench-lighthouse-'));
  const product = await startProduct(dataDir);
  try {
    console.log(`lighthouse: ${PAGES.join(' and ')} of ${product.url}, mobile preset (simulated slow 4G, 4× CPU slowdown), ${CHROMIUM}`);
    const reader = await signUp(product.url, `lighthouse_${Date.now().toString(36)}`);
    for (const path of PAGES) {
      const url = `${product.url}${path}`;
      print(`${path} signed out`, await runs(`${path} signed out`, url));
      print(`${path} signed in`, await runs(`${path} signed in`, url, reader.token));
    }
  } finally {
    product.child.kill('SIGTERM');
    await product.exited;
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await run();

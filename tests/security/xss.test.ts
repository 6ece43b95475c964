/**
 * Stored XSS: a user fills every field they control with script payloads (markup, SVG, `javascript:`
 * links, markdown with HTML in it), then the pages that show those fields are opened in Chromium as the
 * owner, as a stranger following the share links, and as an administrator. No payload may run:
 * `window.__xss` stays unset, no dialog opens, and the payload's markup never becomes live elements.
 * Serves frontend/dist: run `npm run build` first (npm test does).
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { signedInPage, startBrowser } from '../support/browser.ts';
import { client, signUp, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { buildWorld, type World } from '../support/world.ts';

/** Plain text beside the payloads, to show each page did render the user's fields (a blank page proves nothing). */
const MARKER = 'XSS标记';
const PAYLOAD = [
  MARKER,
  `<img src=x onerror="window.__xss='img';alert('img')">`,
  `<svg onload="window.__xss='svg'"></svg>`,
  `<script>window.__xss='script'</script>`,
  `[点我](javascript:window.__xss='md-link')`,
  `<a href="javascript:window.__xss='a'">a</a>`,
  `<iframe srcdoc="<script>parent.__xss='iframe'</script>"></iframe>`,
  `<details open ontoggle="window.__xss='toggle'">`,
].join(' ');
/** Short enough for a nickname (32). */
const SHORT = `<img src=x onerror=__xss=1>`;

let app: TestApp;
let browser: Browser;
let alice: Client & { userId: string };
let world: World;
let adminToken: string;

test.before(async () => {
  app = await startTestApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password' });
  browser = await startBrowser();
  alice = await signUp(app.url, 'alice');
  world = await buildWorld(app.url, alice, PAYLOAD);
  await alice.request('PATCH', `/backend/users/${alice.userId}`, { nickname: SHORT });
  // Published, so the public cognition pages show it too.
  await alice.request('PATCH', `/backend/api/cognition/${world.cognitionId}`, { public: true });
  adminToken = (await client(app.url).request('POST', '/backend/auth/login', { username: 'root', password: 'root-password' }, { form: true })).body.access_token;
});
test.after.always(async () => {
  await browser?.close();
  await app?.stop();
});

/** What a payload left behind on the page: a value it set, a dialog, or live markup it smuggled in. */
async function traces(page: Page, dialogs: string[]): Promise<string[]> {
  const found = [...dialogs.map((message) => `dialog: ${message}`)];
  for (const frame of page.frames()) {
    const set = await frame.evaluate(() => (window as { __xss?: unknown }).__xss).catch(() => undefined);
    if (set !== undefined) found.push(`window.__xss = ${String(set)} in ${frame.url()}`);
  }
  const live = await page.evaluate(() =>
    [...document.querySelectorAll('[onerror], [onload], [ontoggle], a[href^="javascript:" i], [src^="javascript:" i], iframe[srcdoc*="__xss"], script:not([src])')].map((element) => element.outerHTML.slice(0, 120)),
  );
  return [...found, ...live.map((html) => `live markup: ${html}`)];
}

async function visit(t: { teardown(fn: () => Promise<void>): void }, token: string | undefined, path: string, then?: (page: Page) => Promise<void>): Promise<string[]> {
  const context = token ? undefined : await browser.newContext({ locale: 'zh-CN' });
  if (context) t.teardown(() => context.close());
  const page = token ? (await signedInPage(t, browser, token)).page : await context!.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(`${app.url}${path}`, { waitUntil: 'networkidle' });
  if (then) {
    await then(page);
    await page.waitForLoadState('networkidle');
  }
  // Where the page shows the user's text, the payloads are checked only once it is there.
  if (SHOWS.some((pattern) => pattern.test(path))) {
    await page.getByText(MARKER).first().waitFor();
  }
  return (await traces(page, dialogs)).map((trace) => `${path}: ${trace}`);
}

/** Pages that must show the user's text: a blank page would prove nothing. */
const SHOWS = [/^\/research$/, /^\/note$/, /^\/cognition\/display\?/, /^\/cli\/trajectories\?/, /^\/share\/[^/]+$/, /^\/share\/report\//, /^\/shared\/trajectory\//];

const clickFirst = (selector: string) => async (page: Page) => {
  const target = page.locator(selector).first();
  await target.waitFor();
  await target.click();
};

const OWNER_PAGES: Array<[string, ((page: Page) => Promise<void>)?]> = [
  ['/research', clickFirst('.session-list:not(.cloud) .session-select')],
  ['/note', clickFirst('.note-row')],
  ['/cognition?scope=mine'],
  ['/cognition/library'],
  ['/ai-first/writing-agent'],
  ['/cli/trajectories'],
  ['/engineer'],
];

test.serial('the owner opens every page that shows what they typed: nothing runs', async (t) => {
  const pages: Array<[string, ((page: Page) => Promise<void>)?]> = [
    ...OWNER_PAGES,
    [`/cognition/display?id=${world.cognitionId}`],
    [`/cognition/library/${world.collectionId}`],
    [`/cli/trajectories?file_id=${world.trajectoryId}`],
  ];
  const found: string[] = [];
  for (const [path, then] of pages) found.push(...(await visit(t, alice.token, path, then)));
  t.deepEqual(found, []);
});

test.serial('a stranger follows every share link: nothing runs', async (t) => {
  const found: string[] = [];
  for (const path of [
    `/share/${world.noteShareToken}`,
    `/share/report/${world.sessionShareId}`,
    `/share/conversation/${world.sessionShareId}`,
    `/share/cognition/${world.cognitionId}`,
    `/shared/trajectory/${world.trajectoryShareToken}`,
    '/cognition',
    '/cli-leaderboard',
  ])
    found.push(...(await visit(t, undefined, path)));
  t.deepEqual(found, []);
});

test.serial('an administrator reads the users, feedback, dashboards and the audit page: nothing runs', async (t) => {
  const found: string[] = [];
  for (const path of ['/manage', '/admin/dashboard', '/audit']) found.push(...(await visit(t, adminToken, path)));
  t.deepEqual(found, []);
});

/**
 * The OAuth consent screen in a real browser against the real server, in Chinese and English: a native
 * app (played here by a loopback listener, as the command-line assistant listens) sends the user to
 * /oauth/authorize; approving sends the browser back with a code that exchanges for tokens, denying
 * with access_denied, and a request with an unregistered redirect stays on an error page. The app then
 * appears in the status dialog, where it is revoked; so does a password sign-in of the command line,
 * named by its machine. Serves frontend/dist: run `npm run build` first.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import type { Page } from 'playwright-core';
import { screenshot, signedInPage } from '../support/browser.ts';
import { productInBrowser } from '../support/browserProduct.ts';
import { signUp } from '../support/app.ts';

const running = productInBrowser('oauth', {});

/** The native app's side: a loopback listener that records each redirect it receives. */
async function loopback(t: { teardown(fn: () => void): void }): Promise<{ redirectUri: string; next(): Promise<URLSearchParams> }> {
  const waiting: Array<(params: URLSearchParams) => void> = [];
  const arrived: URLSearchParams[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    // The browser also asks the app's origin for a favicon: only the redirect counts.
    if (url.pathname !== '/callback') return void response.writeHead(404).end();
    const params = url.searchParams;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>app</title><p>back in the app</p>');
    const waiter = waiting.shift();
    if (waiter) waiter(params);
    else arrived.push(params);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return {
    redirectUri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    next: () => (arrived.length > 0 ? Promise.resolve(arrived.shift()!) : new Promise((resolve) => waiting.push(resolve))),
  };
}

function authorizeUrl(redirectUri: string) {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(8).toString('hex');
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: 'scriptorium-cli',
    redirect_uri: redirectUri,
    scope: 'account',
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  return { url: `${running.product.url}/oauth/authorize?${params}`, verifier, state };
}

async function consentShown(page: Page, url: string, heading: string) {
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: heading }).waitFor();
}

test.serial('the consent screen approves and denies in zh and en; a bad redirect stays on an error page; the app is revoked from the status dialog', async (t) => {
  const user = await signUp(running.product.url, `oauth${Date.now().toString(36)}`);
  const app = await loopback(t);
  const { page, pageErrors } = await signedInPage(t, running.browser, user.token!);

  // Chinese: the client is named, with what it may do and where the browser goes back to.
  const zh = authorizeUrl(app.redirectUri);
  await consentShown(page, zh.url, '授权 Scriptorium 命令行助手');
  t.true(await page.getByText('以你的身份使用 Scriptorium').isVisible());
  t.true(await page.getByText(/授权后将返回本机上的应用：127\.0\.0\.1:\d+/).isVisible());
  await screenshot(page, 'oauth-consent-zh');
  await page.getByRole('button', { name: '授权', exact: true }).click();
  const approved = await app.next();
  t.is(approved.get('state'), zh.state);
  t.is(approved.get('iss'), running.product.url);
  await page.getByText('back in the app').waitFor();
  const exchanged = await fetch(`${running.product.url}/backend/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: approved.get('code')!, redirect_uri: app.redirectUri, code_verifier: zh.verifier, client_id: 'scriptorium-cli' }),
  });
  t.is(exchanged.status, 200, 'the code the browser carried back exchanges for tokens');

  // English: denying goes back to the app with access_denied. (The page is the app's now: back to ours to choose the language.)
  await page.goto(`${running.product.url}/cli`, { waitUntil: 'networkidle' });
  await page.evaluate(() => localStorage.setItem('app_language', 'en'));
  const en = authorizeUrl(app.redirectUri);
  await consentShown(page, en.url, 'Authorise Scriptorium command-line assistant');
  t.true(await page.getByText('Call the models, spending your token allowance').isVisible());
  await screenshot(page, 'oauth-consent-en');
  await page.getByRole('button', { name: 'Deny' }).click();
  const denied = await app.next();
  t.is(denied.get('error'), 'access_denied');
  t.is(denied.get('state'), en.state);
  await page.getByText('back in the app').waitFor();

  // An unregistered redirect: an error page, and the browser stays here.
  const evil = authorizeUrl('http://evil.example/callback');
  await page.goto(evil.url, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: 'Cannot authorise' }).waitFor();
  t.true(await page.getByText('The redirect_uri is not registered for this client').first().isVisible());
  t.true(page.url().startsWith(running.product.url), 'never sent to the unregistered redirect');
  await screenshot(page, 'oauth-invalid-en');
  await page.evaluate(() => localStorage.setItem('app_language', 'zh'));
  await page.goto(evil.url, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: '无法授权' }).waitFor();
  await screenshot(page, 'oauth-invalid-zh');

  // The status dialog lists the app; revoking it asks first, then empties the list.
  await page.goto(`${running.product.url}/research`, { waitUntil: 'networkidle' });
  const tip = page.getByRole('button', { name: '知道了' });
  while (await tip.isVisible().catch(() => false)) await tip.click();
  await page.locator('.user-button').click();
  const dialog = page.getByRole('dialog', { name: '账户状态' });
  const apps = dialog.locator('.account-apps');
  await apps.getByText('Scriptorium 命令行助手').waitFor();
  t.regex(await apps.innerText(), /授权于 .* · 最近使用 /);
  t.regex(await apps.innerText(), /权限：整个账户/, 'what the app may do: the scope it asked for');
  await apps.scrollIntoViewIfNeeded();
  await screenshot(page, 'oauth-apps-zh');
  await apps.getByRole('button', { name: '撤销' }).click();
  const confirm = page.getByRole('alertdialog');
  await confirm.getByText('撤销「Scriptorium 命令行助手」的授权？').waitFor();
  await confirm.getByRole('button', { name: '撤销' }).click();
  await apps.getByText('还没有授权任何应用').waitFor();
  await screenshot(page, 'oauth-apps-revoked-zh');
  t.deepEqual(pageErrors, []);
});

test.serial('a signed-out visitor signs in first and comes back to the same request', async (t) => {
  const username = `later${Date.now().toString(36)}`;
  await signUp(running.product.url, username, 'correct horse battery');
  const app = await loopback(t);
  const context = await running.browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'zh-CN' });
  t.teardown(() => context.close());
  const page = await context.newPage();
  const request = authorizeUrl(app.redirectUri);
  await page.goto(request.url, { waitUntil: 'networkidle' });
  await page.waitForURL(/\/login\?redirect=/);
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码').fill('correct horse battery');
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await page.getByRole('heading', { name: '授权 Scriptorium 命令行助手' }).waitFor();
  t.is(new URL(page.url()).searchParams.get('state'), request.state, 'the request survives the sign-in');
});

/** The command line's `login --password`: the app and the machine are named, so the status dialog lists it. */
async function passwordSignIn(username: string, device: string): Promise<string> {
  const response = await fetch(`${running.product.url}/backend/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password: 'correct horse battery', client_id: 'scriptorium-cli', device_name: device }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

const meWith = async (token: string) => (await fetch(`${running.product.url}/backend/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status;

async function appsInStatusDialog(page: Page, dialogName: string) {
  await page.goto(`${running.product.url}/research`, { waitUntil: 'networkidle' });
  await page.locator('.user-button').click();
  const apps = page.getByRole('dialog', { name: dialogName }).locator('.account-apps');
  await apps.waitFor();
  return apps;
}

test.serial('a password sign-in of the command line is listed with its machine, and revoked from the status dialog, in zh and en', async (t) => {
  const username = `pwcli${Date.now().toString(36)}`;
  const user = await signUp(running.product.url, username);
  const laptop = await passwordSignIn(username, 'lin-laptop');
  const buildServer = await passwordSignIn(username, 'build-server');
  const { page, pageErrors } = await signedInPage(t, running.browser, user.token!);
  await page.addInitScript(() => localStorage.setItem('guidance_enabled', 'false'));

  const zh = await appsInStatusDialog(page, '账户状态');
  await zh.getByText('Scriptorium 命令行助手 · build-server').waitFor();
  await zh.getByText('Scriptorium 命令行助手 · lin-laptop').waitFor();
  t.regex(await zh.innerText(), /用密码登录于 .* · 最近使用 /);
  await zh.scrollIntoViewIfNeeded();
  await screenshot(page, 'app-sign-ins-zh');
  await zh.locator('.account-app', { hasText: 'build-server' }).getByRole('button', { name: '撤销' }).click();
  const confirmZh = page.getByRole('alertdialog');
  await confirmZh.getByText('撤销「Scriptorium 命令行助手」在 build-server 上的登录？').waitFor();
  await confirmZh.getByText('该设备上保存的令牌将立即失效，需要重新登录才能再次使用。').waitFor();
  await screenshot(page, 'app-sign-in-revoke-zh');
  await confirmZh.getByRole('button', { name: '撤销' }).click();
  await zh.getByText('build-server').waitFor({ state: 'detached' });
  await page.locator('.toast-title').getByText('已撤销登录', { exact: true }).waitFor();
  t.is(await meWith(buildServer), 401, 'the revoked sign-in’s token is refused');
  t.is(await meWith(laptop), 200, 'the other machine’s sign-in holds');

  await page.evaluate(() => localStorage.setItem('app_language', 'en'));
  const en = await appsInStatusDialog(page, 'Account status');
  await en.getByText('Scriptorium command-line assistant · lin-laptop').waitFor();
  t.regex(await en.innerText(), /Signed in with a password .* · Last used /);
  t.false((await en.innerText()).includes('build-server'));
  await en.scrollIntoViewIfNeeded();
  await screenshot(page, 'app-sign-ins-en');
  await en.getByRole('button', { name: 'Revoke' }).click();
  const confirmEn = page.getByRole('alertdialog');
  await confirmEn.getByText('Revoke “Scriptorium command-line assistant” on lin-laptop?').waitFor();
  await screenshot(page, 'app-sign-in-revoke-en');
  await confirmEn.getByRole('button', { name: 'Revoke' }).click();
  await en.getByText(/No app is authorised yet/).waitFor();
  await screenshot(page, 'app-sign-ins-revoked-en');
  t.is(await meWith(laptop), 401);
  t.deepEqual(pageErrors, []);
});

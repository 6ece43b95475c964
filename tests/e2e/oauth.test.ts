/**
 * The OAuth consent screen in a real browser against the real server, in Chinese and English: a native
 * app (played here by a loopback listener, as the command-line assistant listens) sends the user to
 * /oauth/authorize; approving sends the browser back with a code that exchanges for tokens, denying
 * with access_denied, and a request with an unregistered redirect stays on an error page. The app then
 * appears in the status dialog, where it is revoked. Serves frontend/dist: run `npm run build` first.
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

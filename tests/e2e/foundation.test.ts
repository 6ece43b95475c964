import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import test from 'ava';
import { screenshot, startBrowser } from '../support/browser.ts';
import { startProduct } from '../support/product.ts';

test('a new user sees the shell in Chinese, switches to English, registers, and stays signed in across a reload and a restart', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-e2e-'));
  // The same port after the restart, so the browser keeps the same origin and its stored token.
  const port = String(await freePort());
  let product = await startProduct(dataDir, { PORT: port });
  const browser = await startBrowser();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' })).newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    await page.goto(`${product.url}/`, { waitUntil: 'networkidle' });
    // The redirect is the client's: on a loaded machine it can land after the network went quiet.
    await page.waitForURL((url) => url.pathname === '/research', { timeout: 15_000 }).catch(() => undefined);
    t.is(new URL(page.url()).pathname, '/research', '/ redirects to /research');
    await page.getByRole('link', { name: '对话' }).waitFor();
    await screenshot(page, 'foundation-zh');

    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('link', { name: 'Conversation' }).first().waitFor();
    t.is(await page.evaluate(() => localStorage.getItem('app_language')), 'en');
    await page.getByRole('button', { name: '中文' }).click();

    await page.goto(`${product.url}/register`, { waitUntil: 'networkidle' });
    await page.getByLabel('用户名').fill('e2e_user');
    await page.getByLabel('昵称').fill('测试用户');
    await page.getByLabel('邮箱').fill('e2e@example.com');
    await page.getByLabel('密码', { exact: true }).fill('correct-horse-1');
    await page.getByLabel('确认密码').fill('correct-horse-1');
    await page.getByRole('button', { name: '注册', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/register'));
    const token = await page.evaluate(() => localStorage.getItem('auth_token'));
    t.truthy(token, 'registration signs the user in');

    const signedIn = async () => {
      const response = await page.request.get(`${product.url}/backend/auth/me`, { headers: { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('auth_token'))}` } });
      return response.status() === 200 && (await response.json()).username === 'e2e_user';
    };
    await page.goto(`${product.url}/research`, { waitUntil: 'networkidle' });
    await page.reload({ waitUntil: 'networkidle' });
    t.true(await signedIn(), 'still signed in after a reload');
    t.false(await page.getByText('请登录后查看').isVisible(), 'history no longer asks to sign in');
    await screenshot(page, 'foundation-signed-in');

    product.child.kill('SIGTERM');
    await product.exited;
    product = await startProduct(dataDir, { PORT: port });
    await page.goto(`${product.url}/research`, { waitUntil: 'networkidle' });
    t.true(await signedIn(), 'still signed in after the server restarts (data and secret in DATA_DIR)');
    t.deepEqual(errors, []);
  } finally {
    await browser.close();
    product.child.kill('SIGTERM');
    await product.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

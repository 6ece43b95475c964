/**
 * Browser check of the application shell: first-visit JS weight, language switch, sign-in and
 * registration pages, guard redirects, full-screen shared pages. Saves screenshots for review.
 *
 *   npx tsx tests/e2e/shell.e2e.ts http://127.0.0.1:4173
 *
 * Runs against any server of the built client (`npx vite preview` or `npm start`); nothing here needs
 * the API.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Page, type Response } from 'playwright-core';

const base = (process.argv[2] ?? 'http://127.0.0.1:4173').replace(/\/$/, '');
const shots = fileURLToPath(new URL('./screenshots/', import.meta.url));
const FIRST_VISIT_BUDGET_GZIP = 350 * 1024;

mkdirSync(shots, { recursive: true });

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`check failed: ${message}`);
}

const shoot = (page: Page, name: string) => page.screenshot({ path: `${shots}${name}.png` });

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});

try {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));

  // First visit of /research: every script fetched, gzipped as a server would send it.
  const scripts: Array<Promise<{ url: string; gzip: number }>> = [];
  const collect = (response: Response) => {
    if (response.request().resourceType() === 'script') scripts.push(response.body().then((body) => ({ url: response.url(), gzip: gzipSync(body).length })));
  };
  page.on('response', collect);
  await page.goto(`${base}/research`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: '今天想研究什么？' }).waitFor();
  page.off('response', collect);
  const loaded = await Promise.all(scripts);
  const total = loaded.reduce((sum, script) => sum + script.gzip, 0);
  for (const script of loaded) console.log(`  ${(script.gzip / 1024).toFixed(1).padStart(7)} KB  ${new URL(script.url).pathname}`);
  console.log(`first visit of /research: ${loaded.length} scripts, ${(total / 1024).toFixed(1)} KB gzip (budget ${FIRST_VISIT_BUDGET_GZIP / 1024} KB)`);
  check(total < FIRST_VISIT_BUDGET_GZIP, 'first-visit JS within budget');

  check((await page.locator('html').getAttribute('lang')) === 'zh-CN', 'document language is zh-CN by default');
  check(await page.getByRole('link', { name: '对话' }).isVisible(), 'sidebar shows the conversation entry');
  check(await page.getByText('请登录后查看').isVisible(), 'research sub-panel asks to sign in');
  await shoot(page, 'shell-zh');

  await page.getByRole('button', { name: 'English' }).click();
  await page.getByRole('heading', { name: 'What would you like to research today?' }).waitFor();
  check((await page.evaluate(() => localStorage.getItem('app_language'))) === 'en', 'language stored as app_language=en');
  await page.reload({ waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: 'What would you like to research today?' }).waitFor();
  check((await page.locator('html').getAttribute('lang')) === 'en', 'English survives a reload');
  await shoot(page, 'shell-en');

  // The collapsed sidebar is 64 px, the expanded one 256 px.
  const sidebar = page.locator('aside.sidebar');
  check((await sidebar.boundingBox())?.width === 256, 'expanded sidebar is 256 px');
  await page.getByRole('button', { name: 'Collapse sidebar' }).click();
  await page.waitForTimeout(400);
  check((await sidebar.boundingBox())?.width === 64, 'collapsed sidebar is 64 px');
  await shoot(page, 'shell-collapsed');
  await page.getByRole('button', { name: 'Expand sidebar' }).click();

  await page.getByRole('button', { name: 'Sign in / Register' }).click();
  await page.getByRole('dialog').getByRole('heading', { name: 'Welcome to Scriptorium' }).waitFor();
  await shoot(page, 'user-dialog');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: '中文' }).click();
  await page.getByRole('heading', { name: '今天想研究什么？' }).waitFor();

  // Guard: a login-only page sends an anonymous visitor to login, carrying the full path.
  await page.goto(`${base}/cli/trajectories?file_id=7`, { waitUntil: 'networkidle' });
  check(new URL(page.url()).pathname === '/login', 'protected page redirects to login');
  check(new URL(page.url()).searchParams.get('redirect') === '/cli/trajectories?file_id=7', 'redirect query carries the full path');
  await page.getByRole('heading', { name: '登录 Scriptorium' }).waitFor();
  await shoot(page, 'login');

  // A link that is not (or no longer) there says the share has ended, with the way home.
  await page.goto(`${base}/share/report/abc`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: '这个分享已结束' }).waitFor();
  check(await page.getByRole('link', { name: '返回首页' }).isVisible(), 'the ended page offers the way home');
  await shoot(page, 'share-gone');

  await page.goto(`${base}/register`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: '创建账户' }).waitFor();
  await shoot(page, 'register');

  let registerCalls = 0;
  page.on('request', (request) => {
    if (request.url().includes('/backend/auth/register')) registerCalls += 1;
  });
  await page.getByLabel('用户名').fill('linwei');
  await page.getByLabel('昵称').fill('林蔚');
  await page.getByLabel('邮箱').fill('linwei@example.com');
  await page.getByLabel('密码', { exact: true }).fill('correct-horse-1');
  await page.getByLabel('确认密码').fill('correct-horse-2');
  await page.getByRole('button', { name: '注册', exact: true }).click();
  await page.getByText('两次输入的密码不一致').waitFor();
  check(registerCalls === 0, 'mismatched passwords are not sent');
  await shoot(page, 'register-mismatch');

  check(pageErrors.length === 0, `no page errors (${pageErrors.join('; ')})`);
  console.log(`shell e2e passed; screenshots in ${shots}`);
} finally {
  await browser.close();
}

/**
 * The research flow in a real browser, as a new user meets it: register, land on /research, send a
 * general-chat message (offline engine), watch it stream, reload mid-stream, share the conversation
 * and open the link signed out. Serves frontend/dist: run `npm run build` first.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import test from 'ava';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app.ts';

const shots = fileURLToPath(new URL('./screenshots/', import.meta.url));
const FIRST_LOAD_BUDGET_GZIP = 350 * 1024;
mkdirSync(shots, { recursive: true });

let app: TestApp;
let browser: Browser;

test.before(async () => {
  app = await startTestApp();
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
});

test.after.always(async () => {
  await browser?.close();
  await app?.stop();
});

const shoot = (page: Page, name: string) => page.screenshot({ path: `${shots}research-${name}.png` });

const QUESTION = '请介绍一下固态电池的主要技术路线';

test('a new user chats, reloads mid-stream, shares, and the link opens signed out', async (t) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));

  // First load of /research, all scripts gzipped as a server would send them.
  const scripts: Array<Promise<number>> = [];
  const collect = (response: import('playwright-core').Response) => {
    if (response.request().resourceType() === 'script') scripts.push(response.body().then((body) => gzipSync(body).length));
  };
  page.on('response', collect);
  await page.goto(`${app.url}/research`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: '今天想研究什么？' }).waitFor();
  page.off('response', collect);
  const firstLoad = (await Promise.all(scripts)).reduce((sum, size) => sum + size, 0);
  t.log(`first load of /research: ${(firstLoad / 1024).toFixed(1)} KB gzip of JS`);
  t.true(firstLoad < FIRST_LOAD_BUDGET_GZIP, 'first load within 350 KB gzip');
  t.true(await page.getByText('请登录后查看').isVisible(), 'history needs login');
  await shoot(page, 'anonymous');

  // Register from the sign-in link, then arrive back on research with a default session.
  const username = `reader${Date.now().toString(36)}`;
  await page.goto(`${app.url}/register`);
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('昵称').fill('读者');
  await page.getByLabel('邮箱').fill(`${username}@example.com`);
  await page.getByLabel('密码', { exact: true }).fill('correct-horse-1');
  await page.getByLabel('确认密码').fill('correct-horse-1');
  await page.getByRole('button', { name: '注册', exact: true }).click();
  await page.waitForURL(/\/research\?conversation_id=/, { timeout: 15_000 });
  await page.getByText('已连接').waitFor();
  await page.getByText('离线引擎').waitFor();
  const welcome = page.getByRole('button', { name: '知道了' });
  await welcome.waitFor();
  await shoot(page, 'welcome-tip');
  // Walk through the first-visit tips.
  while (await welcome.isVisible().catch(() => false)) {
    await welcome.click();
    await page.waitForTimeout(700);
  }

  // General chat (mode 0), then send.
  await page.getByRole('radio', { name: '通用对话' }).click();
  await page.waitForTimeout(300);
  await page.getByRole('textbox', { name: '输入消息' }).fill(QUESTION);
  await page.keyboard.press('Enter');
  await page.locator('.message-user .bubble', { hasText: QUESTION }).waitFor();
  await shoot(page, 'streaming');

  // Reload straight away: the session and the reply come back, whole and once.
  await page.reload();
  await page.locator('.message-user .bubble', { hasText: QUESTION }).waitFor({ timeout: 15_000 });
  const reply = page.locator('.message-assistant[data-status="completed"] .markdown').first();
  await reply.waitFor({ timeout: 20_000 });
  const replyText = await reply.innerText();
  t.true(replyText.includes('离线'), 'the offline engine answered');
  t.is(await page.locator('.message-user').count(), 1, 'the question is shown once');
  t.is(await page.locator('.message-assistant').count(), 1, 'one reply after the reload');
  const firstLine = replyText.split('\n')[0]!;
  t.is(replyText.split(firstLine).length - 1, 1, 'no doubled text after resuming');
  await shoot(page, 'restored');

  // English, then back.
  await page.getByRole('button', { name: 'English' }).click();
  await page.getByText('Connected').waitFor();
  await shoot(page, 'english');
  await page.getByRole('button', { name: '中文' }).click();

  // Share: dialog, link, copy.
  await page.getByRole('button', { name: '分享' }).click();
  const dialog = page.getByRole('dialog', { name: '分享会话' });
  await dialog.getByRole('button', { name: '创建分享链接' }).click();
  await dialog.getByText('分享链接创建成功').waitFor();
  const link = await dialog.getByRole('textbox', { name: '分享链接' }).inputValue();
  t.regex(link, /\/share\/conversation\/[\w-]+$/);
  await shoot(page, 'share-dialog');
  await dialog.getByRole('button', { name: '关闭' }).first().click();

  // Signed out, in a fresh browser: read-only, full-screen, sending disabled.
  const visitor = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  const shared = await visitor.newPage();
  shared.on('pageerror', (error) => pageErrors.push(error.message));
  await shared.goto(link, { waitUntil: 'networkidle' });
  await shared.locator('.message-user .bubble', { hasText: QUESTION }).waitFor();
  t.is(await shared.locator('aside.sidebar').count(), 0, 'no sidebar on a shared page');
  t.true(await shared.getByText('只读').isVisible());
  t.is(await shared.getByRole('textbox', { name: '输入消息' }).count(), 0, 'no input on a shared conversation');
  await shoot(shared, 'shared');

  await shared.goto(`${app.url}/share/conversation/no-such-share`, { waitUntil: 'networkidle' });
  await shared.getByRole('heading', { name: '分享不存在或已过期' }).waitFor();
  await shoot(shared, 'shared-missing');
  await visitor.close();

  // Sessions: a second one, switching updates the URL, and the last one cannot be closed.
  await page.getByRole('button', { name: '新会话' }).click();
  await page.waitForFunction((question) => !document.querySelector('.workspace-title')?.textContent?.includes(question), QUESTION);
  const secondUrl = page.url();
  await page.locator('.session-list:not(.cloud) .session-select', { hasText: QUESTION }).click();
  await page.waitForURL((url) => url.toString() !== secondUrl);
  t.is(await page.locator('.session-list:not(.cloud) .session-item').count(), 2);
  await shoot(page, 'sessions');

  t.deepEqual(pageErrors, []);
  await context.close();
});

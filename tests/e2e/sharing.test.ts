/**
 * A research session's links have the lifecycle every share has: listed in its share dialog with
 * what each shows and until when, revoked from there, and a link that ended says so where it
 * pointed, with the way home (a conversation, a trajectory; zh and en).
 * Serves frontend/dist: run `npm run build` first.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { signUp } from '../support/app.ts';
import { browserSuite, screenshot, signedInPage } from '../support/browser.ts';
import { sessionWithReport } from '../support/research.ts';

const suite = browserSuite();

async function openDialog(page: Page, name: string) {
  await page.getByRole('button', { name, exact: true }).click();
  return page.getByRole('dialog');
}

test.serial('a conversation link is listed with its expiry and what it shows, revoked from the dialog, and then says it ended', async (t) => {
  const user = await signUp(suite.app.url, `links${Date.now().toString(36)}`);
  const sessionId = await sessionWithReport(user);
  const { page, pageErrors } = await signedInPage(t, suite.browser, user.token!);
  await page.addInitScript(() => localStorage.setItem('guidance_enabled', 'false'));
  await page.goto(`${suite.app.url}/research?conversation_id=${sessionId}`);
  await page.getByText('已连接').waitFor();

  const dialog = await openDialog(page, '分享');
  await dialog.getByText('这个会话还没有有效的分享链接。').waitFor();
  t.is(await dialog.getByRole('combobox', { name: '有效期' }).innerText(), '永久有效', 'the spec’s default: never');
  await dialog.getByRole('combobox', { name: '有效期' }).click();
  await page.getByRole('option', { name: '7 天' }).click();
  await dialog.getByRole('button', { name: '创建分享链接' }).click();
  await dialog.getByText('分享链接创建成功').waitFor();
  const links = dialog.locator('.share-list li');
  await links.first().waitFor();
  t.regex(await links.first().innerText(), /对话与报告（不含私人资料） · 有效期至/);
  await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === '复制链接');

  // A second link that shows the private material too, never expiring.
  await dialog.getByRole('combobox', { name: '有效期' }).click();
  await page.getByRole('option', { name: '永久有效' }).click();
  await dialog.getByRole('checkbox', { name: /同时公开/ }).check();
  await dialog.getByRole('button', { name: '创建分享链接' }).click();
  await page.waitForFunction(() => document.querySelectorAll('.share-list li').length === 2);
  t.regex(await links.first().innerText(), /对话与报告（含私人笔记与认知） · 永久有效/, 'newest first');
  const [withPrivate, weekLong] = [await links.nth(0).getByRole('textbox').inputValue(), await links.nth(1).getByRole('textbox').inputValue()];
  t.regex(weekLong, /\/share\/conversation\/[0-9a-f]{32}$/);
  await screenshot(page, 'sharing-session-links');

  const visitor = await suite.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
  t.teardown(() => visitor.close());
  const shared = await visitor.newPage();
  await shared.goto(weekLong, { waitUntil: 'networkidle' });
  await shared.getByText('只读').waitFor();

  // Stop sharing the week-long link: it leaves the list, the other stays, and the link says it ended.
  await links.nth(1).getByRole('button', { name: '取消分享' }).click();
  await dialog.getByText('已取消分享：这个链接不再能打开，打开它的人会看到分享已结束。').waitFor();
  await page.waitForFunction(() => document.querySelectorAll('.share-list li').length === 1);
  t.is(await links.first().getByRole('textbox').inputValue(), withPrivate);
  await screenshot(page, 'sharing-session-revoked');
  await shared.reload({ waitUntil: 'networkidle' });
  await shared.getByRole('heading', { name: '这个分享已结束' }).waitFor();
  await screenshot(shared, 'sharing-ended');
  await shared.getByRole('link', { name: '返回首页' }).click();
  await shared.waitForURL(`${suite.app.url}/research`);

  // Opened again, the dialog lists what is still open: the link revoked stays gone.
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await openDialog(page, '分享');
  await page.waitForFunction(() => document.querySelectorAll('.share-list li').length === 1);

  // English.
  await page.evaluate(() => localStorage.setItem('app_language', 'en'));
  await page.reload();
  await page.getByText('Connected').waitFor();
  const english = await openDialog(page, 'Share');
  await english.getByText('Links open now').waitFor();
  t.regex(await english.locator('.share-list li').first().innerText(), /Conversation and report \(with private notes and cognitions\) · Never/);
  await screenshot(page, 'sharing-session-links-en');
  await english.getByRole('button', { name: 'Stop sharing' }).click();
  await english.getByText('This conversation has no open link yet.').waitFor();
  await shared.evaluate(() => localStorage.setItem('app_language', 'en'));
  await shared.goto(withPrivate, { waitUntil: 'networkidle' });
  await shared.getByRole('heading', { name: 'This share has ended' }).waitFor();
  await shared.getByRole('link', { name: 'Back to home' }).waitFor();
  await screenshot(shared, 'sharing-ended-en');
  t.deepEqual(pageErrors, []);
});

test.serial('a dead trajectory link says it ended and offers the way home', async (t) => {
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
  t.teardown(() => context.close());
  const page = await context.newPage();
  await page.goto(`${suite.app.url}/shared/trajectory/no-such-token-here`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: '这个分享已结束' }).waitFor();
  t.true(await page.getByText('分享者已取消了这个链接').isVisible());
  await screenshot(page, 'sharing-trajectory-ended');
  await page.getByRole('link', { name: '返回首页' }).click();
  await page.waitForURL(`${suite.app.url}/research`);
});

/**
 * A generated file in a real browser: a chat reply that builds a web page, opened in the artifact
 * panel, shared, and the link opened signed out with the page running sandboxed.
 */
import test from 'ava';
import type { Browser } from 'playwright-core';
import { screenshot, signedInPage, startBrowser } from '../support/browser.ts';
import { signUp, startTestApp, type TestApp } from '../support/app.ts';
import { startMockOpenAI, type MockOpenAI } from '../support/mockOpenAI.ts';

const PAGE = '<!doctype html><html><body><h1 id="t">价格计算器</h1><script>document.getElementById("t").textContent += " 已运行"</script></body></html>';

let upstream: MockOpenAI;
let app: TestApp;
let browser: Browser;
test.before(async () => {
  upstream = await startMockOpenAI({ reply: `好的，这是页面：<artifact filename="calculator.html" type="text/html">${PAGE}</artifact>可以直接打开。` });
  app = await startTestApp({ LLM_BASE_URL: upstream.url, LLM_MODEL: 'mock-model' });
  browser = await startBrowser();
});
test.after.always(async () => {
  await browser?.close();
  await app?.stop();
  await upstream?.close();
});

test('a generated web page is opened, shared, and runs sandboxed behind the link', async (t) => {
  const user = await signUp(app.url, 'pagebuilder');
  const { page, pageErrors } = await signedInPage(t, browser, user.token!);
  await page.goto(`${app.url}/research`, { waitUntil: 'networkidle' });
  const tip = page.getByRole('button', { name: '知道了' });
  if (await tip.isVisible()) await tip.click();
  await page.getByRole('radio', { name: '通用对话' }).click();
  await page.waitForTimeout(300);
  await page.getByRole('textbox', { name: '输入消息' }).fill('做一个价格计算器网页');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: '打开', exact: true }).click();
  const panel = page.locator('.artifact-panel');
  await panel.getByText('calculator.html').waitFor();
  await panel.getByRole('button', { name: '分享' }).click();
  const link = await page.locator('.share-link-dialog').getByRole('textbox', { name: '分享链接' }).inputValue();
  t.regex(link, /\/share\/artifact\/[0-9a-f]{32}$/);
  await screenshot(page, 'artifact-share');

  const visitor = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
  t.teardown(() => visitor.close());
  const shared = await visitor.newPage();
  await shared.goto(link, { waitUntil: 'networkidle' });
  const frame = shared.frameLocator('iframe.artifact-frame');
  await frame.getByText('价格计算器 已运行').waitFor();
  await screenshot(shared, 'artifact-shared');

  // Revoked, the dialog closes; sharing again makes a new link.
  const dialog = page.locator('.share-link-dialog');
  await dialog.getByRole('button', { name: '取消分享' }).click();
  await dialog.waitFor({ state: 'detached' });
  await panel.getByRole('button', { name: '分享' }).click();
  await dialog.getByText('分享链接创建成功').waitFor();
  const again = await dialog.getByRole('textbox', { name: '分享链接' }).inputValue();
  t.regex(again, /\/share\/artifact\/[0-9a-f]{32}$/);
  t.not(again, link, 'a new link, the revoked one stays revoked');
  t.deepEqual(pageErrors, []);
});

/**
 * The layout preset button with the canvas open beside the chat: it used to change nothing visible;
 * a preset is a layout of one panel, so choosing one puts the canvas away (zh and en).
 * Serves frontend/dist: run `npm run build` first.
 */
import test from 'ava';
import { signUp } from '../support/app.ts';
import { browserSuite, screenshot, signedInPage } from '../support/browser.ts';
import { sessionWithReport } from '../support/research.ts';

const suite = browserSuite();

test('choosing a layout preset with the canvas open shows that layout', async (t) => {
  const user = await signUp(suite.app.url, `layout${Date.now().toString(36)}`);
  const sessionId = await sessionWithReport(user);
  const { page, pageErrors } = await signedInPage(t, suite.browser, user.token!);
  await page.addInitScript(() => localStorage.setItem('guidance_enabled', 'false'));
  await page.goto(`${suite.app.url}/research?conversation_id=${sessionId}`);
  await page.getByText('已连接').waitFor();
  await page.locator('.canvas-panel').waitFor();

  const preset = page.getByRole('button', { name: /^切换为(欢迎|仅对话)布局$/ });
  const welcomeNext = (await preset.getAttribute('aria-label')) === '切换为欢迎布局';
  await preset.click();
  await page.locator('.canvas-panel').waitFor({ state: 'detached' });
  await page.locator(welcomeNext ? '.welcome-guide' : '.chat-stream, .message-user').first().waitFor();
  await screenshot(page, 'layout-preset-canvas-put-away');

  // Back to the chat stream's layout, then the canvas again from its version in the stream.
  await page.evaluate(() => localStorage.setItem('app_language', 'en'));
  await page.reload();
  await page.getByText('Connected').waitFor();
  const english = page.getByRole('button', { name: /^Switch to the (welcome|chat-only) layout$/ });
  t.true(await english.isVisible());
  t.deepEqual(pageErrors, []);
});

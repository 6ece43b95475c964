/**
 * A targeted edit refused because the budget is spent keeps the instruction typed, with its reason
 * and "send again": once an admin raises the limit, sending it again makes the edit (zh and en).
 * Serves frontend/dist: run `npm run build` first.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { signInAdmin, signUp, startTestApp, type Client } from '../support/app.ts';
import { browserSuite, screenshot, selectInCanvas, signedInPage } from '../support/browser.ts';
import { sessionWithReport } from '../support/research.ts';

const suite = browserSuite(() => startTestApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password' }));

/** A plain run of text in the report, found once in it, to select. */
async function passage(user: Client, sessionId: string): Promise<string> {
  const content: string = (await user.request('GET', `/backend/conversation/research/${sessionId}/canvas`)).body.versions.at(-1).content;
  const found = content
    .split('\n')
    .filter((line) => !/^\s*(#|>|[-*]|\d+\.)/.test(line))
    .flatMap((line) => line.match(/[^。！？，,.[\]*_`()（）]{8,}/g) ?? [])
    .find((candidate) => content.split(candidate).length === 2);
  if (!found) throw new Error('no plain passage in the report');
  return found.trim();
}

async function refusedEdit(page: Page, text: string, instruction: string) {
  await selectInCanvas(page, text);
  const popover = page.locator('form.edit-popover');
  await popover.waitFor();
  await popover.getByRole('textbox').fill(instruction);
  await popover.getByRole('textbox').press('Enter');
  const refused = page.locator('.edit-refused');
  await refused.waitFor();
  return refused;
}

test('a targeted edit refused for budget keeps its instruction and is sent again once the budget allows', async (t) => {
  const admin = await signInAdmin(suite.app.url, { username: 'root', password: 'root-password' });
  const user = await signUp(suite.app.url, `edits${Date.now().toString(36)}`);
  const sessionId = await sessionWithReport(user);
  const text = await passage(user, sessionId);
  const limit = (tokens: number) => admin.request('PUT', `/backend/auth/admin/users/${user.userId}/token-limit`, { token_level_limit: tokens });
  t.is((await limit(0)).status, 200);

  const { page, pageErrors } = await signedInPage(t, suite.browser, user.token!);
  await page.addInitScript(() => localStorage.setItem('guidance_enabled', 'false'));
  await page.goto(`${suite.app.url}/research?conversation_id=${sessionId}`);
  await page.getByText('已连接').waitFor();
  await page.locator('.canvas-doc .ProseMirror').waitFor();

  const refused = await refusedEdit(page, text, '加粗');
  t.regex(await refused.innerText(), /修改未完成：.*Token/);
  t.is(await refused.locator('q').innerText(), '加粗', 'the instruction typed is kept');
  await screenshot(page, 'editing-refused-budget');

  t.is((await limit(1_000_000)).status, 200);
  await refused.getByRole('button', { name: '再次发送' }).click();
  await refused.waitFor({ state: 'detached' });
  await page.waitForFunction(() => document.querySelector('.version-select')?.textContent?.includes('v2'));
  await page.locator('.card.targeted-edit').waitFor();
  await screenshot(page, 'editing-sent-again');

  // English: the same refusal, dropped this time.
  t.is((await limit(0)).status, 200);
  await page.evaluate(() => localStorage.setItem('app_language', 'en'));
  await page.reload();
  await page.getByText('Connected').waitFor();
  await page.locator('.canvas-doc .ProseMirror').waitFor();
  const english = await refusedEdit(page, text, 'Make it shorter');
  t.is(await english.locator('q').innerText(), 'Make it shorter');
  t.true(await english.getByRole('button', { name: 'Send again' }).isVisible());
  await screenshot(page, 'editing-refused-budget-en');
  await english.getByRole('button', { name: 'Drop this edit' }).click();
  await english.waitFor({ state: 'detached' });
  t.deepEqual(pageErrors, []);
});

/**
 * First-visit tips as a new user meets them: the welcome tip on the welcome screen, gone (and counted
 * as seen) once the first question turns the screen into a conversation, and no tip over the open
 * "report written, what next?" question. Serves frontend/dist: run `npm run build` first.
 */
import test from 'ava';
import { signUp } from '../support/app.ts';
import { browserSuite, screenshot, signedInPage } from '../support/browser.ts';

const suite = browserSuite();

test('the welcome tip leaves with the welcome screen, and no tip covers the question after a report', async (t) => {
  const user = await signUp(suite.app.url, 'tipreader');
  const { page, pageErrors } = await signedInPage(t, suite.browser, user.token!);
  await page.goto(`${suite.app.url}/research`, { waitUntil: 'networkidle' });

  const welcome = page.getByRole('dialog', { name: '欢迎来到 Scriptorium' });
  await welcome.waitFor();
  await screenshot(page, 'guidance-welcome');

  await page.getByRole('textbox', { name: '输入消息' }).fill('固态电池的安全性比液态锂电池好在哪里？');
  await page.keyboard.press('Enter');
  await page.locator('.welcome-guide').waitFor({ state: 'detached' });
  await welcome.waitFor({ state: 'detached' });
  t.deepEqual(await page.evaluate(() => JSON.parse(localStorage.getItem('guidance_seen') ?? '[]')), ['welcome'], 'counted as seen: a new session does not greet again');

  await page.getByRole('radio', { name: '全球' }).click();
  await page.getByRole('button', { name: '提交回答' }).click();
  await page.locator('.card.feedback').waitFor();
  await page.waitForTimeout(1_500);
  const question = (await page.locator('.card.feedback').boundingBox())!;
  for (const tip of await page.locator('.guidance').all()) {
    if (!(await tip.isVisible())) continue;
    const box = (await tip.boundingBox())!;
    const apart = box.x + box.width <= question.x || question.x + question.width <= box.x || box.y + box.height <= question.y || question.y + question.height <= box.y;
    t.true(apart, 'a tip shown beside the open question, never on it');
  }
  await screenshot(page, 'guidance-after-report');

  await page.reload({ waitUntil: 'networkidle' });
  await page.getByRole('button', { name: '新会话' }).click();
  await page.locator('.welcome-guide').waitFor();
  await page.waitForTimeout(1_500);
  t.false(await welcome.isVisible(), 'the welcome tip is not shown a second time');
  t.deepEqual(pageErrors, []);
});

for (const language of ['zh', 'en'] as const) {
  test(`the reports-and-files tip shows while the composer holds the focus the app gave it (${language})`, async (t) => {
    const user = await signUp(suite.app.url, `tipfocus${language}`);
    const { page, pageErrors } = await signedInPage(t, suite.browser, user.token!);
    await page.addInitScript((lang) => {
      localStorage.setItem('app_language', lang);
      localStorage.setItem('guidance_seen', '["welcome","inputMode","sessions"]');
    }, language);
    await page.goto(`${suite.app.url}/research`, { waitUntil: 'networkidle' });
    const en = language === 'en';
    const composer = page.getByRole('textbox', { name: en ? 'Message' : '输入消息' });
    await composer.fill(en ? 'Why are solid-state batteries safer than liquid lithium ones?' : '固态电池的安全性比液态锂电池好在哪里？');
    await page.keyboard.press('Enter');
    await page.locator('form.clarification').getByRole('radio').first().click();
    await page.getByRole('button', { name: en ? 'Submit answers' : '提交回答' }).click();
    await page.locator('.card.feedback').waitFor();

    const tip = page.getByRole('dialog', { name: en ? 'Reports and files' : '报告与文件' });
    await tip.waitFor();
    t.true(await composer.evaluate((element) => element === document.activeElement), 'the composer has the focus the new layout handed it');
    await screenshot(page, `guidance-artifacts-${language}`);

    await composer.pressSequentially('x');
    await tip.waitFor({ state: 'detached' });
    t.false(await composer.evaluate((element) => element.hasAttribute('data-focus-from-app')), 'typing makes the focus the user’s: the tip steps aside');
    t.deepEqual(pageErrors, []);
  });
}

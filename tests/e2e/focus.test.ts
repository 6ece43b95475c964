/**
 * The research view from the keyboard, where a walk lost its way: Escape puts a first-visit tip away;
 * each clarification question is one Tab stop for its options (arrows inside) and one for its own
 * answer; when the report arrives and the canvas opens, the focus goes to the composer, not to the
 * page's start (zh and en). Serves frontend/dist: run `npm run build` first.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { signUp } from '../support/app.ts';
import { browserSuite, screenshot, signedInPage } from '../support/browser.ts';

const suite = browserSuite();

/** What has focus: its role or tag, and its name or text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'body';
    return `${element.getAttribute('role') ?? element.tagName.toLowerCase()}:${element.getAttribute('aria-label') ?? element.textContent?.trim() ?? ''}`;
  });

test.serial('Escape puts a tip away; a clarification question is two Tab stops; the report arriving leaves the focus in the composer', async (t) => {
  const user = await signUp(suite.app.url, `focus${Date.now().toString(36)}`);
  const { page, pageErrors } = await signedInPage(t, suite.browser, user.token!);
  await page.goto(`${suite.app.url}/research`, { waitUntil: 'networkidle' });
  const welcome = page.getByRole('dialog', { name: '欢迎来到 Scriptorium' });
  await welcome.waitFor();
  await page.keyboard.press('Escape');
  await welcome.waitFor({ state: 'detached' });
  t.deepEqual(await page.evaluate(() => JSON.parse(localStorage.getItem('guidance_seen') ?? '[]')), ['welcome'], 'put away as "got it" is');

  // Tips from here on would only come and go over what this test looks at.
  await page.evaluate(() => localStorage.setItem('guidance_enabled', 'false'));
  await page.waitForURL(/conversation_id=/);
  await page.getByText('已连接').waitFor();
  const composer = page.getByRole('textbox', { name: '输入消息' });
  await composer.fill('固态电池的安全性比液态锂电池好在哪里？');
  await composer.press('Enter');
  const form = page.locator('form.clarification');
  await form.waitFor();
  const questions = await form.locator('fieldset').count();
  t.true(questions >= 2, 'several questions');

  // The first question's options: the arrows move among them, Space chooses.
  const first = form.locator('fieldset').first().locator('button.option');
  await first.first().focus();
  // Held as a hand holds a key: Radix moves the focus a task after the keydown.
  await page.keyboard.down('ArrowRight');
  await page.waitForTimeout(50);
  await page.keyboard.up('ArrowRight');
  const second = first.nth(1);
  t.true(await second.evaluate((element) => element === document.activeElement), 'the arrow moved to the next option');
  await page.keyboard.press('Space');
  // One answer: a radio; several: a toggle button.
  t.is(await second.getAttribute((await second.getAttribute('role')) === 'radio' ? 'aria-checked' : 'aria-pressed'), 'true');
  await screenshot(page, 'focus-clarification');

  // Tab walks one stop per option group and one per answer box, to the submit button.
  const stops: string[] = [];
  for (let presses = 0; presses < 40; presses++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    stops.push(now);
    if (now.startsWith('button:') && now.includes('提交回答')) break;
  }
  // From the first question's options: its answer box, then each later question's options (when it
  // has any) and answer box, then the submit button.
  let expected = 2;
  for (let index = 1; index < questions; index++) expected += (await form.locator('fieldset').nth(index).locator('.options').count()) + 1;
  t.is(stops.length, expected, `one stop for the options and one for the answer, per question: ${stops.join(' | ')}`);
  t.true(expected < (await form.locator('button.option').count()) + questions, 'fewer stops than one per option');

  await page.keyboard.press('Enter');
  await page.locator('.card.clarification.done').waitFor();
  await page.locator('.canvas-doc .ProseMirror').waitFor();
  await page.locator('.card.feedback').waitFor();
  await page.waitForFunction(() => document.activeElement !== document.body, undefined, { timeout: 5_000 }).catch(() => undefined);
  t.is(await focused(page), 'textarea:输入消息', 'the report opened the canvas and the focus went to the composer');
  await screenshot(page, 'focus-after-report');
  t.deepEqual(pageErrors, []);
});

test.serial('in English too, Escape puts the welcome tip away', async (t) => {
  const user = await signUp(suite.app.url, `focusen${Date.now().toString(36)}`);
  const { page } = await signedInPage(t, suite.browser, user.token!);
  await page.addInitScript(() => localStorage.setItem('app_language', 'en'));
  await page.goto(`${suite.app.url}/research`, { waitUntil: 'networkidle' });
  const welcome = page.getByRole('dialog', { name: 'Welcome to Scriptorium' });
  await welcome.waitFor();
  await screenshot(page, 'focus-tip-en');
  await page.keyboard.press('Escape');
  await welcome.waitFor({ state: 'detached' });
  t.pass();
});

/**
 * The research view from the keyboard alone, where a walk found focus lost or keys ignored: a
 * dialog gives focus back to what opened it and a created link takes the focus of the button that
 * made it; the first message keeps focus in the composer across the layout change; the mode choice
 * answers the arrow keys; the canvas is a named text box; a session rename ends where it began.
 * Serves frontend/dist: run `npm run build` first.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { signUp, type Client } from '../support/app.ts';
import { browserSuite, screenshot, signedInPage } from '../support/browser.ts';
import { sessionWithReport } from '../support/research.ts';

const suite = browserSuite();

async function research(t: Parameters<typeof signedInPage>[0], user: Client, sessionId?: string) {
  const opened = await signedInPage(t, suite.browser, user.token!);
  await opened.page.addInitScript(() => localStorage.setItem('guidance_enabled', 'false'));
  await opened.page.goto(`${suite.app.url}/research${sessionId ? `?conversation_id=${sessionId}` : ''}`);
  await opened.page.waitForURL(/conversation_id=/);
  await opened.page.getByText('已连接').waitFor();
  return opened;
}

/** What has focus, as the accessibility tree names it: its role and name, or "body". */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'body';
    const name = element.getAttribute('aria-label') ?? element.textContent?.trim() ?? '';
    return `${element.getAttribute('role') ?? element.tagName.toLowerCase()}:${name}`;
  });

test.serial('a dialog gives focus back to the button that opened it, and a created link takes the focus of the button that made it', async (t) => {
  const user = await signUp(suite.app.url, `keys${Date.now().toString(36)}`);
  const { page, pageErrors } = await research(t, user, await sessionWithReport(user));
  const share = page.getByRole('button', { name: '分享', exact: true });
  await share.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('dialog', { name: '分享会话' }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await page.waitForFunction(() => document.activeElement !== document.body, undefined, { timeout: 2_000 }).catch(() => undefined);
  t.is(await focused(page), 'button:分享');

  await page.keyboard.press('Enter');
  const create = page.getByRole('button', { name: '创建分享链接' });
  await create.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('textbox', { name: '分享链接' }).waitFor();
  await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === '复制链接');
  t.is(await focused(page), 'button:复制链接');
  await screenshot(page, 'keyboard-share-created');
  await page.getByRole('button', { name: '关闭' }).last().press('Enter');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await page.waitForFunction(() => document.activeElement !== document.body, undefined, { timeout: 2_000 }).catch(() => undefined);
  t.is(await focused(page), 'button:分享');
  t.deepEqual(pageErrors, []);
});

test.serial('the first message keeps focus in the composer, the mode choice follows the arrow keys, and the canvas is a named text box', async (t) => {
  const user = await signUp(suite.app.url, `first${Date.now().toString(36)}`);
  const { page, pageErrors } = await research(t, user);
  const modes = page.getByRole('radiogroup', { name: '协作模式' });
  const research_ = modes.getByRole('radio', { name: '深度研究' });
  const chat = modes.getByRole('radio', { name: '通用对话' });
  const checked = (name: string) =>
    page.waitForFunction((label) => document.querySelector('[role="radiogroup"][aria-label="协作模式"] [role="radio"][aria-checked="true"]')?.textContent?.includes(label) ?? false, name);
  // The choice waits for the session to be restored.
  await page.waitForFunction(() => document.querySelector('[role="radiogroup"][aria-label="协作模式"] [role="radio"]:not([disabled])') !== null);
  // Held as a hand holds a key: Radix moves the focus a task after the keydown and checks the radio
  // it lands on only while the arrow is still down, so the key goes up once the focus has moved (a
  // fixed hold let the keyup in first on a loaded machine).
  const arrow = async (key: 'ArrowLeft' | 'ArrowRight') => {
    const from = await page.evaluateHandle(() => document.activeElement);
    await page.keyboard.down(key);
    await page.waitForFunction((element) => document.activeElement !== element, from);
    await page.keyboard.up(key);
  };
  await research_.focus();
  await arrow('ArrowRight');
  await checked('通用对话');
  t.is(await focused(page), 'radio:通用对话');
  await arrow('ArrowLeft');
  await checked('深度研究');
  t.is(await chat.getAttribute('tabindex'), '-1', 'the group is one Tab stop');

  const composer = page.getByRole('textbox', { name: '输入消息' });
  await composer.focus();
  await page.keyboard.type('固态电池的商业化进展如何？');
  await page.keyboard.press('Enter');
  await page.locator('.message-user').first().waitFor();
  await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === '输入消息');
  t.is(await focused(page), 'textarea:输入消息');

  await page.goto(`${suite.app.url}/research?conversation_id=${await sessionWithReport(user)}`);
  const canvas = page.getByRole('textbox', { name: '报告正文' });
  await canvas.waitFor();
  t.is(await canvas.getAttribute('aria-multiline'), 'true');
  t.deepEqual(pageErrors, []);
});

test.serial('a session rename ended with Escape keeps the name and gives focus back to the rename button; Enter renames once', async (t) => {
  const user = await signUp(suite.app.url, `rename${Date.now().toString(36)}`);
  const { page, pageErrors } = await research(t, user, await sessionWithReport(user));
  const renames: unknown[] = [];
  page.on('request', (request) => request.method() === 'PUT' && request.url().endsWith('/title') && renames.push(request.url()));
  const row = page.locator('.session-list .session-item').first();
  const before = await row.locator('.session-label').innerText();
  const rename = row.getByRole('button', { name: '重命名' });
  await rename.focus();
  await page.keyboard.press('Enter');
  const field = row.getByRole('textbox', { name: '重命名' });
  await field.waitFor();
  t.is(await field.evaluate((input: HTMLInputElement) => input.selectionEnd! - input.selectionStart!), before.length, 'the old name is selected');
  await page.keyboard.type('改过的名字');
  await page.keyboard.press('Escape');
  await field.waitFor({ state: 'detached' });
  t.is(await row.locator('.session-label').innerText(), before);
  t.is(await focused(page), 'button:重命名');

  await page.keyboard.press('Enter');
  await field.waitFor();
  await page.keyboard.type('新名字');
  await page.keyboard.press('Enter');
  await row.locator('.session-label', { hasText: '新名字' }).waitFor();
  t.is(await focused(page), 'button:重命名');
  await page.waitForTimeout(300);
  t.is(renames.length, 1, 'Escape renamed nothing, Enter renamed once');
  t.deepEqual(pageErrors, []);
});

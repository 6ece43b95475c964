/**
 * The research view's state defects, each as a user meets it in a real browser: the signed-out page
 * at once, renaming, sessions after a reload, the layout, version switching with unsaved edits,
 * targeted edits of repeated text, voice input without a recogniser, and running out of budget.
 * Serves frontend/dist: run `npm run build` first.
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { signInAdmin, signUp, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { beforeTheServerAnswers, screenshot, selectInCanvas, signedInPage, startBrowser } from '../support/browser.ts';
import { sessionWithReport } from '../support/research.ts';

let app: TestApp;
let browser: Browser;
let admin: Client;

test.before(async () => {
  app = await startTestApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password' });
  admin = await signInAdmin(app.url);
  browser = await startBrowser();
});

test.after.always(async () => {
  await browser?.close();
  await app?.stop();
});


/** Picks a canvas version from the version list, as a user does. */
async function chooseVersion(page: Page, version: number): Promise<void> {
  await page.getByRole('combobox', { name: '版本' }).click();
  await page.getByRole('option', { name: new RegExp(`^v${version} `) }).click();
}
const shownVersion = async (page: Page) => (await page.locator('.version-select').innerText()).match(/v(\d+)/)?.[1];
const sessionIdOf = (page: Page) => new URL(page.url()).searchParams.get('conversation_id')!;

/** A signed-in page on /research with its default session and the first-visit tips switched off. */
async function research(t: Parameters<typeof signedInPage>[0], user: Client) {
  const opened = await signedInPage(t, browser, user.token!);
  await opened.page.addInitScript(() => localStorage.setItem('guidance_enabled', 'false'));
  await opened.page.goto(`${app.url}/research`);
  await opened.page.waitForURL(/conversation_id=/);
  await opened.page.getByText('已连接').waitFor();
  return opened;
}

/** A signed-in research page showing a session whose canvas holds a report, at the given size. */
async function reportPage(t: Parameters<typeof signedInPage>[0], name: string, viewport?: { width: number; height: number }) {
  const user = await signUp(app.url, `${name}${Date.now().toString(36)}`);
  const id = await sessionWithReport(user);
  const opened = await research(t, user);
  if (viewport) await opened.page.setViewportSize(viewport);
  await opened.page.goto(`${app.url}/research?conversation_id=${id}`);
  return { ...opened, id };
}

test.serial('signed out, /research shows its welcome content; the time it took is logged (the figure lives in the Lighthouse bench)', async (t) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  t.teardown(() => context.close());
  const page = await context.newPage();
  // Warm the server's and the browser's caches, then measure a plain visit.
  await page.goto(`${app.url}/research`, { waitUntil: 'networkidle' });
  const started = Date.now();
  await page.goto(`${app.url}/research`);
  await page.getByRole('heading', { name: '今天想研究什么？' }).waitFor();
  const elapsed = Date.now() - started;
  t.log(`signed-out /research shown after ${elapsed} ms`);
  t.true(await page.getByRole('textbox', { name: '输入消息' }).isVisible(), 'the composer is there with the welcome');
});

test.serial('a rename shows at once in the sidebar and the header, and after a reload', async (t) => {
  const user = await signUp(app.url, `namer${Date.now().toString(36)}`);
  const { page, pageErrors } = await research(t, user);
  const row = page.locator('.session-list:not(.cloud) .session-item').first();
  await row.getByRole('button', { name: '重命名' }).click();
  await row.getByRole('textbox', { name: '重命名' }).fill('电池安全综述');
  await beforeTheServerAnswers(page, { method: 'PUT', pathEnd: '/title' }, async () => {
    await page.keyboard.press('Enter');
    await page.locator('.workspace-title', { hasText: '电池安全综述' }).waitFor();
    await row.locator('.session-label', { hasText: '电池安全综述' }).waitFor();
  });
  await screenshot(page, 'state-renamed');
  await page.reload();
  await page.locator('.workspace-title', { hasText: '电池安全综述' }).waitFor();
  t.is(await page.locator('.session-list:not(.cloud) .session-label').first().innerText(), '电池安全综述');
  t.deepEqual(pageErrors, []);
});

test.serial('after a reload every open session is open again, and reloads make no empty sessions', async (t) => {
  const user = await signUp(app.url, `keeper${Date.now().toString(36)}`);
  const { page, pageErrors } = await research(t, user);
  const first = sessionIdOf(page);
  await page.getByRole('button', { name: '新会话' }).click();
  await page.waitForURL((url) => url.searchParams.get('conversation_id') !== first);
  const second = sessionIdOf(page);
  const open = page.locator('.session-list:not(.cloud) .session-item');
  t.is(await open.count(), 2);
  for (let reload = 0; reload < 3; reload++) {
    await page.reload();
    await page.getByText('已连接').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('.session-list:not(.cloud) .session-item:not(.restoring)').length === 2);
  }
  t.is(sessionIdOf(page), second, 'the session shown before is shown again');
  const { total } = (await user.request('GET', '/backend/conversation/api/chats/my?skip=0&limit=100')).body;
  t.is(total, 2, 'only the two sessions the user made');
  await screenshot(page, 'state-sessions-restored');
  t.deepEqual(pageErrors, []);
});

test.serial('presets change the layout, and an unlocked panel can be dragged to a drop zone', async (t) => {
  const user = await signUp(app.url, `docker${Date.now().toString(36)}`);
  const { page, pageErrors } = await research(t, user);
  const welcome = page.getByRole('heading', { name: '今天想研究什么？' });
  await welcome.waitFor();
  await page.getByRole('button', { name: '切换为仅对话布局' }).click();
  await welcome.waitFor({ state: 'detached' });
  await page.locator('.chat-stream').waitFor();
  await screenshot(page, 'state-preset-chat');
  await page.getByRole('button', { name: '切换为欢迎布局' }).click();
  await welcome.waitFor();

  // Notes beside the chat, then unlock and drag the notes panel's tab to the left drop zone.
  await page.getByRole('button', { name: '切换为仅对话布局' }).click();
  await page.getByRole('button', { name: '笔记面板' }).click();
  await page.getByRole('button', { name: '解锁布局（可拖动面板）' }).click();
  const tab = page.locator('.lm_tab', { hasText: '笔记' });
  await tab.waitFor();
  const before = (await page.locator('.lm_stack', { has: tab }).boundingBox())!;
  const layout = (await page.locator('.workspace-layout').boundingBox())!;
  const tabBox = (await tab.boundingBox())!;
  await page.mouse.move(tabBox.x + tabBox.width / 2, tabBox.y + tabBox.height / 2);
  await page.mouse.down();
  await page.mouse.move(tabBox.x + 40, tabBox.y + 40, { steps: 5 });
  await page.mouse.move(layout.x + 30, layout.y + layout.height / 2, { steps: 10 });
  await screenshot(page, 'state-drag-zone');
  await page.mouse.up();
  const after = (await page.locator('.lm_stack', { has: page.locator('.lm_tab', { hasText: '笔记' }) }).boundingBox())!;
  t.true(after.x < before.x, `the notes panel moved to the left (${before.x} → ${after.x})`);
  await screenshot(page, 'state-dragged');
  t.deepEqual(pageErrors, []);
});

test.serial('switching version with unsaved edits asks; a targeted edit changes the occurrence selected', async (t) => {
  const user = await signUp(app.url, `editor${Date.now().toString(36)}`);
  const id = await sessionWithReport(user);
  const v1 = (await user.request('GET', `/backend/conversation/research/${id}/canvas`)).body.versions[0];
  const twice = '固态电池的安全性更好。';
  const v2content = `${v1.content.trimEnd()}\n\n${twice}\n\n- 要点：${twice}\n`;
  t.is((await user.request('PUT', `/backend/conversation/research/${id}/canvas`, { content: v2content, from_version: 1 })).status, 200);

  const { page, pageErrors } = await signedInPage(t, browser, user.token!);
  await page.addInitScript(() => localStorage.setItem('guidance_enabled', 'false'));
  const requests: string[] = [];
  page.on('request', (request) => requests.push(new URL(request.url()).pathname));
  await page.goto(`${app.url}/research?conversation_id=${id}`);
  const doc = page.locator('.canvas-doc .ProseMirror');
  await doc.waitFor();
  await page.waitForFunction(() => document.querySelector('.version-select')?.textContent?.includes('v2'));

  // Hand edits, then another version: the page asks first.
  await doc.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('（草稿）');
  await chooseVersion(page, 1);
  const ask = page.getByRole('alertdialog');
  await ask.waitFor();
  await screenshot(page, 'state-switch-ask');
  await ask.getByRole('button', { name: '取消' }).click();
  t.is(await shownVersion(page), '2', 'cancel stays on the edited version');
  t.true((await doc.innerText()).includes('（草稿）'), 'with the edits');
  await chooseVersion(page, 1);
  await ask.getByRole('button', { name: '放弃修改并切换' }).click();
  t.is(await shownVersion(page), '1');
  t.false((await doc.innerText()).includes('（草稿）'));
  await chooseVersion(page, 2);

  // Select the second of two equal sentences and edit it.
  await selectInCanvas(page, twice, { last: true });
  const popover = page.locator('form.edit-popover');
  await popover.getByRole('textbox').fill('把“安全性”改为“热稳定性”');
  await popover.getByRole('button', { name: '修改' }).click();
  await page.waitForFunction(() => document.querySelector('.version-select')?.textContent?.includes('v3'), undefined);
  const v3 = (await user.request('GET', `/backend/conversation/research/${id}/canvas`)).body.versions.at(-1);
  t.is(v3.content, `${v1.content.trimEnd()}\n\n${twice}\n\n- 要点：${twice.replace('安全性', '热稳定性')}\n`, 'only the selected occurrence changed');

  // No speech engine here: the page asked whether there is one, and never called it.
  t.true(requests.includes('/backend/conversation/api/v2/asr/status'));
  t.false(requests.some((path) => path.includes('/asr/short')));
  t.is(await page.getByRole('button', { name: '语音输入' }).count(), 0);

  // Out of budget: the question stays, the server's words under it; a targeted edit stops with them.
  t.is((await admin.request('PUT', `/backend/auth/admin/users/${(user as Client & { userId: string }).userId}/token-limit`, { token_level_limit: 0 })).status, 200);
  await page.getByRole('textbox', { name: '输入消息' }).fill('再补充一段成本分析');
  await page.keyboard.press('Enter');
  await page.locator('.message-user .bubble', { hasText: '再补充一段成本分析' }).waitFor();
  await page.locator('.stream-error', { hasText: 'Token使用额度已用尽' }).waitFor();
  await page.evaluate(() => {
    const root = document.querySelector('.canvas-doc .ProseMirror')!;
    const text = [...root.querySelectorAll('p')].find((paragraph) => (paragraph.textContent ?? '').length > 6)!.firstChild!;
    const range = document.createRange();
    range.setStart(text, 0);
    range.setEnd(text, 4);
    (root as HTMLElement).focus();
    window.getSelection()!.removeAllRanges();
    window.getSelection()!.addRange(range);
  });
  await popover.getByRole('textbox').fill('改得更简洁');
  await popover.getByRole('button', { name: '修改' }).click();
  await page.locator('.canvas-panel [role="alert"]', { hasText: 'Token使用额度已用尽' }).waitFor();
  t.is(await page.getByText('修改已提交').count(), 0, 'no endless spinner');
  await screenshot(page, 'state-out-of-budget');
  t.deepEqual(pageErrors, []);
});

test.serial('a panel opened in its own window is shown there with its title, and comes back when that window closes', async (t) => {
  const { page, pageErrors } = await reportPage(t, 'popper');
  const doc = '.canvas-doc .ProseMirror';
  await page.locator(doc).first().waitFor();
  const canvas = page.locator('.panel').filter({ has: page.locator(doc) }).first();
  const [popup] = await Promise.all([page.waitForEvent('popup'), canvas.getByRole('button', { name: '在新窗口中打开' }).click()]);
  await popup.locator(`.popout-panel ${doc}`).waitFor();
  t.regex(await popup.title(), / · /, 'the window is titled by its panel and session');
  await page.getByText('此面板已在独立窗口中打开').waitFor();
  await screenshot(popup, 'state-popout-window');
  await popup.close();
  await page.locator(doc).first().waitFor();
  t.is(await page.getByText('此面板已在独立窗口中打开').count(), 0, 'the panel is back in the page');
  t.deepEqual(pageErrors, []);
});

test.serial('closing the session shown opens another open one; signing out with a report open shows the signed-out page', async (t) => {
  const { page, pageErrors, id } = await reportPage(t, 'closer');
  await page.locator('.canvas-doc .ProseMirror').first().waitFor();
  await page.getByRole('button', { name: '新会话' }).click();
  await page.waitForURL((url) => url.searchParams.get('conversation_id') !== id);
  const first = sessionIdOf(page);
  const rows = page.locator('.session-list:not(.cloud) .session-item');
  await rows.nth(1).waitFor();
  await rows.filter({ hasNot: page.locator('[aria-current]') }).locator('.session-select').click();
  await page.locator('.canvas-doc .ProseMirror').first().waitFor();
  const active = rows.filter({ has: page.locator('[aria-current]') });
  await active.hover();
  await active.getByRole('button', { name: '关闭会话' }).click();
  await page.waitForURL((url) => url.searchParams.get('conversation_id') === first);
  t.is(await rows.count(), 1);
  t.is(await page.getByText('出了点问题').count(), 0, 'no error page');

  await page.goto(`${app.url}/research?conversation_id=${id}`);
  await page.locator('.canvas-doc .ProseMirror').first().waitFor();
  await page.locator('.user-button').click();
  await page.getByRole('dialog', { name: '账户状态' }).getByRole('button', { name: '退出登录' }).click();
  await page.getByRole('heading', { name: '今天想研究什么？' }).waitFor();
  t.is(await page.getByText('出了点问题').count(), 0, 'no error page after signing out');
  t.is(new URL(page.url()).search, '', 'the signed-out page does not name the session any more');
  t.deepEqual(pageErrors, []);
});

test.serial('on a phone the panels are tabs, one at a time, and the sidebar opens over the page and closes on choosing', async (t) => {
  const { page, pageErrors } = await reportPage(t, 'phone', { width: 390, height: 844 });
  const tabs = page.locator('.lm_tab');
  await tabs.filter({ hasText: '画布' }).waitFor();
  t.deepEqual(await tabs.allInnerTexts(), ['对话', '画布']);
  const toolbar = (await page.locator('.workspace-toolbar').boundingBox())!;
  t.true(toolbar.height < 100, `the toolbar is two rows, the title's and the buttons' (${toolbar.height} px)`);
  const composer = (await page.getByRole('textbox', { name: '输入消息' }).boundingBox())!;
  t.true(composer.width > 250, `the conversation has the width (${composer.width} px)`);
  await tabs.filter({ hasText: '画布' }).click();
  await page.locator('.canvas-doc .ProseMirror').first().waitFor();
  t.true(((await page.locator('.canvas-doc').first().boundingBox())!.width) > 250, 'so does the canvas');
  t.is(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 0, 'nothing runs off the side');
  await screenshot(page, 'state-phone-canvas');

  // Asking for the canvas from the conversation brings its tab to the front.
  await tabs.filter({ hasText: '对话' }).click();
  await page.locator('.writing-notice').last().click();
  await page.locator('.lm_tab.lm_active', { hasText: '画布' }).waitFor();
  // An edit's save bar fits the phone: its buttons wrap rather than run off the side.
  await page.locator('.canvas-doc .ProseMirror').first().click();
  await page.keyboard.type('手机编辑');
  const save = (await page.getByRole('button', { name: '保存为新版本' }).boundingBox())!;
  t.true(save.x >= 0 && save.x + save.width <= 390, `the save button is on screen (${JSON.stringify(save)})`);
  await screenshot(page, 'state-phone-canvas-edited');

  t.true(await page.locator('.sidebar:not(.sidebar-expanded)').isVisible(), 'the sidebar starts as its rail');
  await page.getByRole('button', { name: '展开侧边栏' }).click();
  await page.locator('.sidebar-backdrop').waitFor();
  await screenshot(page, 'state-phone-sidebar');
  await page.keyboard.press('Escape');
  await page.locator('.sidebar-backdrop').waitFor({ state: 'detached' });
  await page.getByRole('button', { name: '展开侧边栏' }).click();
  await page.getByRole('link', { name: '笔记' }).click();
  await page.waitForURL(/\/note/);
  await page.locator('.sidebar-backdrop').waitFor({ state: 'detached' });
  t.true(await page.locator('.sidebar:not(.sidebar-expanded)').isVisible(), 'choosing a page closes it');
  // A note made from the sidebar opens in the page, and the sidebar gets out of its way.
  await page.getByRole('button', { name: '展开侧边栏' }).click();
  await page.locator('.sidebar-backdrop').waitFor();
  await page.locator('.note-toolbar').getByRole('button', { name: '新建笔记' }).click();
  await page.locator('.sidebar-backdrop').waitFor({ state: 'detached' });
  await page.locator('.note-editor-head h1[title="新建笔记"]').waitFor();
  t.deepEqual(pageErrors, []);
});

test.serial('a link to a conversation that is gone says so, and the page goes on with the user’s own', async (t) => {
  const user = await signUp(app.url, `linker${Date.now().toString(36)}`);
  const { page, pageErrors } = await research(t, user);
  const own = sessionIdOf(page);
  await page.goto(`${app.url}/research?conversation_id=8d5e1c52-0d6b-4c1e-9d3a-2f1f4b7a9c10`);
  await page.locator('.toast-title', { hasText: '会话不可用' }).waitFor();
  await page.waitForURL((url) => url.searchParams.get('conversation_id') === own);
  await screenshot(page, 'state-link-gone');
  t.deepEqual(pageErrors, []);
});

test.serial('a question sent while offline keeps its text with why, and is sent again or let go at the reader\'s word', async (t) => {
  const user = await signUp(app.url, `offline${Date.now().toString(36)}`);
  const { page, pageErrors } = await research(t, user);
  await page.context().setOffline(true);
  await page.getByText('已断开').waitFor();
  const composer = page.getByRole('textbox', { name: '输入消息' });
  await composer.fill('离线时问的问题');
  await composer.press('Enter');
  const again = page.getByRole('button', { name: '重新发送' });
  await again.waitFor();
  await page.getByText('服务器无响应，请检查网络连接').waitFor();
  await screenshot(page, 'state-offline-send');

  await page.context().setOffline(false);
  await page.getByText('已连接').waitFor();
  await again.click();
  await page.locator('.message-user:not(.failed):not(.sending)', { hasText: '离线时问的问题' }).waitFor();
  t.is(await page.getByRole('button', { name: '重新发送' }).count(), 0);
  t.is(await page.locator('.message-user', { hasText: '离线时问的问题' }).count(), 1, 'sent once');
  t.deepEqual(pageErrors, []);
});

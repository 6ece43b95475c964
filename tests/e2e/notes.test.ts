/**
 * Notes in a real browser, as a new user meets them: create, rename, write, nest by dragging,
 * reload and find the text saved, select notes and draw a cognition from them, share one and open
 * the link signed out. Serves frontend/dist: run `npm run build` first.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { browserSuite, screenshot, signedInPage } from '../support/browser.ts';
import { signUp } from '../support/app.ts';
import { eventually } from '../support/poll.ts';

const suite = browserSuite();

async function newNote(page: Page, name: string) {
  await page.locator('.note-toolbar').getByRole('button', { name: '新建笔记' }).click();
  const rename = page.getByPlaceholder('输入笔记名称');
  await rename.waitFor();
  await rename.fill(name);
  await rename.press('Enter');
  await page.locator('.note-row').filter({ hasText: name }).waitFor();
}

async function write(page: Page, text: string) {
  const doc = page.locator('.note-doc .ProseMirror');
  await doc.click();
  await page.keyboard.type(text);
  await page.getByRole('status').filter({ hasText: '已保存' }).waitFor();
}

test('a new user keeps notes in a tree, writes, nests, extracts a cognition and shares a note', async (t) => {
  const user = await signUp(suite.app.url, 'notebook');
  const { page, pageErrors } = await signedInPage(t, suite.browser, user.token!);
  page.on('dialog', (dialog) => void dialog.accept());

  await page.goto(`${suite.app.url}/note`, { waitUntil: 'networkidle' });
  await page.getByText('还没有笔记').waitFor();
  await screenshot(page, 'notes-empty');

  await newNote(page, '储能调研');
  await page.keyboard.press('Escape');
  await write(page, '# 钠离子电池\n走访的三座**储能电站**都在评估钠离子电池。钠离子电池在零下二十度仍能正常放电。');
  await newNote(page, '读书摘录');
  await write(page, '钠离子电池的成本比磷酸铁锂低两到三成，储能电站更看重成本。');

  // A blank name cancels the rename.
  await page.locator('.note-row').filter({ hasText: '读书摘录' }).getByRole('button', { name: '读书摘录' }).dblclick();
  await page.getByPlaceholder('输入笔记名称').fill('   ');
  await page.getByPlaceholder('输入笔记名称').press('Enter');
  await page.locator('.note-row').filter({ hasText: '读书摘录' }).waitFor();

  // A child through the context menu, then drag 读书摘录 into 储能调研.
  const parent = page.locator('.note-row').filter({ hasText: '储能调研' });
  await parent.hover();
  await parent.getByRole('button', { name: '更多操作' }).click();
  await page.getByRole('menuitem', { name: '添加子笔记' }).click();
  await page.getByPlaceholder('输入笔记名称').fill('走访名单');
  await page.getByPlaceholder('输入笔记名称').press('Enter');
  await page.locator('.note-row').filter({ hasText: '走访名单' }).waitFor();
  const reading = page.locator('.note-row').filter({ hasText: '读书摘录' });
  const box = (await parent.boundingBox())!;
  await reading.dragTo(parent, { targetPosition: { x: box.width / 2, y: box.height / 2 } });
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('.note-tree > li > [role="group"] .note-name span')].map((span) => span.textContent);
    return rows.includes('读书摘录');
  });
  await screenshot(page, 'notes-tree');

  // The keyboard: one tab stop, arrows move and expand, F2 renames, Delete hides behind an undo toast.
  const tree = page.getByRole('tree', { name: '笔记' });
  await tree.getByRole('treeitem', { name: '储能调研' }).focus();
  await page.keyboard.press('ArrowDown');
  t.is(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), '走访名单');
  await page.keyboard.press('ArrowLeft');
  t.is(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), '储能调研');
  await page.keyboard.press('ArrowLeft');
  t.is(await tree.getByRole('treeitem', { name: '储能调研' }).getAttribute('aria-expanded'), 'false');
  await page.keyboard.press('ArrowRight');
  t.is(await tree.getByRole('treeitem', { name: '储能调研' }).getAttribute('aria-expanded'), 'true');
  await newNote(page, '草稿');
  await tree.getByRole('treeitem', { name: '草稿' }).focus();
  await page.keyboard.press('F2');
  await page.getByPlaceholder('输入笔记名称').fill('临时草稿');
  await page.getByPlaceholder('输入笔记名称').press('Enter');
  await tree.getByRole('treeitem', { name: '临时草稿' }).waitFor();
  t.is(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), '临时草稿', 'focus returns to the renamed note');
  await page.keyboard.press('Delete');
  await tree.getByRole('treeitem', { name: '临时草稿' }).waitFor({ state: 'detached' });
  await screenshot(page, 'notes-undo-toast');
  // Sent when the toast goes (5 s, paused while the pointer rests on it): then the server forgets it too.
  await page.mouse.move(0, 0);
  await page.getByRole('button', { name: '撤销' }).waitFor({ state: 'detached' });
  await eventually(async () => ((await user.request('GET', '/backend/api/notes')).body.notes.some((note: { name: string }) => note.name === '临时草稿') ? undefined : true), undefined, 'the note deleted on the server once the toast went');
  await newNote(page, '留下的草稿');
  await tree.getByRole('treeitem', { name: '留下的草稿' }).focus();
  await page.keyboard.press('Delete');
  await page.getByRole('button', { name: '撤销' }).click();
  await tree.getByRole('treeitem', { name: '留下的草稿' }).waitFor();

  // Markdown typed as in any note app becomes formatting, and the blank lines typed stay.
  await newNote(page, '格式试写');
  await page.keyboard.press('Escape');
  await write(page, '**加粗** 和 `代码` 与 [链接](https://example.com/a) 完\n\n\n隔两行\n- 列表项');

  // Reload: the tree and the text are there.
  await page.reload({ waitUntil: 'networkidle' });
  await page.locator('.note-row').filter({ hasText: '格式试写' }).getByRole('button', { name: '格式试写' }).click();
  const doc = page.locator('.note-doc .ProseMirror');
  await doc.locator('strong').filter({ hasText: '加粗' }).waitFor();
  t.is(await doc.locator('code').innerText(), '代码');
  t.is(await doc.locator('a').getAttribute('href'), 'https://example.com/a');
  t.is(await doc.locator('ul li').innerText(), '列表项');
  t.is(await doc.evaluate((element) => [...element.querySelectorAll(':scope > p')].filter((p) => p.textContent === '').length), 2, 'two blank lines kept');
  const formatted = (await user.request('GET', '/backend/api/notes')).body.notes.find((note: { name: string }) => note.name === '格式试写');
  const saved = (await user.request('GET', `/backend/api/notes/${formatted.id}`)).body.content as string;
  t.true(saved.startsWith('**加粗** 和 `代码` 与 [链接](https://example.com/a) 完'), saved);
  t.false(saved.includes('\\'), 'nothing escaped');
  await screenshot(page, 'notes-markdown');
  await page.locator('.note-row').filter({ hasText: '储能调研' }).getByRole('button', { name: '储能调研' }).click();
  await page.locator('.note-doc h1').filter({ hasText: '钠离子电池' }).waitFor();
  t.true((await page.locator('.note-doc').innerText()).includes('零下二十度'), 'the text was saved');

  // Selection: a parent takes its children along; 1..5 documents make a cognition.
  await page.getByRole('button', { name: '选择笔记' }).click();
  const extract = page.getByRole('button', { name: '提取认知' });
  await extract.hover();
  await page.getByRole('tooltip', { name: '至少选择 1 个文档' }).waitFor();
  await page.getByRole('checkbox', { name: '储能调研' }).check();
  await page.getByText('已选择 3 个文档').waitFor();
  await extract.hover();
  await page.getByRole('tooltip', { name: '提取 3 个文档的认知' }).waitFor();
  await screenshot(page, 'notes-select');
  await extract.click();
  await page.waitForURL(/\/cognition\/display\?id=/);
  // The notes page stays on screen until the display's chunk loads, and it holds the same text.
  await page.locator('.cog-insights li').first().waitFor();
  t.true((await page.locator('.cog-insights').innerText()).includes('零下二十度'), 'the insights come from the notes');
  t.notRegex(await page.locator('.cog-article').innerText(), /\\[*#[\]\-.]|\*\*|^\s*[-*]\s/m, 'no Markdown debris shown');
  await screenshot(page, 'notes-cognition');

  // Share a note and open it signed out.
  await page.goto(`${suite.app.url}/note`, { waitUntil: 'networkidle' });
  await page.locator('.note-row').filter({ hasText: '储能调研' }).getByRole('button', { name: '储能调研' }).click();
  await page.locator('.note-editor-head').getByRole('button', { name: '分享' }).click();
  await page.getByRole('dialog', { name: '分享笔记' }).getByText('以及它下面的全部 2 篇子笔记；之后添加到它下面的笔记也会一并分享').waitFor();
  await page.getByRole('button', { name: '创建分享链接' }).click();
  const link = await page.getByRole('textbox', { name: '分享链接' }).inputValue();
  t.regex(link, /\/share\/[A-Za-z0-9_-]+$/);
  await screenshot(page, 'notes-share');
  const visitor = await suite.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
  t.teardown(() => visitor.close());
  const shared = await visitor.newPage();
  await shared.goto(link, { waitUntil: 'networkidle' });
  await shared.getByRole('heading', { name: '储能调研' }).waitFor();
  t.true((await shared.locator('.shared-note').innerText()).includes('零下二十度'));
  // It has notes below it, so the link is a folder.
  await shared.locator('.shared-folder-tree').getByRole('button', { name: '读书摘录' }).click();
  await shared.getByRole('heading', { name: '读书摘录' }).waitFor();
  t.true((await shared.locator('.shared-note').innerText()).includes('磷酸铁锂'));
  await screenshot(shared, 'notes-shared');
  // The owner's tree says which notes the link makes public: the shared one and every note below it.
  await page.keyboard.press('Escape');
  const marked = async () => page.locator('[role=treeitem][aria-description]').evaluateAll((items) => items.map((item) => `${item.getAttribute('aria-label')}: ${item.getAttribute('aria-description')}`));
  t.deepEqual((await marked()).slice(0, 1), ['储能调研: 已通过分享链接公开']);
  const sharedRow = page.locator('[role=treeitem][aria-label="储能调研"]');
  if ((await sharedRow.getAttribute('aria-expanded')) === 'false') await sharedRow.locator('.note-twisty').first().click();
  t.true((await marked()).includes('读书摘录: 随「储能调研」的分享链接公开'), (await marked()).join('\n'));
  await screenshot(page, 'notes-public-marked');
  await page.locator('.note-editor-head').getByRole('button', { name: '分享' }).click();
  await shared.goto(link.replace('/share/', '/share/folder/'), { waitUntil: 'networkidle' });
  await shared.locator('.shared-folder-tree').getByRole('button', { name: '走访名单' }).waitFor();
  // A revoked link says the share has ended, with the way home.
  await page.getByRole('button', { name: '取消分享' }).click();
  await page.getByText('已取消分享，原链接失效').waitFor();
  await shared.goto(link, { waitUntil: 'networkidle' });
  await shared.getByRole('heading', { name: '这个分享已结束' }).waitFor();
  await shared.getByRole('link', { name: '返回首页' }).waitFor();
  await screenshot(shared, 'notes-shared-revoked');
  await page.keyboard.press('Escape');

  // The same screens in English.
  await page.evaluate(() => localStorage.setItem('app_language', 'en'));
  await page.reload({ waitUntil: 'networkidle' });
  await page.locator('.note-editor-head').getByRole('button', { name: 'Share' }).click();
  await page.getByRole('dialog', { name: 'Share note' }).getByText('all 2 notes below it; notes added below it later are shared too').waitFor();
  await screenshot(page, 'notes-share-en');
  await page.keyboard.press('Escape');
  await page.locator('.note-row').filter({ hasText: '格式试写' }).getByRole('button', { name: '格式试写' }).click();
  await page.locator('.note-doc strong').filter({ hasText: '加粗' }).waitFor();
  await screenshot(page, 'notes-markdown-en');
  await page.goto(`${suite.app.url}/share/no-such-share-token`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: 'This share has ended' }).waitFor();
  await page.getByRole('link', { name: 'Back to home' }).waitFor();
  await screenshot(page, 'notes-shared-revoked-en');
  await page.evaluate(() => localStorage.setItem('app_language', 'zh'));

  // The same notes beside a research conversation, in the workspace's note panel.
  await page.goto(`${suite.app.url}/research`, { waitUntil: 'networkidle' });
  const tip = page.getByRole('button', { name: '知道了' });
  if (await tip.isVisible()) await tip.click();
  await page.getByRole('button', { name: '笔记面板' }).click();
  await page.locator('.note-page.embedded .note-row').filter({ hasText: '储能调研' }).waitFor();
  await screenshot(page, 'notes-in-research');
  t.deepEqual(pageErrors, []);
});

test('a note changed on another device locks this one with a lasting notice, a copy of what was typed here, and a reload', async (t) => {
  const user = await signUp(suite.app.url, 'twodevices');
  const created = await user.request('POST', '/backend/api/notes', { name: '会议纪要', content: '第一段。' });
  t.is(created.status, 201);
  const { page, pageErrors } = await signedInPage(t, suite.browser, user.token!);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(`${suite.app.url}/note?id=${created.body.id}`);
  const doc = page.locator('.note-doc .ProseMirror');
  await doc.waitFor();
  // Another device saves first (a tab of this browser would have told this one, which would read it again).
  const elsewhere = await user.request('PUT', `/backend/api/notes/${created.body.id}/content`, { content: '第一段。乙的补充。', revision: created.body.revision });
  t.is(elsewhere.status, 200);

  await doc.click();
  await page.keyboard.press('End');
  await page.keyboard.type('甲的修改。');
  const notice = page.getByRole('status').filter({ hasText: '笔记已在别处修改' });
  await notice.waitFor();
  t.is(await doc.getAttribute('contenteditable'), 'false', 'locked as soon as the conflict is known');
  await page.keyboard.type('再写几个字');
  t.true(await notice.isVisible(), 'typing does not replace the notice with "unsaved"');
  t.notRegex(await doc.innerText(), /再写几个字/);

  await page.getByRole('button', { name: '复制我的版本' }).click();
  await page.getByText('已复制，重新加载后可以粘贴回去').waitFor();
  t.regex(await page.evaluate(() => navigator.clipboard.readText()), /甲的修改。/);
  await screenshot(page, 'notes-conflict');

  await page.getByRole('button', { name: '重新加载' }).click();
  await page.getByRole('status').filter({ hasText: '已保存' }).waitFor();
  t.regex(await doc.innerText(), /乙的补充。/);
  t.is(await doc.getAttribute('contenteditable'), 'true');
  t.deepEqual(pageErrors, []);
});

test('two tabs of one browser keep each other current: a note made in one appears in the other, and a note saved in one reads anew in the other', async (t) => {
  const user = await signUp(suite.app.url, 'bothtabs');
  const { page, pageErrors } = await signedInPage(t, suite.browser, user.token!);
  await page.goto(`${suite.app.url}/note`, { waitUntil: 'networkidle' });
  const other = await page.context().newPage();
  await other.goto(`${suite.app.url}/note`, { waitUntil: 'networkidle' });
  await other.getByText('还没有笔记').waitFor();

  await newNote(page, '周会记录');
  await page.keyboard.press('Escape');
  await other.locator('.note-row').filter({ hasText: '周会记录' }).waitFor();

  await other.locator('.note-row').filter({ hasText: '周会记录' }).getByRole('button', { name: '周会记录' }).click();
  await other.locator('.note-doc .ProseMirror').waitFor();
  await write(page, '讨论了储能项目的进度。');
  await other.locator('.note-doc .ProseMirror', { hasText: '讨论了储能项目的进度。' }).waitFor();
  await other.close();
  t.deepEqual(pageErrors, []);
});

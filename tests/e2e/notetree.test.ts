/**
 * The note tree refuses a drop of a note onto itself or one of its own notes: the note stays where
 * it was (it used to land at the end of the root level, out of its folder) and a toast says why,
 * in zh and en. Serves frontend/dist: run `npm run build` first.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { signUp, type Client } from '../support/app.ts';
import { browserSuite, screenshot, signedInPage } from '../support/browser.ts';
import { eventually } from '../support/poll.ts';

const suite = browserSuite();

const create = async (user: Client, name: string, parentId: string | null) => (await user.request('POST', '/backend/api/notes', { name, parent_id: parentId })).body.id as string;
const parents = async (user: Client) => Object.fromEntries(((await user.request('GET', '/backend/api/notes')).body.notes as Array<{ name: string; parent_id: string | null }>).map((note) => [note.name, note.parent_id]));
const row = (page: Page, name: string) => page.locator('.note-row').filter({ has: page.getByRole('button', { name, exact: true }) });

async function dropOnto(page: Page, dragged: string, target: string) {
  const box = (await row(page, target).boundingBox())!;
  await row(page, dragged).dragTo(row(page, target), { targetPosition: { x: box.width / 2, y: box.height / 2 } });
}

async function expandAll(page: Page) {
  for (const name of ['项目', '储能调研', '走访名单']) {
    const item = page.getByRole('treeitem', { name, exact: true });
    if ((await item.getAttribute('aria-expanded')) === 'false') await row(page, name).locator('.note-twisty').click();
  }
  await row(page, '第一站').waitFor();
}

test('a note dropped onto its own child or grandchild stays in its folder, and the tree says why', async (t) => {
  const user = await signUp(suite.app.url, `tree${Date.now().toString(36)}`);
  const folder = await create(user, '项目', null);
  const parent = await create(user, '储能调研', folder);
  const child = await create(user, '走访名单', parent);
  await create(user, '第一站', child);
  await create(user, '读书摘录', null);
  const before = await parents(user);

  const { page, pageErrors } = await signedInPage(t, suite.browser, user.token!);
  await page.goto(`${suite.app.url}/note`, { waitUntil: 'networkidle' });
  await expandAll(page);

  for (const target of ['走访名单', '第一站', '走访名单']) {
    await dropOnto(page, '储能调研', target);
    await page.locator('.toast-title', { hasText: '不能把笔记移动到它自己或它的子笔记下' }).last().waitFor();
  }
  await screenshot(page, 'notetree-drop-refused');
  t.deepEqual(await parents(user), before, 'nothing moved');
  t.is(await page.locator('.note-tree > li').count(), 2, 'the root level is as it was');

  // A drop that is allowed still moves: 读书摘录 into 项目.
  await dropOnto(page, '读书摘录', '项目');
  await page.waitForFunction(() => document.querySelectorAll('.note-tree > li').length === 1);
  t.is((await parents(user))['读书摘录'], folder);

  await page.evaluate(() => localStorage.setItem('app_language', 'en'));
  await page.reload({ waitUntil: 'networkidle' });
  await expandAll(page);
  await dropOnto(page, '走访名单', '第一站');
  await page.locator('.toast-title', { hasText: 'A note cannot be moved into itself or one of its children' }).waitFor();
  await screenshot(page, 'notetree-drop-refused-en');
  t.is((await parents(user))['走访名单'], parent);
  t.deepEqual(pageErrors, []);
});

/** Each level's notes in order, as `name[child,child]`, from the server. */
async function outline(user: Client): Promise<string> {
  const notes = (await user.request('GET', '/backend/api/notes')).body.notes as Array<{ id: string; name: string; parent_id: string | null; order: number }>;
  const level = (parent: string | null): string =>
    notes
      .filter((note) => note.parent_id === parent)
      .sort((a, b) => a.order - b.order)
      .map((note) => {
        const below = level(note.id);
        return below === '' ? note.name : `${note.name}[${below}]`;
      })
      .join(',');
  return level(null);
}

for (const language of ['zh', 'en'] as const) {
  test(`notes move with Alt+arrows, the focus stays on the note and a screen reader hears where it went (${language})`, async (t) => {
    const en = language === 'en';
    const [first, second, third] = en ? ['Alpha', 'Beta', 'Gamma'] : ['甲', '乙', '丙'];
    const user = await signUp(suite.app.url, `keys${language}${Date.now().toString(36)}`);
    for (const name of [first, second, third]) await create(user, name, null);
    const { page, pageErrors } = await signedInPage(t, suite.browser, user.token!);
    await page.addInitScript((lang) => localStorage.setItem('app_language', lang), language);
    await page.goto(`${suite.app.url}/note`, { waitUntil: 'networkidle' });
    const live = page.locator('.note-sidebar [aria-live="polite"]');
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    const moved = async (key: string, said: string, expected: string) => {
      await page.keyboard.press(key);
      await live.filter({ hasText: said }).waitFor();
      // The server has it once the tree shows the moved note where it went and the focus on it.
      await page.waitForFunction((name) => document.activeElement?.getAttribute('aria-label') === name, third);
      await eventually(async () => ((await outline(user)) === expected ? true : undefined), undefined, `the server's outline after ${key} (${said}): ${expected}`);
    };

    await page.getByRole('treeitem', { name: third, exact: true }).focus();
    await moved('Alt+ArrowUp', en ? `Moved “${third}” before “${second}”` : `已将「${third}」移到「${second}」之前`, `${first},${third},${second}`);
    await moved('Alt+ArrowRight', en ? `Moved “${third}” into “${first}”` : `已将「${third}」移入「${first}」`, `${first}[${third}],${second}`);
    await screenshot(page, `notetree-keyboard-${language}`);
    await moved('Alt+ArrowLeft', en ? `Moved “${third}” after “${first}”` : `已将「${third}」移到「${first}」之后`, `${first},${third},${second}`);
    await moved('Alt+ArrowDown', en ? `Moved “${third}” after “${second}”` : `已将「${third}」移到「${second}」之后`, `${first},${second},${third}`);
    await page.keyboard.press('Alt+ArrowDown');
    await live.filter({ hasText: en ? `“${third}” cannot move further that way` : `「${third}」无法再往这个方向移动` }).waitFor();
    t.is(await focused(), third);
    t.deepEqual(pageErrors, []);
  });
}

for (const language of ['zh', 'en'] as const) {
  test(`folders stay open across a reload, a search finds notes by name, and the editor's header renames the note (${language})`, async (t) => {
    const en = language === 'en';
    const [folder, study, visits, reading] = en ? ['Project', 'Storage study', 'Site visits', 'Reading'] : ['项目', '储能调研', '走访名单', '读书摘录'];
    const user = await signUp(suite.app.url, `find${language}${Date.now().toString(36)}`);
    const folderId = await create(user, folder, null);
    const studyId = await create(user, study, folderId);
    await create(user, visits, studyId);
    await create(user, reading, null);
    const { page, pageErrors } = await signedInPage(t, suite.browser, user.token!);
    await page.addInitScript((lang) => localStorage.setItem('app_language', lang), language);
    await page.goto(`${suite.app.url}/note`, { waitUntil: 'networkidle' });
    for (const name of [folder, study]) await row(page, name).locator('.note-twisty').click();
    await row(page, visits).waitFor();
    await page.reload({ waitUntil: 'networkidle' });
    await row(page, visits).waitFor();
    t.is(await page.getByRole('treeitem', { name: study, exact: true }).getAttribute('aria-expanded'), 'true', 'the folders the user opened are open after the reload');

    await row(page, folder).locator('.note-twisty').click();
    const search = page.getByRole('searchbox', { name: en ? 'Search note names' : '搜索笔记名称' });
    await search.fill(en ? 'visit' : '走访');
    await row(page, visits).waitFor();
    t.deepEqual(await page.getByRole('treeitem').evaluateAll((items) => items.map((item) => item.getAttribute('aria-label'))), [folder, study, visits], 'the note found, with the notes above it opened');
    await screenshot(page, `notetree-search-${language}`);
    await search.fill('zzz');
    await page.getByText(en ? 'No note name contains “zzz”' : '没有名称包含「zzz」的笔记').waitFor();
    await search.fill('');
    await row(page, reading).waitFor();
    t.is(await page.getByRole('treeitem', { name: folder, exact: true }).getAttribute('aria-expanded'), 'false', 'the user’s own expansion is back');

    await page.getByRole('button', { name: reading, exact: true }).click();
    const title = page.getByRole('textbox', { name: en ? 'Note name (Enter saves, Esc cancels)' : '笔记名称（回车保存，Esc 取消）' });
    await title.fill('x');
    await title.press('Escape');
    t.is(await title.inputValue(), reading, 'Escape keeps the name');
    const renamed = en ? 'Reading list' : '读书笔记';
    await title.fill(renamed);
    await title.press('Enter');
    await page.getByRole('treeitem', { name: renamed, exact: true }).waitFor();
    await eventually(async () => (renamed in (await parents(user)) ? true : undefined), undefined, 'the server to have the new name');
    await screenshot(page, `note-title-${language}`);
    t.deepEqual(pageErrors, []);
  });
}

for (const language of ['zh', 'en'] as const) {
  test(`the delete toast leaves the editor's Share button free (${language})`, async (t) => {
    const en = language === 'en';
    const user = await signUp(suite.app.url, `toast${language}${Date.now().toString(36)}`);
    await create(user, en ? 'Kept' : '保留', null);
    await create(user, en ? 'Gone' : '删除', null);
    const { page, pageErrors } = await signedInPage(t, suite.browser, user.token!);
    await page.addInitScript((lang) => localStorage.setItem('app_language', lang), language);
    await page.clock.install();
    await page.goto(`${suite.app.url}/note`, { waitUntil: 'networkidle' });
    await page.getByRole('treeitem', { name: en ? 'Gone' : '删除', exact: true }).focus();
    // The toast closes when the undo window (5 s) has passed, and the note goes with it: on a loaded
    // machine the steps below took longer, then waited ten minutes for a toast that was gone. The
    // page's clock stands still while they run (30 s ahead: a past time cannot be paused at).
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 30_000);
    await page.keyboard.press('Delete');
    const toast = page.locator('.toast').first();
    await toast.waitFor();
    const share = (await page.getByRole('button', { name: en ? 'Share' : '分享', exact: true }).boundingBox())!;
    const box = (await toast.boundingBox())!;
    await screenshot(page, `note-delete-toast-${language}`);
    await page.clock.resume();
    t.true(box.y >= share.y + share.height || box.x >= share.x + share.width || box.x + box.width <= share.x, 'the toast is not over Share');
    t.deepEqual(pageErrors, []);
  });
}

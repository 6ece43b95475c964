/**
 * Live collaboration in real browsers: two signed-in users (two browser contexts) type into one
 * document and see each other's text and carets live; one drops off the network, keeps typing,
 * rejoins, and nothing is lost or doubled; an invitation link with read rights gives a read-only
 * editor; history replays an earlier version; the owner renames, revokes a link and removes a member,
 * and a member leaves. Screenshots in zh and en. Serves frontend/dist: run
 * `npm run build` first.
 */
import { AxeBuilder } from '@axe-core/playwright';
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { screenshot, signedInPage, startBrowser } from '../support/browser.ts';
import { signUp, startTestApp, type TestApp } from '../support/app.ts';
import { sessionWithReport } from '../support/research.ts';
import { ERROR_TEXTS } from '@scriptorium/domain/protocol/errors';
import { reportToDoc } from '../../frontend/src/collab/markdown.ts';
import { collabEn } from '../../frontend/src/i18n/collab.en.ts';
import { collabZh } from '../../frontend/src/i18n/collab.zh.ts';

let app: TestApp;
let browser: Browser;
test.before(async () => {
  app = await startTestApp();
  browser = await startBrowser();
});
test.after.always(async () => {
  await browser?.close();
  await app?.stop();
});

/** The editor's text without the remote carets' name labels (widgets inside the editable DOM). */
const editorText = (page: Page) =>
  page.locator('.collab-prose[contenteditable]').evaluate((element) => {
    const copy = element.cloneNode(true) as HTMLElement;
    for (const caret of copy.querySelectorAll('.collab-caret')) caret.remove();
    return copy.textContent ?? '';
  });

async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 15_000, explain?: () => Promise<string>): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not within ${timeoutMs} ms: ${what}${explain ? `; ${await explain()}` : ''}`);
}

/** What each editor shows and how it is connected, for a failure message. */
const states = async (...pages: Page[]) =>
  JSON.stringify(await Promise.all(pages.map(async (page) => ({ text: await editorText(page), connection: await page.locator('.collab-connection').getAttribute('data-connection'), pending: await page.locator('.collab-pending').textContent().catch(() => null) }))));

const count = (text: string, part: string) => text.split(part).length - 1;

async function typeAtEnd(page: Page, text: string) {
  await page.locator('.collab-prose[contenteditable]').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text, { delay: 15 });
}

test.serial('two browsers type into one document and see each other live; one drops off, types on, rejoins, and nothing is lost or doubled', async (t) => {
  const alice = await signUp(app.url, 'collab_alice');
  const bob = await signUp(app.url, 'collab_bob');
  const a = await signedInPage(t, browser, alice.token!);
  const b = await signedInPage(t, browser, bob.token!);

  await a.page.goto(`${app.url}/collaboration`, { waitUntil: 'networkidle' });
  await a.page.getByText('还没有共享文档').waitFor();
  await a.page.getByLabel('文档标题').fill('季度计划');
  await a.page.getByRole('button', { name: '新建文档' }).click();
  await a.page.waitForURL(/\/collaboration\/[a-f0-9]{32}$/);
  const docId = a.page.url().split('/').at(-1)!;
  await a.page.locator('.collab-connection.is-live').waitFor();

  await a.page.getByRole('button', { name: '邀请' }).click();
  const dialog = a.page.getByRole('dialog', { name: '邀请协作者' });
  await dialog.getByRole('radio', { name: '可编辑' }).click();
  await dialog.getByRole('button', { name: '生成链接' }).click();
  const link = await dialog.getByRole('textbox', { name: '邀请链接' }).inputValue();
  t.regex(link, /\/collaboration\?invite=/);
  await screenshot(a.page, 'collab-invite');
  await a.page.keyboard.press('Escape');

  await b.page.goto(link, { waitUntil: 'networkidle' });
  await b.page.waitForURL(new RegExp(`/collaboration/${docId}$`));
  await b.page.locator('.collab-connection.is-live').waitFor();
  await a.page.locator('.collab-avatar[data-user="collab_bob"]').waitFor();

  await typeAtEnd(a.page, 'Alice 写下第一段。');
  await eventually(async () => (await editorText(b.page)).includes('Alice 写下第一段。'), 'bob sees alice typing');
  // Both type at once: each batch on an older version is refused, rebased and resent.
  await Promise.all([typeAtEnd(a.page, ' 甲甲甲'), typeAtEnd(b.page, ' 乙乙乙')]);
  await eventually(async () => {
    const [one, two] = await Promise.all([editorText(a.page), editorText(b.page)]);
    // Typed at the same spot at the same time, the two runs may interleave: what matters is that each character is there once.
    return one === two && count(one, '甲') === 3 && count(one, '乙') === 3;
  }, 'both editors converge after typing at once', 15_000, () => states(a.page, b.page));
  await a.page.locator('.collab-caret', { hasText: 'collab_bob' }).waitFor();
  // Presence is throttled: the caret settles where bob stopped a moment after the text does.
  await a.page.waitForTimeout(500);
  await screenshot(a.page, 'collab-editor');

  // Bob's network goes away; he keeps typing, Alice too.
  await b.page.context().setOffline(true);
  await b.page.locator('.collab-connection.is-offline').waitFor();
  await typeAtEnd(b.page, ' 离线时写的');
  await typeAtEnd(a.page, ' 在线时写的');
  await b.page.getByText(/处修改待同步/).waitFor();
  await screenshot(b.page, 'collab-offline');
  t.false((await editorText(b.page)).includes('在线时写的'), 'offline, bob does not see alice yet');

  await b.page.context().setOffline(false);
  await b.page.locator('.collab-connection.is-live').waitFor();
  await eventually(async () => {
    const [one, two] = await Promise.all([editorText(a.page), editorText(b.page)]);
    return one === two && one.includes('离线时写的') && one.includes('在线时写的');
  }, 'bob rejoins and both editors converge', 15_000, () => states(a.page, b.page));
  const final = await editorText(a.page);
  for (const part of ['Alice 写下第一段。', '离线时写的', '在线时写的']) t.is(count(final, part), 1, `${part} once`);
  t.deepEqual([count(final, '甲'), count(final, '乙')], [3, 3]);
  const server = (await alice.request('GET', `/backend/api/collab/docs/${docId}`)).body;
  t.is(JSON.stringify(server.doc).includes('离线时写的'), true, 'the server holds what bob typed offline');

  await a.page.getByRole('button', { name: '历史' }).click();
  const history = a.page.getByRole('region', { name: '历史回放' });
  await history.getByRole('slider').fill('1');
  await eventually(async () => (await history.locator('.collab-history-doc').innerText()).trim() === 'A', 'version 1 shows the first letter typed');
  await history.getByRole('listitem').first().getByRole('button').click();
  // Alice's first edit runs on into her next words if bob's came only after them.
  await eventually(async () => (await history.locator('.collab-history-doc').innerText()).trim().startsWith('Alice 写下第一段。'), "the first edit is alice's first sentence");
  t.true((await history.getByRole('listitem').count()) >= 4, 'edits by alice and bob, before and after the drop');
  await history.getByRole('listitem').last().getByRole('button').click();
  await eventually(async () => (await history.locator('.collab-history-doc').innerText()).includes('在线时写的'), 'the last version shows everything');
  await history.getByRole('listitem').nth(2).getByRole('button').click();
  await screenshot(a.page, 'collab-history');
  const { violations } = await new AxeBuilder({ page: a.page }).analyze();
  t.deepEqual(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`), []);
  t.deepEqual([...a.pageErrors, ...b.pageErrors], []);
});

test.serial('a read link gives a read-only editor that follows live edits; the screens in English', async (t) => {
  const owner = await signUp(app.url, 'collab_owner');
  const reader = await signUp(app.url, 'collab_reader');
  const id = (await owner.request('POST', '/backend/api/collab/docs', { title: 'Launch checklist' })).body.id;
  const { token } = (await owner.request('POST', `/backend/api/collab/docs/${id}/invites`, { role: 'read' })).body;
  const o = await signedInPage(t, browser, owner.token!);
  const r = await signedInPage(t, browser, reader.token!);
  await r.page.addInitScript(() => localStorage.setItem('app_language', 'en'));
  await o.page.addInitScript(() => localStorage.setItem('app_language', 'en'));

  // The document's own address, before joining: it says how to get in, not that loading failed.
  await r.page.goto(`${app.url}/collaboration/${id}`, { waitUntil: 'networkidle' });
  await r.page.getByText('This document does not exist, or you are not one of its members.').waitFor();
  await r.page.getByText('Ask its owner for an invitation link').waitFor();

  await r.page.goto(`${app.url}/collaboration?invite=${token}`, { waitUntil: 'networkidle' });
  await r.page.waitForURL(new RegExp(`/collaboration/${id}$`));
  await r.page.getByText('Read only: you see changes live but cannot edit.').waitFor();
  await r.page.locator('.collab-connection.is-live').waitFor();
  t.is(await r.page.locator('.collab-prose').first().getAttribute('contenteditable'), 'false');
  t.is(await r.page.getByRole('toolbar').count(), 0);

  await o.page.goto(`${app.url}/collaboration/${id}`, { waitUntil: 'networkidle' });
  await o.page.locator('.collab-connection.is-live').waitFor();
  await typeAtEnd(o.page, 'Ship on Friday');
  await eventually(async () => (await r.page.locator('.collab-prose').first().innerText()).includes('Ship on Friday'), 'the reader sees the owner typing');
  await r.page.locator('.collab-prose').first().click();
  await r.page.keyboard.type('nope');
  t.false((await r.page.locator('.collab-prose').first().innerText()).includes('nope'));
  await screenshot(r.page, 'collab-readonly-en');
  await o.page.locator('.collab-avatar[data-user="collab_reader"]').waitFor();
  await screenshot(o.page, 'collab-editor-en');
  await o.page.goto(`${app.url}/collaboration`, { waitUntil: 'networkidle' });
  await o.page.getByText('Pick a document from the list, or create one.').waitFor();
  await screenshot(o.page, 'collab-list-en');
  t.deepEqual([...o.pageErrors, ...r.pageErrors], []);
});

test.serial("a research session's owner opens the report to co-editing; a collaborator adds to it live and the owner saves it as the report's next version", async (t) => {
  const owner = await signUp(app.url, 'report_owner');
  const helper = await signUp(app.url, 'report_helper');
  const sessionId = await sessionWithReport(owner);
  const report = (await owner.request('GET', `/backend/conversation/research/${sessionId}/canvas`)).body.versions[0];
  const o = await signedInPage(t, browser, owner.token!);
  await o.page.addInitScript(() => localStorage.setItem('guidance_enabled', 'false'));
  await o.page.goto(`${app.url}/research?conversation_id=${sessionId}`);
  await o.page.locator('.canvas-doc .ProseMirror').waitFor();
  await o.page.getByRole('button', { name: '协作编辑' }).click();
  await o.page.waitForURL(/\/collaboration\/[a-f0-9]{32}$/);
  const docId = o.page.url().split('/').at(-1)!;
  await o.page.locator('.collab-connection.is-live').waitFor();
  t.is(await editorText(o.page), reportToDoc(report.content).textContent, 'the shared document starts as the report');

  const { token } = (await owner.request('POST', `/backend/api/collab/docs/${docId}/invites`, { role: 'edit' })).body;
  const h = await signedInPage(t, browser, helper.token!);
  await h.page.goto(`${app.url}/collaboration?invite=${token}`, { waitUntil: 'networkidle' });
  await h.page.locator('.collab-connection.is-live').waitFor();
  await typeAtEnd(h.page, '协作者补充的一句。');
  await eventually(async () => (await editorText(o.page)).includes('协作者补充的一句。'), 'the owner sees the collaborator typing');
  await o.page.getByRole('button', { name: '保存到报告' }).click();
  await o.page.getByText('已保存为报告的第 2 版').waitFor();
  await screenshot(o.page, 'collab-report');
  const canvas = (await owner.request('GET', `/backend/conversation/research/${sessionId}/canvas`)).body;
  t.is(canvas.versions.length, 2);
  t.true(String(canvas.versions[1].content).includes('协作者补充的一句。'));
  t.is(await h.page.getByRole('button', { name: '保存到报告' }).count(), 0, 'only the owner writes back to the report');
  t.deepEqual([...o.pageErrors, ...h.pageErrors], []);
});

for (const language of ['zh', 'en'] as const) {
  test.serial(`the owner renames, revokes a link and removes a member; the member sees each live, and the revoked link is refused (${language})`, async (t) => {
    const text = language === 'zh' ? collabZh : collabEn;
    const errors = (code: 'collab.invite_revoked') => ERROR_TEXTS[code][language];
    const owner = await signUp(app.url, `manage_owner_${language}`);
    const member = await signUp(app.url, `manage_member_${language}`);
    const late = await signUp(app.url, `manage_late_${language}`);
    const id = (await owner.request('POST', '/backend/api/collab/docs', { title: language === 'zh' ? '项目周报' : 'Project weekly' })).body.id;
    const { token } = (await owner.request('POST', `/backend/api/collab/docs/${id}/invites`, { role: 'edit' })).body;
    const [o, m, l] = [await signedInPage(t, browser, owner.token!), await signedInPage(t, browser, member.token!), await signedInPage(t, browser, late.token!)];
    for (const { page } of [o, m, l]) await page.addInitScript((chosen) => localStorage.setItem('app_language', chosen), language);

    await m.page.goto(`${app.url}/collaboration?invite=${token}`, { waitUntil: 'networkidle' });
    await m.page.waitForURL(new RegExp(`/collaboration/${id}$`));
    await m.page.locator('.collab-connection.is-live').waitFor();
    await o.page.goto(`${app.url}/collaboration/${id}`, { waitUntil: 'networkidle' });
    await o.page.locator('.collab-connection.is-live').waitFor();
    t.is(await m.page.getByRole('button', { name: text.rename.open }).count(), 0, 'only the owner renames');

    // Rename: the member's header and list follow without reloading.
    const renamed = language === 'zh' ? '项目月报' : 'Project monthly';
    await o.page.getByRole('button', { name: text.rename.open }).click();
    await o.page.getByRole('textbox', { name: text.rename.label }).fill(renamed);
    await screenshot(o.page, `collab-rename-${language}`);
    await o.page.getByRole('button', { name: text.rename.save }).click();
    await o.page.getByRole('heading', { name: renamed }).waitFor();
    await m.page.getByRole('heading', { name: renamed }).waitFor();
    await m.page.locator('.collab-docs').getByText(renamed).waitFor();

    // The link the member joined through, listed with its count, then revoked.
    await o.page.getByRole('button', { name: text.invite.open, exact: true }).click();
    const invite = o.page.getByRole('dialog', { name: text.invite.title });
    await invite.getByText(text.links.joined_one.replace('{{count}}', '1')).waitFor();
    await screenshot(o.page, `collab-links-${language}`);
    await invite.getByRole('button', { name: text.links.revoke }).click();
    await o.page.getByRole('alertdialog').getByRole('button', { name: text.links.confirm }).click();
    await invite.getByText(text.links.empty).waitFor();
    await o.page.keyboard.press('Escape');

    await l.page.goto(`${app.url}/collaboration?invite=${token}`, { waitUntil: 'networkidle' });
    await l.page.getByText(text.joinFailed).waitFor();
    await l.page.getByText(errors('collab.invite_revoked')).waitFor();
    await screenshot(l.page, `collab-link-revoked-${language}`);
    t.is((await m.page.locator('.collab-connection').getAttribute('data-connection')), 'live', 'the member who joined through the link stays');

    // Remove the member: their editor closes at once and says why; the document leaves their list.
    await o.page.getByRole('button', { name: text.people.open, exact: true }).click();
    const people = o.page.getByRole('dialog', { name: text.people.title });
    await people.getByText(`manage_member_${language}`).waitFor();
    await screenshot(o.page, `collab-members-${language}`);
    await people.getByRole('button', { name: text.people.removeLabel.replace('{{name}}', `manage_member_${language}`) }).click();
    await o.page.getByRole('alertdialog').getByText(text.people.removeText).waitFor();
    await screenshot(o.page, `collab-remove-confirm-${language}`);
    await o.page.getByRole('alertdialog').getByRole('button', { name: text.people.removeConfirm }).click();
    await eventually(async () => (await people.getByText(`manage_member_${language}`).count()) === 0, 'the member leaves the list');
    await m.page.getByRole('alert').filter({ hasText: text.removed }).waitFor();
    t.is(await m.page.locator('.collab-connection').getAttribute('data-connection'), 'closed');
    t.is(await m.page.locator('.collab-prose').first().getAttribute('contenteditable'), 'false');
    await eventually(async () => (await m.page.locator('.collab-docs').getByText(renamed).count()) === 0, "the document leaves the member's list");
    await screenshot(m.page, `collab-removed-${language}`);
    t.is((await member.request('GET', `/backend/api/collab/docs/${id}`)).status, 404);
    const { violations } = await new AxeBuilder({ page: o.page }).analyze();
    t.deepEqual(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`), []);
    t.deepEqual([...o.pageErrors, ...m.pageErrors, ...l.pageErrors], []);
  });
}

test.serial('a member leaves a document on their own, and it leaves their list', async (t) => {
  const owner = await signUp(app.url, 'leave_owner');
  const member = await signUp(app.url, 'leave_member');
  const id = (await owner.request('POST', '/backend/api/collab/docs', { title: '要退出的文档' })).body.id;
  const { token } = (await owner.request('POST', `/backend/api/collab/docs/${id}/invites`, { role: 'read' })).body;
  await member.request('POST', '/backend/api/collab/invites/accept', { token });
  const m = await signedInPage(t, browser, member.token!);
  await m.page.goto(`${app.url}/collaboration/${id}`, { waitUntil: 'networkidle' });
  await m.page.locator('.collab-connection.is-live').waitFor();
  await m.page.getByRole('button', { name: collabZh.people.open, exact: true }).click();
  await m.page.getByRole('button', { name: collabZh.people.leave }).click();
  await m.page.getByRole('alertdialog').getByRole('button', { name: collabZh.people.leaveConfirm, exact: true }).click();
  await m.page.waitForURL(/\/collaboration$/);
  await m.page.getByText(collabZh.empty).waitFor();
  t.deepEqual((await owner.request('GET', `/backend/api/collab/docs/${id}/members`)).body.members.map((one: { name: string }) => one.name), ['leave_owner']);
  t.deepEqual(m.pageErrors, []);
});

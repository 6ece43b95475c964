/**
 * The research view's "done means" walked in English by a new user: a report to work on, the second
 * of two equal sentences edited, the session renamed, the canvas panel dragged to the left, a reload
 * that finds it all as it was, and running out of budget with the reason in English. The Chinese walk
 * is `state.test.ts`. Serves frontend/dist: run `npm run build` first.
 */
import test from 'ava';
import type { Browser } from 'playwright-core';
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

test('in English: edit the second of two equal sentences, rename, move the canvas left, reload, run out of budget', async (t) => {
  const user = await signUp(app.url, `reader${Date.now().toString(36)}`);
  const id = await sessionWithReport(user);
  const v1 = (await user.request('GET', `/backend/conversation/research/${id}/canvas`)).body.versions[0];
  const twice = 'Solid-state cells are safer.';
  t.is((await user.request('PUT', `/backend/conversation/research/${id}/canvas`, { content: `${v1.content.trimEnd()}\n\n${twice}\n\n- Point: ${twice}\n`, from_version: 1 })).status, 200);

  const { page, pageErrors } = await signedInPage(t, browser, user.token!);
  await page.addInitScript(() => {
    localStorage.setItem('app_language', 'en');
    localStorage.setItem('guidance_enabled', 'false');
  });
  await page.goto(`${app.url}/research?conversation_id=${id}`);
  await page.getByText('Connected').waitFor();
  const doc = page.locator('.canvas-doc .ProseMirror');
  await doc.waitFor();
  await page.waitForFunction(() => document.querySelector('.version-select')?.textContent?.includes('v2'));

  // The second "Solid-state cells are safer." is selected and rewritten; the first stays.
  await selectInCanvas(page, twice, { last: true });
  const popover = page.locator('form.edit-popover');
  await popover.getByRole('textbox').fill('replace "safer" with "more stable"');
  await popover.getByRole('button', { name: 'Edit' }).click();
  await page.waitForFunction(() => document.querySelector('.version-select')?.textContent?.includes('v3'));
  const v3 = (await user.request('GET', `/backend/conversation/research/${id}/canvas`)).body.versions.at(-1).content as string;
  t.is(v3.split(twice).length - 1, 1, 'one of the two sentences is left as it was');
  t.true(v3.trimEnd().endsWith(`- Point: ${twice.replace('safer', 'more stable')}`), 'the second one, the one selected, changed');

  // Rename: sidebar and header at once.
  const row = page.locator('.session-list:not(.cloud) .session-item').first();
  await row.getByRole('button', { name: 'Rename' }).click();
  await row.getByRole('textbox', { name: 'Rename' }).fill('Battery safety review');
  await beforeTheServerAnswers(page, { method: 'PUT', pathEnd: '/title' }, async () => {
    await page.keyboard.press('Enter');
    await page.locator('.workspace-title', { hasText: 'Battery safety review' }).waitFor();
  });

  // Unlock the layout and drag the canvas's tab to the left drop zone.
  await page.getByRole('button', { name: 'Unlock layout (drag panels)' }).click();
  const tab = page.locator('.lm_tab', { hasText: 'Canvas' }).first();
  await tab.waitFor();
  const before = (await page.locator('.lm_stack', { has: tab }).boundingBox())!;
  const layout = (await page.locator('.workspace-layout').boundingBox())!;
  const tabBox = (await tab.boundingBox())!;
  await page.mouse.move(tabBox.x + tabBox.width / 2, tabBox.y + tabBox.height / 2);
  await page.mouse.down();
  await page.mouse.move(tabBox.x + 40, tabBox.y + 40, { steps: 5 });
  await page.mouse.move(layout.x + 30, layout.y + layout.height / 2, { steps: 10 });
  await page.mouse.up();
  const moved = (await page.locator('.lm_stack', { has: page.locator('.lm_tab', { hasText: 'Canvas' }) }).first().boundingBox())!;
  t.true(moved.x < before.x, `the canvas moved to the left (${before.x} → ${moved.x})`);

  // A reload finds it all as it was.
  await page.reload();
  await page.getByText('Connected').waitFor();
  await page.locator('.workspace-title', { hasText: 'Battery safety review' }).waitFor();
  await page.waitForFunction(() => document.querySelector('.version-select')?.textContent?.includes('v3'));
  const restored = (await page.locator('.lm_stack', { has: page.locator('.lm_tab', { hasText: 'Canvas' }) }).first().boundingBox())!;
  t.true(restored.x < before.x, 'the canvas is still on the left');
  await screenshot(page, 'journey-en-restored');

  // Out of budget: the question stays and the reason is in English.
  t.is((await admin.request('PUT', `/backend/auth/admin/users/${(user as Client & { userId: string }).userId}/token-limit`, { token_level_limit: 0 })).status, 200);
  await page.getByRole('textbox', { name: 'Message' }).fill('Add a paragraph on cost');
  await page.keyboard.press('Enter');
  await page.locator('.message-user .bubble', { hasText: 'Add a paragraph on cost' }).waitFor();
  await page.locator('.stream-error', { hasText: 'Your token allowance is used up' }).waitFor();
  await screenshot(page, 'journey-en-out-of-budget');
  t.deepEqual(pageErrors, []);
});

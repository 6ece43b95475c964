/**
 * The composer's file upload in a real browser, in zh and en: while a file goes up the button is
 * busy and takes no other; an accepted file shows as a chip, a refused one (an .exe) shows the spec's
 * 上传失败 in the reader's language and leaves the button ready again. Serves frontend/dist: run
 * `npm run build` first.
 */
import test from 'ava';
import type { Route } from 'playwright-core';
import { browserSuite, newUserOnResearch, screenshot } from '../support/browser.ts';

const suite = browserSuite();

const WORDS = {
  zh: { upload: '上传文件', failed: '上传失败' },
  en: { upload: 'Upload a file', failed: 'Upload failed' },
} as const;

for (const language of ['zh', 'en'] as const) {
  test.serial(`${language}: a file goes up from the composer, busy meanwhile; a refused one says so`, async (t) => {
    const { page, pageErrors } = await newUserOnResearch(t, suite, `uploader-${language}`, language);
    const words = WORDS[language];
    const button = page.locator('.composer-panel').getByRole('button', { name: words.upload });

    // The first upload is held at the network until the busy button has been seen.
    let held: (route: Route) => void = () => undefined;
    const arrived = new Promise<Route>((resolve) => (held = resolve));
    await page.route('**/conversation/v2/research/upload_file', (route) => held(route), { times: 1 });
    const chooser = page.waitForEvent('filechooser');
    await button.click();
    await (await chooser).setFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('固态电池使用固态电解质取代液态电解液。\n') });
    const route = await arrived;
    t.true(await button.isDisabled(), 'busy while the file goes up');
    t.is(await button.locator('.spinner').count(), 1);
    await route.continue();
    await page.locator('.attachments .query-chip', { hasText: 'notes.txt' }).waitFor();
    await button.locator('.spinner').waitFor({ state: 'detached' });
    t.true(await button.isEnabled());

    // Refused by the server: the composer says the spec's words in the reader's language, and takes the next file.
    const refused = page.waitForEvent('filechooser');
    await button.click();
    await (await refused).setFiles({ name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
    await page.locator('.composer-alert').getByText(words.failed, { exact: true }).waitFor();
    await screenshot(page, `composer-upload-failed-${language}`);
    const input = (await page.locator('.composer-box textarea').boundingBox())!;
    const chip = (await page.locator('.attachments .query-chip').first().boundingBox())!;
    t.true(input.y + input.height <= chip.y, 'the attachment sits below the text, not over it');
    t.true(input.height >= 2 * (await page.locator('.composer-box textarea').evaluate((element) => parseFloat(getComputedStyle(element).lineHeight))), 'room for two lines of text');
    t.true(await button.isEnabled());
    t.is(await page.locator('.attachments .query-chip').count(), 1, 'only the accepted file');
    t.deepEqual(pageErrors, []);
  });
}

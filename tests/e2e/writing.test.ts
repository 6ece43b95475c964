/**
 * The writing agent in a real browser: a brief, preferences and a note become a report written
 * straight into the canvas, citing the note. Serves frontend/dist: run `npm run build` first.
 */
import test from 'ava';
import { browserSuite, screenshot, signedInPage } from '../support/browser.ts';
import { signUp } from '../support/app.ts';

const suite = browserSuite();

test('a brief and a chosen note become a report in the canvas that cites the note', async (t) => {
  const user = await signUp(suite.app.url, 'writer');
  const { body: note } = await user.request('POST', '/backend/api/notes', {
    name: '储能走访记录',
    content: '走访的三座储能电站都在评估钠离子电池。运维人员认为钠离子电池在零下二十度仍能正常放电。钠离子电池的成本比磷酸铁锂低两到三成。',
  });
  const noteId = note.id as string;
  const { page, pageErrors } = await signedInPage(t, suite.browser, user.token!);
  await page.goto(`${suite.app.url}/ai-first/writing-agent`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: '写作智能体' }).waitFor();

  await page.getByRole('button', { name: '开始写作' }).click();
  await page.getByText('请至少写 10 个字，说明要写什么').waitFor();

  await page.getByLabel('写作需求').fill('面向公司管理层写一篇简报：钠离子电池在储能电站中的低温表现和成本优势。');
  await page.getByRole('radio', { name: '简短' }).click();
  await page.getByRole('checkbox', { name: '储能走访记录' }).check();
  await screenshot(page, 'writing-brief');
  await page.getByRole('button', { name: '开始写作' }).click();

  await page.waitForURL(/\/research\?conversation_id=/);
  const doc = page.locator('.canvas-doc .ProseMirror');
  await doc.waitFor();
  await page.getByText('写作完成').first().waitFor();
  const report = await doc.innerText();
  t.true(report.includes('储能走访记录'), 'the note is among the sources');
  t.true(report.includes('零下二十度'), 'and what it says is in the report');
  t.is(await doc.getByRole('link', { name: '储能走访记录' }).getAttribute('href'), `/note?id=${noteId}`, 'the source links to the note');
  const tip = page.getByRole('button', { name: '知道了' });
  if (await tip.isVisible()) await tip.click();
  await screenshot(page, 'writing-report');
  t.deepEqual(pageErrors, []);
});

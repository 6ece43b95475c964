/**
 * PPT review in a real browser against the real server, in Chinese and English: a deck generated
 * with pptxgenjs is uploaded with the button (reviewed by a mock OpenAI-compatible model that
 * answers slowly, so the slides' reviews are seen landing one by one) and by drag and drop (reviewed
 * by the offline engine, labelled as such); a file that is not a deck is refused with the
 * catalogue's text; the review is exported as Markdown. Serves frontend/dist: run `npm run build` first.
 */
import { AxeBuilder } from '@axe-core/playwright';
import test from 'ava';
import type { Page } from 'playwright-core';
import { downloaded, screenshot, signedInPage } from '../support/browser.ts';
import { productInBrowser } from '../support/browserProduct.ts';
import { signUp } from '../support/app.ts';
import { buildDeck, mockSlideReviewer, SAMPLE_DECK } from '../support/decks.ts';
import { startMockOpenAI, type MockOpenAI } from '../support/mockOpenAI.ts';

const modelEnv: Record<string, string> = {};
let upstream: MockOpenAI | undefined;
// Serial, so it has run before the product's (concurrent) hook starts the product with the mock model configured.
test.serial.before(async () => {
  upstream = await startMockOpenAI({ reply: mockSlideReviewer(), scenario: 'slow', delayMs: 60, tokensPerChunk: 1 });
  modelEnv.LLM_BASE_URL = upstream.url;
  modelEnv.LLM_MODEL = 'mock-model';
});
test.after.always(async () => {
  await upstream?.close();
});
const withModel = productInBrowser('ppt-model', modelEnv);
const offline = productInBrowser('ppt-offline', {});

const statuses = (page: Page) => page.getByTestId('ppt-slide').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-status')));

test.serial('a deck uploaded with the button is reviewed slide by slide as the page watches, in Chinese', async (t) => {
  const user = await signUp(withModel.product.url, `ppt${Date.now().toString(36)}`);
  const { page, pageErrors } = await signedInPage(t, withModel.browser, user.token!);
  await page.goto(`${withModel.product.url}/ppt`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: 'PPT 评审', level: 1 }).waitFor();
  await page.getByText('还没有评审记录').waitFor();

  // Not a deck: refused with the catalogue's words, and nothing is listed.
  await page.locator('input[type=file]').setInputFiles({ name: '笔记.txt', mimeType: 'text/plain', buffer: Buffer.from('只是文字') });
  await page.getByText('只能评审 .pptx 演示文稿，不支持 .txt 文件').waitFor();

  const deck = await buildDeck(SAMPLE_DECK);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: '选择文件' }).click();
  await (await chooser).setFiles({ name: '季度复盘.pptx', mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', buffer: deck });
  await page.waitForURL(/\/ppt\/[0-9a-f-]{36}$/);
  await page.getByRole('heading', { name: '季度复盘.pptx' }).waitFor();

  // Seen mid-way: some slides already reviewed while others still wait.
  const seen = new Set<string>();
  for (let tries = 0; tries < 400; tries++) {
    const now = await statuses(page);
    const state = now.join(',');
    if (state.includes('reviewed') && state.includes('pending') && ![...seen].some((earlier) => earlier.includes('reviewed') && earlier.includes('pending'))) await screenshot(page, 'ppt-reviewing-zh');
    seen.add(state);
    if (now.every((status) => status === 'reviewed')) break;
    await page.waitForTimeout(50);
  }
  t.true([...seen].some((state) => state.includes('reviewed') && state.includes('pending')), `partial states seen: ${[...seen].join(' | ')}`);
  await page.getByTestId('ppt-overall').waitFor();
  t.is(await page.getByTestId('ppt-engine').innerText(), '模型评审');
  t.true(await page.getByText('第 1 页：先讲结论，再给数据').isVisible());
  t.true(await page.getByText('演讲者备注：开场：先讲结论。').isVisible());
  t.regex(await page.getByTestId('ppt-overall').innerText(), /4 页幻灯片平均得分 73/);
  t.true(await page.getByRole('link', { name: /季度复盘\.pptx/ }).isVisible(), 'listed under my reviews');
  await screenshot(page, 'ppt-review-zh');
  t.deepEqual(pageErrors, []);
});

test.serial('a deck dropped on the page is reviewed by the offline engine, labelled, and exported, in English', async (t) => {
  const user = await signUp(offline.product.url, `pptoff${Date.now().toString(36)}`);
  const { page, pageErrors } = await signedInPage(t, offline.browser, user.token!, { acceptDownloads: true });
  await page.goto(`${offline.product.url}/ppt`, { waitUntil: 'networkidle' });
  await page.evaluate(() => localStorage.setItem('app_language', 'en'));
  await page.reload({ waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: 'Presentation review', level: 1 }).waitFor();

  const deck = await buildDeck([
    { title: 'Quarterly Results', bullets: ['Revenue up 18%', 'Churn down to 3%'], notes: 'Open with the result.', images: 1 },
    { title: 'Market share is stable.', bullets: ['Competitor A cut prices', 'Competitor A cut prices', 'Our share held at at 12%'] },
    { bullets: ['A slide without a title'] },
  ]);
  const dataTransfer = await page.evaluateHandle((base64) => {
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], 'results.pptx', { type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' }));
    return transfer;
  }, deck.toString('base64'));
  await page.getByTestId('ppt-drop').dispatchEvent('drop', { dataTransfer });
  await page.waitForURL(/\/ppt\/[0-9a-f-]{36}$/);
  await page.getByTestId('ppt-overall').waitFor();
  t.is(await page.getByTestId('ppt-engine').innerText(), 'Reviewed by the offline engine');
  t.true(await page.getByRole('note').getByText(/rule-based checks by the offline engine/).isVisible());
  t.true(await page.getByText('Possibly typed twice: "at"').isVisible());
  t.true(await page.getByText('No title: the audience cannot tell what this slide is for').isVisible());
  await screenshot(page, 'ppt-review-en');
  const { violations } = await new AxeBuilder({ page }).analyze();
  t.deepEqual(violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`), [], 'the review page passes axe');

  await page.getByRole('button', { name: 'Export' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Markdown' }).click();
  const file = await download;
  t.is(file.suggestedFilename(), 'results-review.md');
  const markdown = (await downloaded(file)).toString('utf8');
  t.true(markdown.includes('> Reviewed by: the offline engine (rule-based checks, no model)'));
  t.deepEqual(pageErrors, []);
});

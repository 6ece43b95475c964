/**
 * A long conversation opens at its newest exchanges and loads the earlier ones on demand, 20 at a
 * time (the button, or scrolling up to it), keeping the reader where they were; the shared view the
 * same (zh and en).
 * Serves frontend/dist: run `npm run build` first.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { client, signUp } from '../support/app.ts';
import { browserSuite, screenshot, signedInPage } from '../support/browser.ts';
import { appendExchanges } from '../support/research.ts';

const suite = browserSuite();
const EXCHANGES = 45;

const WORDS = {
  zh: { question: (n: number) => `第 ${n} 个问题`, reply: (n: number) => `第 ${n} 个回答：固态电池用固态电解质取代了液态电解液。`, load: '加载更早的消息', connected: '已连接', readOnly: '只读' },
  en: { question: (n: number) => `Question ${n}`, reply: (n: number) => `Answer ${n}: solid-state batteries replace the liquid electrolyte with a solid one.`, load: 'Load earlier messages', connected: 'Connected', readOnly: 'Read-only' },
} as const;

const questionsShown = (page: Page) => page.locator('.message-user .bubble').allInnerTexts();

async function seeded(language: 'zh' | 'en') {
  const words = WORDS[language];
  const user = await signUp(suite.app.url, `history${language}${Date.now().toString(36)}`);
  const sessionId = (await user.request('POST', '/backend/conversation/sessions', { client_id: 'history-e2e' })).body.session_id as string;
  await appendExchanges(suite.app.services.events, sessionId, EXCHANGES, (index) => words.reply(index + 1), (index) => words.question(index + 1));
  await suite.app.settle();
  return { user, sessionId };
}

/** The newest 20 questions, then 20 more by the button, then the last 5 by scrolling up: all 45, in order, once. */
async function walkBack(t: { deepEqual(a: unknown, b: unknown, message?: string): void; is(a: unknown, b: unknown, message?: string): void }, page: Page, language: 'zh' | 'en', shot: string) {
  const words = WORDS[language];
  const all = Array.from({ length: EXCHANGES }, (_, index) => words.question(index + 1));
  await page.getByText(words.question(EXCHANGES), { exact: true }).waitFor();
  t.deepEqual(await questionsShown(page), all.slice(-20), 'the newest 20 exchanges first');
  const newest = page.getByText(words.reply(EXCHANGES));
  await newest.waitFor();
  t.is(await newest.isVisible(), true);
  await screenshot(page, `${shot}-newest`);

  const load = page.getByRole('button', { name: words.load });
  // The reader sits at the bottom: the way to earlier exchanges is above, out of view until scrolled to.
  await load.click();
  // At least the page of 20 the button asked for: on a slow machine the reader may be at the top a
  // moment before their place is restored, and scrolling there loads the last 5 too.
  await page.waitForFunction((count) => document.querySelectorAll('.message-user').length >= count, 40);
  const shown = await questionsShown(page);
  t.deepEqual(shown, all.slice(-shown.length));
  // What the reader looked at (the top of the page before) is still in view after the page above arrived.
  await page.getByText(words.question(EXCHANGES - 19), { exact: true }).waitFor();
  t.is(await page.getByText(words.question(EXCHANGES - 19), { exact: true }).isVisible(), true, 'the reader stays where they were');
  await screenshot(page, `${shot}-earlier`);

  await page.locator('.chat-stream').evaluate((element) => element.scrollTo({ top: 0 }));
  await page.waitForFunction((count) => document.querySelectorAll('.message-user').length === count, EXCHANGES);
  t.deepEqual(await questionsShown(page), all, 'every exchange once, in order');
  await load.waitFor({ state: 'detached' });
  // The last page went above the reader, who stayed where they were; the start is above them.
  await page.locator('.chat-stream').evaluate((element) => element.scrollTo({ top: 0 }));
  await page.getByText(words.question(1), { exact: true }).waitFor();
  await screenshot(page, `${shot}-start`);
}

for (const language of ['zh', 'en'] as const) {
  test.serial(`${language}: a long conversation shows its newest exchanges and loads earlier ones, the owner's and the shared view`, async (t) => {
    const words = WORDS[language];
    const { user, sessionId } = await seeded(language);
    const { page, pageErrors } = await signedInPage(t, suite.browser, user.token!);
    await page.addInitScript((lang) => {
      localStorage.setItem('app_language', lang);
      localStorage.setItem('guidance_enabled', 'false');
    }, language);
    await page.goto(`${suite.app.url}/research?conversation_id=${sessionId}`);
    await page.getByText(words.connected).waitFor();
    await walkBack(t, page, language, `history-${language}`);

    const shareId = (await user.request('POST', '/backend/conversation/sessions/share', { session_id: sessionId, title: 'history', description: '', expires_days: null })).body.share_id as string;
    t.is((await client(suite.app.url).request('GET', `/backend/conversation/share/${shareId}?limit=20`)).body.messages.length, 40);
    const visitor = await suite.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: language === 'zh' ? 'zh-CN' : 'en-US' });
    t.teardown(() => visitor.close());
    await visitor.addInitScript((lang) => localStorage.setItem('app_language', lang), language);
    const shared = await visitor.newPage();
    shared.on('pageerror', (error) => pageErrors.push(error.message));
    await shared.goto(`${suite.app.url}/share/conversation/${shareId}`);
    await shared.getByText(words.readOnly).first().waitFor();
    await walkBack(t, shared, language, `history-shared-${language}`);
    t.deepEqual(pageErrors, []);
  });
}

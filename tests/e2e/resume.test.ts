/**
 * Continuing a reply in the browser: a paused answer goes on from where it stopped at one click, and
 * an answer the model service broke off is retried from there, in zh and in en. The model is a local
 * OpenAI-compatible server behind a switch that makes it answer 503 while the test says it is down.
 */
import test, { type ExecutionContext } from 'ava';
import type { Page } from 'playwright-core';
import { browserSuite, newUserOnResearch, screenshot } from '../support/browser.ts';
import { startAppOnModel } from '../support/app.ts';
import type { ChatBody } from '../support/mockOpenAI.ts';
import { heldCall, type GatewayAnswer } from '../support/modelGateway.ts';
import { straightResearch, writesReport } from '../support/researchModel.ts';

const ANSWER = `${'固态电池用固体电解质代替电解液，不易燃，能量密度也更高。'.repeat(12)}结论：更安全。`;

let down = false;
const OVERLOADED = { status: 503, body: { error: { message: 'The server is overloaded', type: 'server_error' } } };

/**
 * Armed by a test that pauses a research while it writes: the report's first model call is held
 * after its first sentences until the test has paused, so the report cannot be finished before the
 * pause button is clicked (a loaded machine let it finish first, and the button was gone).
 */
const writing = heldCall(writesReport, 8_000);
const gate = (body: ChatBody): GatewayAnswer => (down ? OVERLOADED : (writing.answer(body) ?? { pass: true }));

const suite = browserSuite(() => {
  const research = straightResearch({ description: '安全性对比', queries: ['固态电池 安全'] }, ANSWER);
  // Asked to go on after a partial answer, the model writes the rest of it, as a real one would.
  const reply = (body: ChatBody) => {
    const messages = body.messages ?? [];
    const partial = messages.at(-1)?.content.includes('继续') ? messages.at(-2)?.content : undefined;
    return partial && ANSWER.startsWith(partial) ? ANSWER.slice(partial.length) : research(body);
  };
  return startAppOnModel({ scenario: 'slow', delayMs: 40, reply }, {}, { gate });
});

const WORDS = {
  zh: { research: '深度研究', pausedWriting: '已暂停：1 个研究步骤已完成，正在写报告', chat: '通用对话', input: '输入消息', pause: '暂停', paused: '回答已暂停', resume: '继续', retry: '从中断处重试' },
  en: { research: 'Deep research', pausedWriting: 'Paused while writing the report, after all research steps (1)', chat: 'General chat', input: 'Message', pause: 'Pause', paused: 'The answer was paused', resume: 'Continue', retry: 'Retry from where it stopped' },
} as const;

/** A new user's page in `mode`; first-visit tips off unless `tips` (the research test keeps them on, to show none covers the Continue button). */
async function chatPage(t: ExecutionContext, language: 'zh' | 'en', name: string, mode: 'chat' | 'research' = 'chat', tips = false): Promise<{ page: Page; pageErrors: string[] }> {
  const opened = await newUserOnResearch(t, suite, name, language, { tips });
  await opened.page.getByRole('radio', { name: WORDS[language][mode] }).click();
  return opened;
}

/** The last reply's text, without the agent's name above it. */
const replyText = async (page: Page) => (await page.locator('.message-assistant').last().locator('.assistant-body').innerText()).split('\n').slice(1).join('\n').trim();

for (const language of ['zh', 'en'] as const) {
  const words = WORDS[language];

  test(`${language}: a paused answer goes on from where it stopped at one click, and the button leaves`, async (t) => {
    const { page, pageErrors } = await chatPage(t, language, `resumer${language}`);
    await page.getByRole('textbox', { name: words.input }).fill('固态电池安全吗？');
    await page.keyboard.press('Enter');
    await page.locator('.message-assistant').last().getByText('固态电池用固体电解质').first().waitFor();
    await page.getByRole('button', { name: words.pause }).click();
    await page.getByText(words.paused).waitFor();
    const partial = await replyText(page);
    t.false(partial.includes('结论：更安全。'), 'stopped before the end');
    const resume = page.getByRole('button', { name: words.resume, exact: true });
    await resume.waitFor();
    await screenshot(page, `resume-paused-${language}`);
    await resume.click();
    await page.locator('.message-assistant').last().getByText('结论：更安全。').waitFor();
    await page.waitForFunction(() => !document.querySelector('.message-assistant.streaming'));
    const continued = await replyText(page);
    t.false(continued.startsWith('固态电池用固体电解质'), 'the continuation does not start over');
    t.is(await page.getByRole('button', { name: words.resume, exact: true }).count(), 0, 'nothing left to continue');
    await screenshot(page, `resume-continued-${language}`);
    t.deepEqual(pageErrors, []);
  });

  test.serial(`${language}: an answer the model service broke off is retried from where it failed`, async (t) => {
    const { page, pageErrors } = await chatPage(t, language, `retrier${language}`);
    down = true;
    try {
      await page.getByRole('textbox', { name: words.input }).fill('固态电池贵吗？');
      await page.keyboard.press('Enter');
      const retry = page.getByRole('button', { name: words.retry });
      await retry.waitFor();
      await screenshot(page, `resume-failed-${language}`);
      down = false;
      await retry.click();
      await page.locator('.message-assistant').last().getByText('结论：更安全。').waitFor();
    } finally {
      down = false;
    }
    t.is(await page.getByRole('button', { name: words.retry }).count(), 0);
    await screenshot(page, `resume-retried-${language}`);
    t.deepEqual(pageErrors, []);
  });

  // Serial: the held report call is told apart by its prompt only, so one such test runs at a time.
  test.serial(`${language}: a research paused while it writes says where it stands, and goes on with the section it was in`, async (t) => {
    const { page, pageErrors } = await chatPage(t, language, `researchresumer${language}`, 'research', true);
    const release = writing.arm();
    try {
      await page.getByRole('textbox', { name: words.input }).fill('固态电池安全吗？');
      await page.keyboard.press('Enter');
      await page.locator('.canvas-doc').getByText('固态电池用固体电解质').first().waitFor();
      await page.getByRole('button', { name: words.pause }).click();
      await page.getByText(words.pausedWriting).waitFor();
    } finally {
      release();
    }
    await screenshot(page, `resume-research-paused-${language}`);
    await page.getByRole('button', { name: words.resume, exact: true }).click();
    await page.locator('.card.feedback').waitFor();
    const report = await page.locator('.canvas-doc').innerText();
    const sentences = report.split('固态电池用固体电解质代替电解液').length - 1;
    t.is(sentences, 24, 'both sections whole: the paused one continued, not written again');
    await screenshot(page, `resume-research-continued-${language}`);
    t.deepEqual(pageErrors, []);
  });
}

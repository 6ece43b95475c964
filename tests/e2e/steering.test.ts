/**
 * Steering a research from the composer, in zh and en: a research the day's budget may not cover is
 * asked about before it starts (and goes on at the user's word), and while it works the composer
 * takes an instruction beside Pause; the instruction shows in the chat and the research goes on to
 * its report. The model is a local OpenAI-compatible server that writes slowly.
 */
import test from 'ava';
import { browserSuite, newUserOnResearch, screenshot } from '../support/browser.ts';
import { startAppOnModel } from '../support/app.ts';
import { straightResearch } from '../support/researchModel.ts';

// Long enough for an instruction to land while it streams, short enough that the run ends soon after.
const ANSWER = '固态电池用固体电解质代替电解液，不易燃，能量密度也更高[1]。'.repeat(8);

// Every run is reckoned dearer than a new user's day, so the composer asks first.
const suite = browserSuite(() =>
  startAppOnModel({ scenario: 'slow', delayMs: 15, reply: straightResearch({ description: '安全性对比', queries: ['固态电池 安全'] }, ANSWER) }, { RESEARCH_TOKENS_ESTIMATE: '100000000' }),
);

const WORDS = {
  zh: { input: '输入消息', send: '发送', budget: '仍要开始吗', go: '仍然开始', notNow: '先不开始', pause: '暂停', instruct: '补充要求', steerHint: '研究进行中' },
  en: { input: 'Message', send: 'Send', budget: 'Start anyway?', go: 'Start anyway', notNow: 'Not now', pause: 'Pause', instruct: 'Instruct', steerHint: 'Research in progress' },
} as const;

for (const language of ['zh', 'en'] as const) {
  const words = WORDS[language];

  test(`${language}: a research the budget may not cover is asked about first; while it works an instruction goes beside Pause`, async (t) => {
    const { page, pageErrors } = await newUserOnResearch(t, suite, `steerer${language}`, language);
    const box = page.getByRole('textbox', { name: words.input });
    await box.fill('对比固态电池和液态锂电池的安全性');
    await page.getByRole('button', { name: words.send, exact: true }).click();
    const asked = page.getByRole('alert').filter({ hasText: words.budget });
    await asked.waitFor();
    await screenshot(page, `steering-budget-${language}`);
    await page.getByRole('button', { name: words.notNow }).click();
    await asked.waitFor({ state: 'detached' });
    t.is(await box.inputValue(), '对比固态电池和液态锂电池的安全性', 'not now keeps the question');

    await page.getByRole('button', { name: words.send, exact: true }).click();
    await page.getByRole('button', { name: words.go }).click();
    const pause = page.getByRole('button', { name: words.pause });
    await pause.waitFor();
    const instruct = page.getByRole('button', { name: words.instruct });
    t.true(await instruct.isVisible(), 'an instruction can be sent while it works');
    t.true((await box.getAttribute('placeholder'))!.startsWith(words.steerHint));
    await box.fill('只看低温性能');
    await instruct.click();
    await page.locator('.message-user').filter({ hasText: '只看低温性能' }).waitFor();
    t.is(await page.getByRole('alert').count(), 0, 'accepted, not refused');
    t.is(await page.locator('.message-assistant').count(), 1, 'no second reply is waited for');
    await screenshot(page, `steering-instruct-${language}`);
    await page.getByRole('button', { name: words.send, exact: true }).waitFor();
    t.is(await page.locator('.message-assistant').count(), 1, 'the instruction started no reply of its own');
    t.deepEqual(pageErrors, []);
  });
}

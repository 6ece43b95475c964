/**
 * The plan card in the browser, in zh and en (issue 29 items 3 and 6). It shows every step change:
 * the steps are researched side by side, so the last ones finish together, just before the report
 * starts and the canvas opens — which mounts the conversation panel afresh; the card used to stay on
 * "step 1 in progress" and then jump to "all done". And a proposed plan waits on a visible countdown
 * that starts it by itself, or that an edit stops: the user removes a step, adds one with its own
 * search, and starts the edited plan, which is the one researched. Serves frontend/dist: run
 * `npm run build` first.
 */
import test from 'ava';
import { Corpus, SOLID_STATE } from '@scriptorium/workers/agents/deep_cognition/harness';
import { browserSuite, newUserOnResearch, screenshot } from '../support/browser.ts';
import { startAppOnModel } from '../support/app.ts';
import type { ChatBody } from '../support/mockOpenAI.ts';
import { plannedResearch, SOLID_STATE_PLAN } from '../support/researchModel.ts';

const PROSE = '固态电池使用固态电解质取代液态电解液，能量密度更高，安全性也更好。'.repeat(4);
const reply = plannedResearch(SOLID_STATE_PLAN, PROSE);

/** Long enough to act on a plan before it starts, as a user would. */
const COUNTDOWN_MS = 15_000;
const asked: string[] = [];

const suite = browserSuite(() => {
  const corpus = new Corpus([...SOLID_STATE]);
  return startAppOnModel(
    {
      scenario: 'slow',
      delayMs: 20,
      reply: (body: ChatBody) => {
        asked.push(body.messages?.map((message) => message.content).join('\n') ?? '');
        return reply(body);
      },
    },
    {},
    { agents: { webSearch: corpus, localSearch: corpus, fetcher: corpus, planCountdownMs: COUNTDOWN_MS } },
  );
});

const WORDS = {
  zh: { research: '深度研究', input: '输入消息', countdown: /\d+ 秒后开始研究/, waiting: '计划等待你确认', edit: '编辑计划', remove: '删除第 2 步', add: '添加步骤', step: '第 3 步', queries: '第 3 步的检索词', saveAndStart: '保存并开始研究' },
  en: { research: 'Deep research', input: 'Message', countdown: /Research starts in \d+ s/, waiting: 'The plan waits for you', edit: 'Edit plan', remove: 'Remove step 2', add: 'Add step', step: 'Step 3', queries: 'Search queries of step 3', saveAndStart: 'Save and start research' },
} as const;

for (const language of ['zh', 'en'] as const) {
  test.serial(`${language}: the live plan card shows each step's change, one after another`, async (t) => {
    t.timeout(300_000);
    const { page, pageErrors } = await newUserOnResearch(t, suite, `watcher-${language}`, language);
    // Every state the card is drawn in, as the page draws it.
    await page.evaluate(() => {
      const shown: string[] = [];
      (window as unknown as { planStates: string[] }).planStates = shown;
      new MutationObserver(() => {
        const card = document.querySelector('.card.plan');
        if (!card) return;
        const state = [...card.querySelectorAll('.plan-step')].map((step) => step.className.replace('plan-step ', '')).join(',');
        if (shown.at(-1) !== state) shown.push(state);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
    });
    await page.getByRole('radio', { name: WORDS[language].research }).click();
    await page.getByRole('textbox', { name: WORDS[language].input }).fill('固态电池的技术路线和产业化进展');
    await page.keyboard.press('Enter');
    const card = page.locator('.card.plan');
    // The first step in progress, while the steps are researched.
    await card.locator('.plan-step:nth-child(1).in_progress').waitFor();
    await card.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await screenshot(page, `plan-live-step-${language}`);
    await card.locator('.plan-step:nth-child(3).completed').waitFor();
    await card.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await screenshot(page, `plan-live-done-${language}`);
    const shown = await page.evaluate(() => (window as unknown as { planStates: string[] }).planStates);
    t.deepEqual(shown, [
      'not_started,not_started,not_started',
      'in_progress,not_started,not_started',
      'completed,in_progress,not_started',
      'completed,completed,in_progress',
      'completed,completed,completed',
    ]);
    t.deepEqual(pageErrors, []);
  });
}

for (const language of ['zh', 'en'] as const) {
  test.serial(`${language}: a plan counts down, an edit stops it, and the edited plan is the one researched`, async (t) => {
    t.timeout(300_000);
    const words = WORDS[language];
    const { page, pageErrors } = await newUserOnResearch(t, suite, `editor-${language}`, language);
    await page.getByRole('radio', { name: words.research }).click();
    await page.getByRole('textbox', { name: words.input }).fill('固态电池的技术路线和产业化进展');
    await page.keyboard.press('Enter');
    const card = page.locator('.card.plan');
    await card.getByText(words.countdown).waitFor();
    await card.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await screenshot(page, `plan-countdown-${language}`);

    await card.getByRole('button', { name: words.edit }).click();
    await card.getByRole('button', { name: words.remove }).click();
    await card.getByRole('button', { name: words.add }).click();
    await card.getByLabel(words.step, { exact: true }).fill('评估固态电池的成本');
    await card.getByLabel(words.queries).fill('固态电池 成本，固态电池 降本');
    await card.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await screenshot(page, `plan-editing-${language}`);

    await card.getByRole('button', { name: words.saveAndStart }).click();
    await card.locator('.plan-step:nth-child(3).completed').waitFor();
    t.deepEqual(await card.locator('.plan-step').allInnerTexts(), ['梳理固态电池的技术路线', '评估产业化进展', '评估固态电池的成本']);
    t.true(asked.some((request) => request.includes('现在撰写这一节：评估固态电池的成本')), 'the added step is written');
    t.false(asked.some((request) => request.includes(`现在撰写这一节：比较各路线的安全性`) && request.includes('评估固态电池的成本')), 'the removed one is not');
    await card.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await screenshot(page, `plan-edited-done-${language}`);
    t.deepEqual(pageErrors, []);
  });
}

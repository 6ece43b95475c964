/**
 * Redirecting a paused research in the browser, in zh and en (issue 29 item 2): the research is
 * paused while it writes its report, the user sends a narrowing message, and the same research goes
 * on, on its original question, narrowed as asked, with no empty section. The model is a local
 * OpenAI-compatible server that writes slowly and plans for the instruction when it is given one.
 * Serves frontend/dist: run `npm run build` first.
 */
import test from 'ava';
import { Corpus, SOLID_STATE } from '@scriptorium/workers/agents/deep_cognition/harness';
import { ANALYSE_PROMPT, CITATIONS_PROMPT, JUDGE_PROMPT, PLAN_PROMPT, REFLECT_PROMPT } from '@scriptorium/workers/agents/deep_cognition/prompts';
import { browserSuite, newUserOnResearch, screenshot } from '../support/browser.ts';
import { startAppOnModel } from '../support/app.ts';
import type { ChatBody } from '../support/mockOpenAI.ts';
import { heldCall } from '../support/modelGateway.ts';
import { writesReport } from '../support/researchModel.ts';

const QUESTION = '固态电池的技术路线和产业化进展';
const INSTRUCTION = '只看低温性能，其他的不用管。';
const BROAD = {
  title: '固态电池技术路线与产业化',
  steps: [
    { description: '梳理固态电池的技术路线', heading: '技术路线', queries: ['固态电池 技术路线'] },
    { description: '比较各路线的安全性', heading: '安全性', queries: ['固态电池 安全性'] },
    { description: '评估产业化进展', heading: '产业化', queries: ['固态电池 产业化 量产'] },
  ],
};
const NARROW = {
  title: '固态电池的低温性能',
  steps: [
    { description: '固态电池在低温下的容量保持', heading: '低温容量', queries: ['固态电池 低温 容量'] },
    { description: '低温下的离子电导率', heading: '低温电导率', queries: ['固态电池 低温 电导率'] },
  ],
};
const PROSE = '固态电池使用固态电解质取代液态电解液，能量密度更高，安全性也更好[1]。'.repeat(6);
const COLD_FACTS = '在零下二十度时，固态电池的容量保持率仍在八成左右。固态电解质的离子电导率随温度下降而降低。';
const COLD = '在零下二十度时，固态电池的容量保持率仍在八成左右[1]。固态电解质的离子电导率随温度下降而降低[1]。';
const COLD_PAGE = { title: '固态电池的低温表现', url: 'https://example.test/solid-state-cold', text: `${COLD_FACTS}低温测试在零下二十度的恒温箱中进行。` };

const reply = (body: ChatBody) => {
  const messages = body.messages ?? [];
  const system = messages[0]?.content ?? '';
  const asked = messages.map((message) => message.content).join('\n');
  if (system === ANALYSE_PROMPT) return JSON.stringify({ analysis: '问题已经具体', status: '开始研究', goal: '写报告', needs_clarification: false });
  if (system === PLAN_PROMPT) return JSON.stringify(asked.includes('只看低温性能') ? NARROW : BROAD);
  if (system === REFLECT_PROMPT) return JSON.stringify({ answered: true, reason: '', follow_up_queries: [] });
  if (system === JUDGE_PROMPT) return JSON.stringify({ useful: [1, 2, 3, 4] });
  if (system === CITATIONS_PROMPT) return JSON.stringify({ citation_checks: [] });
  if (system.startsWith('为下面的对话起一个简短的标题')) return '固态电池研究';
  return asked.includes('只看低温性能') ? COLD : PROSE;
};

/** The report's first model call, held after its first sentences until the test has paused (else a loaded machine can finish the report first). */
const writing = heldCall(writesReport, 6_000);

const suite = browserSuite(() => {
  const corpus = new Corpus([...SOLID_STATE, COLD_PAGE]);
  return startAppOnModel({ scenario: 'slow', delayMs: 30, reply }, {}, { agents: { webSearch: corpus, localSearch: corpus, fetcher: corpus }, gate: (body) => writing.answer(body) ?? { pass: true } });
});

const WORDS = {
  zh: { research: '深度研究', input: '输入消息', redirect: '调整方向', hint: '研究已暂停', pause: '暂停', paused: '已暂停：3 个研究步骤已完成，正在写报告', written: '报告已写好，接下来怎么做？', resume: '继续', replanned: '重新制定研究计划，已读的资料继续使用' },
  en: { research: 'Deep research', input: 'Message', redirect: 'Redirect', hint: 'Research paused', pause: 'Pause', paused: 'Paused while writing the report, after all research steps (3)', written: 'The report is written. What next?', resume: 'Continue', replanned: 'the research is planned again, keeping the sources already read' },
} as const;

for (const language of ['zh', 'en'] as const) {
  const words = WORDS[language];

  test.serial(`${language}: a research paused while it writes is redirected by a message: the same research, on its question, narrowed, no empty section`, async (t) => {
    const { page, pageErrors } = await newUserOnResearch(t, suite, `redirector-${language}`, language);
    await page.getByRole('radio', { name: words.research }).click();
    const box = page.getByRole('textbox', { name: words.input });
    const canvas = page.locator('.canvas-doc .ProseMirror');
    const release = writing.arm();
    try {
      await box.fill(QUESTION);
      await page.keyboard.press('Enter');
      await canvas.getByText('固态电池使用固态电解质').first().waitFor();
      await page.getByRole('button', { name: words.pause }).click();
      await page.getByText(words.paused).waitFor();
    } finally {
      release();
    }
    await screenshot(page, `redirect-paused-${language}`);

    t.true((await box.getAttribute('placeholder'))!.startsWith(words.hint), 'the composer says a message now redirects the paused research');
    await box.fill(INSTRUCTION);
    await page.getByRole('button', { name: words.redirect, exact: true }).click();
    const instruction = page.locator('.message-user').filter({ hasText: INSTRUCTION });
    await instruction.waitFor();
    await instruction.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await screenshot(page, `redirect-instructed-${language}`);
    await canvas.getByRole('heading', { name: '低温电导率' }).waitFor();
    await page.getByText(words.written).waitFor();
    await screenshot(page, `redirect-narrowed-${language}`);

    const report = await canvas.innerText();
    t.true(report.includes(QUESTION), 'on the original question');
    const headings = await canvas.locator('h2').allInnerTexts();
    // The report is in the question's language (Chinese), whatever the page's.
    t.deepEqual(headings.slice(0, 4), ['研究问题', '摘要', '低温容量', '低温电导率'], 'narrowed as asked');
    t.false(report.includes('模型没有为本节写出内容'), 'no empty section');
    t.false(report.includes('技术路线\n'), 'the old direction is not kept');
    t.is(await page.locator('.message-assistant').last().getByText(words.replanned).count(), 1, 'the chat says what the instruction changed');
    t.is(await page.getByRole('button', { name: words.resume, exact: true }).count(), 0, 'the paused research is not offered again: the redirect continued it');
    t.deepEqual(pageErrors, []);
  });
}

/**
 * What a reader sees when the model service misbehaves during deep research, in zh and in en: a
 * section whose stream breaks is rolled back and written again with a note, a long "try again later"
 * makes the research wait and say until when, and a request the provider refuses ends the reply with
 * the provider's reason and a retry that finishes the report. The model is a local OpenAI-compatible
 * server behind a gateway that injects each fault into the first section request of the question
 * that names it.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { sectionPrompt } from '@scriptorium/workers/agents/deep_cognition/prompts';
import { browserSuite, newUserOnResearch, screenshot } from '../support/browser.ts';
import { startAppOnModel } from '../support/app.ts';
import type { ChatBody } from '../support/mockOpenAI.ts';
import type { GatewayAnswer } from '../support/modelGateway.ts';
import { straightResearch } from '../support/researchModel.ts';

const PROSE = '固态电池使用固体电解质，热失控风险更低，这一点已有多项测试支持。'.repeat(6);

type Fault = 'cut' | 'wait' | 'refuse';
/** The fault a question asks for, by a word in it; each is played once per question, on its first section. */
const FAULT_WORDS: Record<Fault, RegExp> = { cut: /断流|stream breaks/, wait: /限流|rate limited/, refuse: /拒绝|refused/ };
const played = new Set<string>();

const FAULTS: Record<Fault, GatewayAnswer> = {
  cut: { pass: true, cutAfterBytes: 1_200 },
  wait: { status: 429, headers: { 'retry-after': '31' }, body: { error: { message: 'Rate limit reached', type: 'rate_limit_error' } } },
  refuse: { status: 400, body: { error: { message: 'Invalid max_tokens value, the valid range of max_tokens is [1, 8192]', type: 'invalid_request_error', code: 'invalid_request_error' } } },
};

const suite = browserSuite(() => {
  const model = { scenario: 'slow' as const, delayMs: 5, reply: straightResearch({ description: '安全性对比', queries: ['固态电池 安全'] }, PROSE) };
  const gate = (request: ChatBody): GatewayAnswer => {
    const system = request.messages?.[0]?.content ?? '';
    const asked = request.messages?.find((message) => message.role === 'user')?.content ?? '';
    const fault = (Object.keys(FAULT_WORDS) as Fault[]).find((name) => FAULT_WORDS[name].test(asked));
    const section = system === sectionPrompt('zh') || system === sectionPrompt('en');
    const key = `${fault}:${asked.slice(0, 80)}`;
    if (!fault || !section || played.has(key)) return { pass: true };
    played.add(key);
    return FAULTS[fault];
  };
  return startAppOnModel(model, {}, { gate });
});

const WORDS = {
  zh: { input: '输入消息', retry: '从中断处重试', rolledBack: '已回退到本节开头重新撰写', waiting: /模型服务要求稍候，研究将于 .+ 自动继续/, refused: /模型服务拒绝了这次请求/ },
  en: { input: 'Message', retry: 'Retry from where it stopped', rolledBack: /rolled back to its start and is being written again/, waiting: /The model service asked us to wait; the research continues automatically at .+/, refused: /model service refused/i },
} as const;

async function ask(page: Page, language: 'zh' | 'en', question: string): Promise<void> {
  await page.getByRole('textbox', { name: WORDS[language].input }).fill(question);
  await page.keyboard.press('Enter');
}

/** The report's question, which the feedback card asks once a version is written. */
const reportWritten = (page: Page) => page.locator('.card.feedback').waitFor();

for (const language of ['zh', 'en'] as const) {
  const words = WORDS[language];

  test(`${language}: a section whose stream breaks is written again from its start, and the chat says so`, async (t) => {
    const { page, pageErrors } = await newUserOnResearch(t, suite, `cutreader${language}`, language);
    await ask(page, language, language === 'zh' ? '固态电池安全吗？（断流）' : 'Are solid-state batteries safe? (stream breaks)');
    await page.getByText(words.rolledBack).first().waitFor();
    await reportWritten(page);
    const report = await page.locator('.canvas-doc').innerText();
    t.is(report.split('热失控风险更低').length - 1 >= 1, true, 'the section was written');
    await screenshot(page, `degradation-rollback-${language}`);
    t.deepEqual(pageErrors, []);
  });

  test(`${language}: a long wait asked by the model service is waited out, said with its time, and the report is written`, async (t) => {
    const { page, pageErrors } = await newUserOnResearch(t, suite, `waitreader${language}`, language);
    await ask(page, language, language === 'zh' ? '固态电池安全吗？（限流）' : 'Are solid-state batteries safe? (rate limited)');
    await page.getByText(words.waiting).first().waitFor();
    await screenshot(page, `degradation-waiting-${language}`);
    await reportWritten(page);
    t.deepEqual(pageErrors, []);
  });

  test(`${language}: a request the provider refuses ends with its reason, and the retry writes the report`, async (t) => {
    const { page, pageErrors } = await newUserOnResearch(t, suite, `refusedreader${language}`, language);
    await ask(page, language, language === 'zh' ? '固态电池安全吗？（拒绝）' : 'Are solid-state batteries safe? (refused)');
    const retry = page.getByRole('button', { name: words.retry });
    await retry.waitFor();
    t.true(await page.getByText(words.refused).first().isVisible(), 'the provider refused, in the reader’s language');
    await screenshot(page, `degradation-refused-${language}`);
    await retry.click();
    await reportWritten(page);
    await screenshot(page, `degradation-refused-retried-${language}`);
    t.deepEqual(pageErrors, []);
  });
}

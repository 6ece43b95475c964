import test from 'ava';
import * as prompts from '@scriptorium/workers/agents/deep_cognition/prompts';
import { FACT_PROMPT, SCORE_PROMPT, WEIGHTS_PROMPT } from './judgePrompts.ts';
import { answerFor, kindOf, type CallKind } from './answers.ts';
import { startScriptedModel } from './model.ts';

const asks = (system: string) => [
  { role: 'system', content: system },
  { role: 'user', content: 'q' },
];

test('the scripted model tells every prompt of the research agent and of the judge apart', (t) => {
  const expected: Array<[string, CallKind]> = [
    [prompts.ANALYSE_PROMPT, 'analyse'],
    [prompts.CLARIFY_PROMPT, 'clarify'],
    [prompts.PLAN_PROMPT, 'plan'],
    [prompts.QUERIES_PROMPT, 'queries'],
    [prompts.REFLECT_PROMPT, 'reflect'],
    [prompts.JUDGE_PROMPT, 'judge'],
    [prompts.sectionPrompt('zh'), 'section'],
    [prompts.sectionPrompt('en'), 'section'],
    [prompts.summaryPrompt('zh'), 'summary'],
    [prompts.summaryPrompt('en', 'brief'), 'summary'],
    [prompts.deepenPrompt('en'), 'deepen'],
    [prompts.revisePrompt('zh'), 'revise'],
    [prompts.EDIT_PROMPT, 'edit'],
    [prompts.CITATIONS_PROMPT, 'citations'],
    [WEIGHTS_PROMPT, 'race-weights'],
    [SCORE_PROMPT, 'race-score'],
    [FACT_PROMPT, 'fact-check'],
    ['You are a helpful assistant.', 'other'],
  ];
  for (const [system, kind] of expected) t.is(kindOf(asks(system)), kind, system.slice(0, 40));
});

test('a reflection asks a follow-up when a source disputes a figure, and finds the step answered otherwise', (t) => {
  const reflect = (notes: string) => JSON.parse(answerFor([{ role: 'system', content: prompts.REFLECT_PROMPT }, { role: 'user', content: `研究问题：2023年以来中国钠离子电池的产业化进展如何？\n当前步骤：分析成本与争议\n\n已读资料：\n${notes}` }], { random: () => 0.99, mistakeRate: 0 }).text);
  const disputed = reflect('[1] 钠电池成本之争\n关于钠离子电池是否已经具备成本优势，业内观点并不一致。不过也有券商报告认为，规模化后钠离子电池电芯成本已降至每瓦时0.38元，低于磷酸铁锂。');
  t.false(disputed.answered);
  t.regex(disputed.reason, /说法不一/);
  t.is(disputed.follow_up_queries.length, 1);
  t.deepEqual(reflect('[1] 年度报告\n行业调研显示，钠离子电池电芯的平均成本约为每瓦时0.55元。'), { answered: true, reason: '', follow_up_queries: [] });
});

test('a section cites each sentence to the source it came from, and mistakes are made only when asked and remembered', (t) => {
  const messages = [
    { role: 'system', content: prompts.sectionPrompt('en') },
    { role: 'system', content: 'Sources for this answer. Cite them inline as [n]; do not cite anything else.\n\n[1] A <http://x/a>\nHeat pump sales in Europe fell by about 5% in 2023 as gas prices eased.\n\n[2] B <http://x/b>\nNorway leads Europe with about 632 heat pumps installed per 1,000 households.' },
    { role: 'user', content: 'Research question: How fast have heat pumps been adopted in Europe?\n\nWrite this section now: Current state and key figures of heat pumps Europe' },
  ];
  const careful = answerFor(messages, { random: () => 0.99, mistakeRate: 0.2 });
  t.regex(careful.text, /fell by about 5% in 2023 as gas prices eased\[1\]\./);
  t.regex(careful.text, /632 heat pumps installed per 1,000 households\[2\]\./);
  t.deepEqual(careful.mistakes, []);
  const sloppy = answerFor(messages, { random: () => 0.5, mistakeRate: 1 });
  t.true(sloppy.mistakes.length > 0);
  t.true(sloppy.mistakes.every((mistake) => sloppy.text.includes(`[${mistake.n}]`)));
});

test('the output cap and the context window are refused with the providers’ own words', async (t) => {
  const model = await startScriptedModel();
  t.teardown(() => model.close());
  const post = (body: unknown) => fetch(`${model.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  model.setFault([{ kind: 'outputCap', cap: 8192 }, { kind: 'window', tokens: 32_768 }]);
  const capped = await post({ model: 'm', messages: asks('You are a helpful assistant.'), max_tokens: 16_474 });
  t.is(capped.status, 400);
  t.is(((await capped.json()) as any).error.message, 'Invalid max_tokens value, the valid range of max_tokens is [1, 8192]');
  const long = await post({ model: 'm', messages: [{ role: 'user', content: '长'.repeat(30_000) }], max_tokens: 8192 });
  t.is(long.status, 400);
  t.regex(((await long.json()) as any).message, /^This model's maximum context length is 32768 tokens\. However, you requested 38\d{3} tokens \(30\d{3} in the messages, 8192 in the completion\)\./);
});

test('streamed answers end with usage and [DONE], and calls open together are counted in flight together', async (t) => {
  // The first token waits until all three calls are open, so the peak is the three of them.
  const model = await startScriptedModel({ speed: { firstTokenMs: 2000, tokensPerSecond: 1000 } });
  t.teardown(() => model.close());
  const post = () =>
    fetch(`${model.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: asks('You are a helpful assistant.'), stream: true, stream_options: { include_usage: true } }) }).then((response) => response.text());
  const answers = await Promise.all([post(), post(), post()]);
  t.true(answers.every((text) => text.includes('"usage"') && text.trim().endsWith('data: [DONE]')));
  t.is(model.calls.length, 3);
  t.is(model.maxInFlight, 3);
  model.reset();
  await post();
  t.is(model.maxInFlight, 1, 'a reset starts the count again');
});

test('the citation judge keeps a claim its passage holds and restates one it does not as the passage says it', (t) => {
  const passage = 'Heat pump sales in Europe fell by about 5% in 2023 as gas prices eased. Norway leads Europe with about 632 heat pumps installed per 1,000 households.';
  const answer = answerFor(
    [
      { role: 'system', content: prompts.CITATIONS_PROMPT },
      { role: 'user', content: `[1] Claim: Heat pump sales in Europe fell by about 5% in 2023 as gas prices eased.\nSource 1 says: ${passage}\n\n[2] Claim: Norway leads Europe with 900 heat pumps per 1,000 households.\nSource 1 says: ${passage}` },
    ],
    { random: () => 0.5, mistakeRate: 0 },
  );
  t.deepEqual(JSON.parse(answer.text), {
    citation_checks: [
      { id: 1, supported: true, rewrite: '' },
      { id: 2, supported: false, rewrite: 'Norway leads Europe with about 632 heat pumps installed per 1,000 households.' },
    ],
  });
});

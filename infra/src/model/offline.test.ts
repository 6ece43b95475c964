import test from 'ava';
import { composeOfflineAnswer, estimateTokens, OfflineProvider, splitSentences } from './offline.ts';
import { ModelError, type ContextDocument, type ModelDelta, type ModelRequest } from './port.ts';

const context: ContextDocument[] = [
  {
    title: '注意力机制简介',
    url: 'https://example.com/attention',
    text: '# 注意力机制\n注意力机制让模型在处理序列时关注相关的位置。它最早用于机器翻译。Transformer 完全基于自注意力机制，不再使用循环结构！自注意力的计算复杂度与序列长度的平方成正比。',
  },
  { title: '循环神经网络', text: '循环神经网络（RNN）按时间步处理序列。长序列训练时容易出现梯度消失问题。LSTM 通过门控结构缓解了梯度消失。' },
  { title: 'Cooking notes', text: 'Boil the pasta for 9.5 minutes. Add salt to the water before boiling! The sauce needs fresh tomatoes and basil.' },
];

const ask = (question: string, docs: ContextDocument[] = context, extra: Partial<ModelRequest> = {}) =>
  composeOfflineAnswer({ messages: [{ role: 'user', content: question }], context: docs, ...extra });

async function drain(provider: OfflineProvider, request: ModelRequest): Promise<ModelDelta[]> {
  const deltas: ModelDelta[] = [];
  for await (const delta of provider.stream(request)) deltas.push(delta);
  return deltas;
}

test('a Chinese question gets the Chinese label line first', (t) => {
  const [label] = ask('自注意力的计算复杂度是多少？').split('\n');
  t.true(label!.startsWith('【离线模式】'));
  t.regex(label!, /未配置语言模型/);
});

test('an English conversation gets the English label', (t) => {
  const [label] = ask('How long should I boil the pasta?').split('\n');
  t.true(label!.startsWith('[Offline mode]'));
  t.regex(label!, /No language model is configured/);
});

test('quotes the best matching sentences with source markers and lists the cited sources', (t) => {
  const answer = ask('自注意力的计算复杂度是多少？');
  const lines = answer.split('\n');
  t.is(lines[3], '1. 自注意力的计算复杂度与序列长度的平方成正比。[1]');
  t.false(answer.includes('梯度消失'));
  t.false(answer.includes('pasta'));
  t.true(answer.endsWith('来源：\n[1] 注意力机制简介 — https://example.com/attention'));
});

test('markers keep the numbering of the context, whichever sources are cited', (t) => {
  const answer = ask('为什么 RNN 会有梯度消失？');
  t.regex(answer, /长序列训练时容易出现梯度消失问题。\[2\]/);
  t.regex(answer, /LSTM 通过门控结构缓解了梯度消失。\[2\]/);
  t.regex(answer, /来源：\n\[2\] 循环神经网络$/);
  t.notRegex(answer, /\[1\]/);
});

test('English matching ignores stop words and case and does not split decimals', (t) => {
  const answer = ask('How long should I BOIL the pasta?');
  t.regex(answer, /1\. Boil the pasta for 9\.5 minutes\. \[3\]/);
  t.regex(answer, /"long, BOIL, pasta"/);
  t.notRegex(answer, /tomatoes/);
});

test('the same request always gives the same answer', (t) => {
  t.is(ask('注意力机制和循环结构有什么关系？'), ask('注意力机制和循环结构有什么关系？'));
});

test('a request to summarise quotes the lead and a central sentence of each source', (t) => {
  const answer = ask('请总结一下这些资料', context, { maxTokens: 10_000 });
  t.regex(answer, /各资料的要点摘录：/);
  t.regex(answer, /注意力机制让模型在处理序列时关注相关的位置。\[1\]/);
  t.regex(answer, /循环神经网络（RNN）按时间步处理序列。\[2\]/);
  t.regex(answer, /Boil the pasta for 9\.5 minutes\. \[3\]/);
  t.regex(answer, /\[1\] 注意力机制简介[^]*\[2\] 循环神经网络[^]*\[3\] Cooking notes/);
});

test('when nothing matches it says so and offers the sources’ key sentences instead', (t) => {
  const answer = ask('量子计算的最新进展是什么？');
  t.regex(answer, /资料中没有找到与“量子计算、最新进展”直接相关的句子/);
  t.regex(answer, /注意力机制让模型在处理序列时关注相关的位置。\[1\]/);
});

test('without any material it says plainly what offline mode can do and restates the key terms', (t) => {
  const answer = ask('什么是注意力机制？', []);
  t.regex(answer, /只能对已有资料和对话做摘录与复述/);
  t.regex(answer, /你的问题涉及：注意力机制。/);
  t.notRegex(answer, /\[\d\]/);

  const english = ask('Explain the attention mechanism in transformers', []);
  t.regex(english, /can only quote and restate/);
  t.regex(english, /Your question is about: attention, mechanism, transformers\./);
});

test('earlier turns of the conversation are material too, but not earlier questions', (t) => {
  const answer = composeOfflineAnswer({
    messages: [
      { role: 'user', content: '项目代号是什么？我们的项目代号是青鸟计划，预算为三百万元。' },
      { role: 'assistant', content: '好的，我记下了。' },
      { role: 'user', content: '青鸟计划的预算是多少？' },
    ],
  });
  t.regex(answer, /我们的项目代号是青鸟计划，预算为三百万元。（前文）/);
  t.notRegex(answer, /项目代号是什么/);
});

test('its own earlier offline answers are not quoted back', (t) => {
  const first = ask('自注意力的计算复杂度是多少？', context);
  const answer = composeOfflineAnswer({
    messages: [
      { role: 'user', content: '自注意力的计算复杂度是多少？' },
      { role: 'assistant', content: first },
      { role: 'user', content: '自注意力的计算复杂度和什么有关？' },
    ],
  });
  t.regex(answer, /没有可供摘录的资料/);
});

test('maxTokens limits how much is quoted', (t) => {
  const question = '注意力机制、自注意力、循环结构、梯度消失';
  const full = ask(question).split('\n').filter((line) => /^\d\./.test(line));
  const limited = ask(question, context, { maxTokens: 30 }).split('\n').filter((line) => /^\d\./.test(line));
  t.true(full.length > 1);
  t.is(limited.length, 1);
  t.is(limited[0], full[0]);
});

test('streams the answer in pieces of a few characters, then estimated usage once', async (t) => {
  const request: ModelRequest = { messages: [{ role: 'user', content: '自注意力的计算复杂度是多少？' }], context };
  const deltas = await drain(new OfflineProvider(), request);
  const texts = deltas.filter((d) => d.type === 'text');
  const answer = texts.map((d) => d.text).join('');
  t.is(answer, composeOfflineAnswer(request));
  t.true(texts.every((d) => Array.from(d.text).length <= 4));
  t.is(deltas.filter((d) => d.type === 'usage').length, 1);
  t.deepEqual(deltas.at(-1), {
    type: 'usage',
    promptTokens: 4 + estimateTokens('自注意力的计算复杂度是多少？') + context.reduce((n, d) => n + estimateTokens(`${d.title}\n${d.text}`), 0),
    completionTokens: estimateTokens(answer),
    model: 'offline',
    estimated: true,
  });
});

test('complete() gives the same text, with chunkSize and delayMs options', async (t) => {
  const request: ModelRequest = { messages: [{ role: 'user', content: 'What goes in the sauce?' }], context };
  const provider = new OfflineProvider({ chunkSize: 2, delayMs: 1 });
  const { text, usage } = await provider.complete(request);
  t.is(text, composeOfflineAnswer(request));
  t.is(usage.model, 'offline');
  t.is(provider.name, 'offline');
  t.true(provider.offline);
});

test('an abort between pieces stops the stream with kind aborted', async (t) => {
  const controller = new AbortController();
  const seen: ModelDelta[] = [];
  const error = await t.throwsAsync(
    async () => {
      for await (const delta of new OfflineProvider().stream({ messages: [{ role: 'user', content: '你好' }], signal: controller.signal })) {
        seen.push(delta);
        controller.abort();
      }
    },
    { instanceOf: ModelError },
  );
  t.is(error.kind, 'aborted');
  t.is(seen.length, 1);
});

// Serial: it swaps the global fetch, which another file's tests in the same process (tests/units/) would meet.
test.serial('never touches the network', async (t) => {
  const original = globalThis.fetch;
  let calls = 0;
  globalThis.fetch = (() => {
    calls++;
    return Promise.reject(new Error('no network in offline mode'));
  }) as typeof fetch;
  try {
    await new OfflineProvider().complete({ messages: [{ role: 'user', content: '注意力机制' }], context });
  } finally {
    globalThis.fetch = original;
  }
  t.is(calls, 0);
});

test('splitSentences: CJK and Latin terminators, closing quotes, lines, decimals; fragments dropped', (t) => {
  const text = '他说：“明天再来讨论！”然后他离开了会议室。真的要这样做吗？是的，确实如此安排。\n## 标题\n- 列表项目也是句子\nVersion 2.5 is out now. Really, truly?! Yes.';
  t.deepEqual(splitSentences(text), [
    '他说：“明天再来讨论！”',
    '然后他离开了会议室。',
    '真的要这样做吗？',
    '是的，确实如此安排。',
    '列表项目也是句子',
    'Version 2.5 is out now.',
    'Really, truly?!',
  ]);
});

test('estimateTokens: one per CJK character, a quarter per other character', (t) => {
  t.is(estimateTokens(''), 0);
  t.is(estimateTokens('你好世界'), 4);
  t.is(estimateTokens('hello world!'), 3);
  t.is(estimateTokens('你好，world'), 3 + 2);
});

test('sources with nothing quotable count as no material', (t) => {
  const answer = ask('什么是注意力机制？', [{ title: '空白', text: '  \n#\n' }]);
  t.regex(answer, /没有可供摘录的资料/);
  t.regex(answer, /你的问题涉及：注意力机制。/);
});

import test from 'ava';
import { withContext } from './openai.ts';
import type { ContextDocument, ModelRequest } from './port.ts';
import { profileFor, type ModelProfile } from './profile.ts';
import { estimateMessageTokens, estimateTokens } from './tokens.ts';
import { CUT_MARK, fitToWindow, measure, measurePrompt } from './window.ts';

const qwen: ModelProfile = { contextWindow: 32_768, maxOutputTokens: 8_192, reasoning: 'none' };
const ask = (content: string): ModelRequest['messages'] => [
  { role: 'system', content: '你是研究助手，引用来源时写 [n]。' },
  { role: 'user', content },
];
const fits = (request: Pick<ModelRequest, 'messages' | 'context'> & { maxTokens: number }, profile: ModelProfile) => measurePrompt(request) + request.maxTokens <= profile.contextWindow;

test('a request that fits keeps everything; its cap is the smallest of what it asked and the profile’s, the profile’s when it asked none', (t) => {
  const request = { messages: ask('固态电池的现状？'), temperature: 0.2 };
  const none = fitToWindow(request, qwen);
  t.deepEqual(none.request, { ...request, maxTokens: 8_192 });
  t.deepEqual(none.cuts, { documents: [], messages: [], over: 0 });
  t.is(fitToWindow({ ...request, maxTokens: 999_993_734 }, qwen).request.maxTokens, 8_192);
  t.is(fitToWindow({ ...request, maxTokens: 300 }, qwen).request.maxTokens, 300);
  t.is(fitToWindow(request, profileFor('deepseek-chat')).request.maxTokens, 8_192);
  t.is(fitToWindow(request, profileFor('gpt-4o')).request.maxTokens, 16_384);
});

test('the measure is the estimate with a margin, more on Latin text than on CJK, and counts the numbered sources as sent', (t) => {
  const zh = { messages: ask('电'.repeat(1000)) };
  const en = { messages: ask('word '.repeat(800)) };
  const sentZh = estimateMessageTokens(zh.messages);
  const sentEn = estimateMessageTokens(en.messages);
  t.true(measurePrompt(zh) > sentZh && measurePrompt(zh) <= sentZh * 1.3);
  t.true(measurePrompt(en) > sentEn * 1.3);
  const context: ContextDocument[] = [{ title: '来源', url: 'https://a.example', text: '内容'.repeat(100) }];
  t.true(measurePrompt({ ...zh, context }) > measurePrompt(zh) + estimateTokens('内容'.repeat(100)));
  t.is(measurePrompt({ ...zh, context }), measurePrompt({ messages: withContext(zh.messages, context) }));
});

test('over the window, the answer’s cap is lowered first, and nothing is cut while that is enough', (t) => {
  const request = { messages: ask('长'.repeat(20_000)), maxTokens: 8_192 };
  const { request: fitted, cuts } = fitToWindow(request, qwen);
  t.true(fitted.maxTokens < 8_192 && fitted.maxTokens >= 4_096);
  t.deepEqual(cuts.maxTokens, { from: 8_192, to: fitted.maxTokens });
  t.deepEqual(cuts.documents, []);
  t.deepEqual(cuts.messages, []);
  t.is(fitted.messages, request.messages);
  t.true(fits(fitted, qwen));
  t.false(fits({ ...fitted, maxTokens: fitted.maxTokens + 1 }, qwen));
});

test('then the context documents are cut, longest first, each keeping its head, its place and its number', (t) => {
  const page = (n: number, chars: number, zh: boolean): ContextDocument => ({
    title: `Source ${n}`,
    url: `https://example.org/${n}`,
    text: (zh ? `第${n}页的开头。` : `Page ${n} begins here. `) + (zh ? '研究内容'.repeat(chars / 4) : 'research text '.repeat(chars / 14)),
  });
  const context = [page(1, 400, true), page(2, 40_000, true), page(3, 1_000, false), page(4, 120_000, false), page(5, 30_000, true)];
  const request = { messages: ask('比较这些来源'), context, maxTokens: 8_192 };
  t.false(fits({ ...request, maxTokens: 0 }, qwen));
  const { request: fitted, cuts } = fitToWindow(request, qwen);
  t.true(fits(fitted, qwen));
  t.is(fitted.maxTokens, 4_096);
  t.deepEqual([...cuts.documents].sort(), [1, 3, 4]);
  t.deepEqual(cuts.messages, []);
  t.is(fitted.context!.length, 5);
  fitted.context!.forEach((doc, i) => {
    t.is(doc.title, context[i]!.title);
    t.is(doc.url, context[i]!.url);
    if (!cuts.documents.includes(i)) t.is(doc.text, context[i]!.text);
    else {
      t.true(doc.text.endsWith(CUT_MARK));
      t.true(context[i]!.text.startsWith(doc.text.slice(0, -CUT_MARK.length)));
      t.true(doc.text.length < context[i]!.text.length);
    }
  });
  // Levelled: the documents that were cut are left about as long as one another.
  const left = cuts.documents.map((i) => measure(fitted.context![i]!.text));
  t.true(Math.max(...left) - Math.min(...left) < 10, String(left));
  const sent = withContext(fitted.messages, fitted.context)[1]!.content;
  for (let n = 1; n <= 5; n++) t.true(sent.includes(`[${n}] Source ${n} <https://example.org/${n}>`));
});

test('last, the longest message loses its middle, keeping its start and its end', (t) => {
  const question = '最后的问题：结论是什么？';
  const request = { messages: ask(`开头的说明。${'材料'.repeat(40_000)}${question}`) };
  const { request: fitted, cuts } = fitToWindow(request, qwen);
  t.true(fits(fitted, qwen));
  t.deepEqual(cuts.messages, [1]);
  t.is(fitted.maxTokens, 4_096);
  const content = fitted.messages[1]!.content;
  t.true(content.startsWith('开头的说明。'));
  t.true(content.endsWith(question));
  t.true(content.includes(CUT_MARK));
  t.is(fitted.messages[0], request.messages[0]);
});

test('what cannot be made to fit is reported as over, for the provider to refuse', (t) => {
  const small: ModelProfile = { contextWindow: 1_024, maxOutputTokens: 256, reasoning: 'none' };
  const messages = Array.from({ length: 60 }, (_, i) => ({ role: 'user' as const, content: `第 ${i} 条消息，有一些内容。` }));
  const { cuts, request } = fitToWindow({ messages }, small);
  t.true(cuts.over > 0);
  t.is(request.messages.length, 60);
});

test('fitting is pure: the caller’s request is left as it was', (t) => {
  const context = [{ title: 'A', text: 'x '.repeat(200_000) }];
  const request = { messages: ask('q'), context };
  const before = JSON.stringify(request);
  fitToWindow(request, qwen);
  t.is(JSON.stringify(request), before);
});

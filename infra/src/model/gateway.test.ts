/**
 * What real providers do that the gateway must absorb: reasoning in the content or beside it,
 * refusals worded their own way, rate limits, streams cut midway. A local server plays each
 * response exactly as written here, byte for byte, one write per SSE frame.
 */
import test, { type ExecutionContext } from 'ava';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAICompatibleProvider, type OpenAICompatibleOptions, type RetryInfo } from './openai.ts';
import { ModelError, type ModelDelta, type ModelRequest } from './port.ts';
import { profileFor } from './profile.ts';
import { refusalOf, refusalReason } from './refusal.ts';
import { estimateMessageTokens, estimateTokens } from './tokens.ts';

/**
 * One response: an SSE stream of deltas (optionally cut before its end), whole chunks sent as they
 * are (then cut), or a status with a JSON body.
 */
type Script =
  | { deltas: Array<Record<string, unknown>>; usage?: { prompt_tokens: number; completion_tokens: number }; cut?: boolean }
  | { chunks: unknown[] }
  | { status: number; body: unknown; headers?: Record<string, string> };

interface Played {
  body: Record<string, unknown>;
}

async function server(t: ExecutionContext, scripts: Script[]) {
  const played: Played[] = [];
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      played.push({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
      const script = scripts.shift();
      if (!script) {
        res.writeHead(500).end();
        return;
      }
      void play(res, script);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/v1`, played };
}

async function play(res: ServerResponse, script: Script): Promise<void> {
  if ('status' in script) {
    res.writeHead(script.status, { 'content-type': 'application/json', ...script.headers });
    res.end(JSON.stringify(script.body));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const write = (payload: unknown) =>
    new Promise<void>((resolve, reject) => res.write(`data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`, (error) => (error ? reject(error) : resolve())));
  if ('chunks' in script) {
    for (const chunk of script.chunks) await write(chunk);
    res.socket?.destroy();
    return;
  }
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({ id: 'c', object: 'chat.completion.chunk', model: 'served-model', choices, ...extra });
  for (const delta of script.deltas) await write(chunk([{ index: 0, delta, finish_reason: null }]));
  if (script.cut) {
    res.socket?.destroy();
    return;
  }
  await write(chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]));
  if (script.usage) await write(chunk([], { usage: script.usage }));
  await write('[DONE]');
  res.end();
}

const question: ModelRequest = { messages: [{ role: 'user', content: '请用 JSON 回答' }] };

async function run(provider: OpenAICompatibleProvider, request: ModelRequest = question) {
  const deltas: ModelDelta[] = [];
  let error: ModelError | undefined;
  try {
    for await (const delta of provider.stream(request)) deltas.push(delta);
  } catch (caught) {
    if (!(caught instanceof ModelError)) throw caught;
    error = caught;
  }
  const texts = deltas.flatMap((d) => (d.type === 'text' ? [d.text] : []));
  return { texts, text: texts.join(''), usage: deltas.find((d) => d.type === 'usage'), error };
}

function provider(url: string, options: Partial<OpenAICompatibleOptions> = {}) {
  const retries: RetryInfo[] = [];
  const model = new OpenAICompatibleProvider({ baseUrl: url, model: 'served-model', retryBaseDelayMs: 1, onRetry: (info) => retries.push(info), ...options });
  return { model, retries };
}

const pieces = (...contents: string[]) => contents.map((content) => ({ content }));

test('<think> blocks never reach the caller, with every tag cut across chunks and a { inside; usage stays as reported', async (t) => {
  const usage = { prompt_tokens: 20, completion_tokens: 300 };
  const { url } = await server(t, [{ deltas: pieces('<th', 'ink>先想 {"draft"', ': 1} 再答</thi', 'nk>\n\n{"answer"', ': 42}'), usage }]);
  const { model } = provider(url);
  const { texts, text, usage: reported } = await run(model);
  t.is(text, '{"answer": 42}');
  t.false(texts.some((piece) => /[<>]|想/.test(piece)));
  t.like(reported, { promptTokens: 20, completionTokens: 300, estimated: false });
});

test('<thinking> blocks are removed from a plain JSON completion too', async (t) => {
  const { url } = await server(t, [
    { status: 200, body: { model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: '<thinking>hmm {</thinking>Answer.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 9 } } },
  ]);
  t.is((await provider(url).model.complete(question)).text, 'Answer.');
});

test('think_tags profile: an answer whose opening <think> the server dropped shows only what follows </think>', async (t) => {
  const raw = pieces('用户要一个', '计划 {步骤}。', '</th', 'ink>', '\n\n{"plan": ["a"]}');
  const { url } = await server(t, [{ deltas: raw }, { deltas: raw }]);
  const tagged = provider(url, { model: 'qwen3:14b' });
  t.is(tagged.model.profile.reasoning, 'think_tags');
  t.is((await run(tagged.model)).text, '{"plan": ["a"]}');
  // The same stream from a model profiled without think tags: the tag goes, what came before it cannot be told apart.
  t.is((await run(provider(url, { profile: profileFor('gpt-4o') }).model)).text, '用户要一个计划 {步骤}。\n\n{"plan": ["a"]}');
});

test('reasoning_content and reasoning deltas are not text, and an estimate without usage charges them', async (t) => {
  const thinking = '先分析问题的三个方面，再给出结论。';
  const { url } = await server(t, [{ deltas: [{ role: 'assistant', content: null, reasoning_content: thinking }, { reasoning: '还有一点。' }, ...pieces('结论', '。')] }]);
  const { model } = provider(url, { model: 'deepseek-reasoner' });
  const { text, usage } = await run(model);
  t.is(text, '结论。');
  t.like(usage, { estimated: true, completionTokens: estimateTokens(`${thinking}还有一点。结论。`) });
});

test('a think_tags model whose server separates reasoning streams its content as it comes', async (t) => {
  const { url } = await server(t, [{ deltas: [{ reasoning_content: '想' }, ...pieces('第一段', '第二段')] }]);
  const { texts } = await run(provider(url, { model: 'qwen3:8b' }).model);
  t.deepEqual(texts, ['第一段', '第二段']);
});

const refusals: Array<{ provider: string; status: number; message: string; reason: 'context_window' | 'output_cap' | 'other' }> = [
  {
    provider: 'OpenAI',
    status: 400,
    message: "This model's maximum context length is 128000 tokens. However, you requested 131200 tokens (115000 in the messages, 16200 in the completion). Please reduce the length of the messages or completion.",
    reason: 'context_window',
  },
  {
    provider: 'OpenAI',
    status: 400,
    message: 'max_tokens is too large: 999993734. This model supports at most 16384 completion tokens, whereas you provided 999993734.',
    reason: 'output_cap',
  },
  { provider: 'DeepSeek', status: 400, message: 'Invalid max_tokens value, the valid range of max_tokens is [1, 8192]', reason: 'output_cap' },
  {
    provider: 'vLLM',
    status: 400,
    message: "This model's maximum context length is 32768 tokens. However, you requested 40192 tokens (32000 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.",
    reason: 'context_window',
  },
  {
    provider: 'vLLM',
    status: 400,
    message: "'max_tokens' or 'max_completion_tokens' is too large: 40000. This model's maximum context length is 32768 tokens and your request has 120 input tokens (40000 > 32768 - 120).",
    reason: 'output_cap',
  },
  { provider: 'vLLM', status: 422, message: "1 validation error: 'max_tokens' Input should be less than or equal to 8192", reason: 'output_cap' },
  { provider: 'DashScope', status: 400, message: 'Range of input length should be [1, 30720]', reason: 'context_window' },
  { provider: 'a proxy', status: 413, message: 'Request Entity Too Large', reason: 'other' },
  { provider: 'OpenAI', status: 404, message: 'The model `gpt-9` does not exist or you do not have access to it.', reason: 'other' },
];

test('a provider’s refusal of the request is `refused` with its words and reason, and is not retried', async (t) => {
  for (const refusal of refusals) {
    const { url, played } = await server(t, [{ status: refusal.status, body: { error: { message: refusal.message, type: 'invalid_request_error', param: null, code: null } } }]);
    const { model, retries } = provider(url);
    const { error } = await run(model);
    const label = `${refusal.provider} ${refusal.status}`;
    t.like(error, { kind: 'refused', retryable: false, status: refusal.status, providerMessage: refusal.message }, label);
    t.is(refusalOf(error), refusal.reason, label);
    t.is(played.length, 1, label);
    t.is(retries.length, 0, label);
  }
});

test('refusalReason reads nothing into a missing or unrelated message', (t) => {
  t.is(refusalReason(undefined), 'other');
  t.is(refusalReason('Unsupported parameter: tools'), 'other');
  t.is(refusalOf(new ModelError('server', 'HTTP 500')), undefined);
});

test('an error the server reports inside the stream with a 4xx code is refused too', async (t) => {
  const message = "This model's maximum context length is 8192 tokens.";
  // A stream whose only chunk is an error object, as LiteLLM sends after its headers.
  const { url } = await server(t, [{ chunks: [{ error: { message, code: 400 } }] }]);
  const { error } = await run(provider(url).model);
  t.like(error, { kind: 'refused', status: 400, providerMessage: message });
  t.is(refusalOf(error), 'context_window');
});

test('429 with Retry-After: 120 is thrown at once for the job queue; Retry-After: 2 is waited out', async (t) => {
  const limited = (retryAfter: string): Script => ({ status: 429, headers: { 'retry-after': retryAfter }, body: { error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } } });
  const long = await server(t, [limited('120')]);
  const first = provider(long.url, { maxRetryDelayMs: 30_000 });
  const { error } = await run(first.model);
  t.like(error, { kind: 'rate_limited', retryable: true, retryAfterMs: 120_000, textEmitted: false });
  t.is(first.retries.length, 0);
  t.is(long.played.length, 1);

  const short = await server(t, [limited('2'), { deltas: pieces('好的') }]);
  const second = provider(short.url, { maxRetryDelayMs: 30_000 });
  const waited = await run(second.model);
  t.is(waited.error, undefined);
  t.is(waited.text, '好的');
  t.deepEqual(
    second.retries.map((r) => [r.error.kind, r.delayMs]),
    [['rate_limited', 2000]],
  );
});

test('503 and 502 are retried with backoff up to the limit, then thrown as retryable', async (t) => {
  const down = (status: number): Script => ({ status, body: { error: { message: 'upstream unavailable' } } });
  const recovering = await server(t, [down(503), down(502), { deltas: pieces('回来了') }]);
  const ok = provider(recovering.url, { maxAttempts: 3 });
  t.is((await run(ok.model)).text, '回来了');
  t.deepEqual(ok.retries.map((r) => r.error.status), [503, 502]);

  const dead = await server(t, [down(503), down(503), down(503)]);
  const failing = provider(dead.url, { maxAttempts: 3 });
  const { error } = await run(failing.model);
  t.like(error, { kind: 'server', status: 503, retryable: true });
  t.is(dead.played.length, 3);
});

test('a stream cut after text throws with the partial usage: the estimate of the prompt and of what streamed, reasoning included', async (t) => {
  const { url } = await server(t, [{ deltas: [{ reasoning_content: '想一想' }, ...pieces('第一节', '正文的一部分')], cut: true }]);
  const { model, retries } = provider(url);
  const { text, error, usage } = await run(model);
  t.is(text, '第一节正文的一部分');
  t.is(usage, undefined);
  t.like(error, { kind: 'network', textEmitted: true, retryable: true });
  t.deepEqual(error!.partialUsage, {
    promptTokens: estimateMessageTokens(question.messages),
    completionTokens: estimateTokens('想一想第一节正文的一部分'),
    model: 'served-model',
    estimated: true,
  });
  t.is(retries.length, 0);
});

test('a cut stream whose server already reported running usage is charged those figures', async (t) => {
  // Usage rides on a content chunk here, as servers that repeat running totals send it.
  const { url } = await server(t, [{ chunks: [{ model: 'm', choices: [{ index: 0, delta: { content: 'abc' } }], usage: { prompt_tokens: 50, completion_tokens: 3 } }] }]);
  const { error } = await run(provider(url).model);
  t.deepEqual(error!.partialUsage, { promptTokens: 50, completionTokens: 3, model: 'm', estimated: false });
});

test('an attempt cut while the model was still reasoning is retried unseen, and its cost joins the call’s usage', async (t) => {
  const { url } = await server(t, [
    { deltas: [{ reasoning_content: '长长的思考' }], cut: true },
    { deltas: pieces('答案'), usage: { prompt_tokens: 10, completion_tokens: 4 } },
  ]);
  const { model, retries } = provider(url);
  const { text, usage } = await run(model);
  t.is(text, '答案');
  t.is(retries.length, 1);
  t.like(usage, { promptTokens: 10 + estimateMessageTokens(question.messages), completionTokens: 4 + estimateTokens('长长的思考'), estimated: true });
});

test('an error before the model answered carries no partial usage', async (t) => {
  const { url } = await server(t, [{ status: 400, body: { error: { message: 'Invalid max_tokens value, the valid range of max_tokens is [1, 8192]' } } }]);
  const { error } = await run(provider(url).model);
  t.is(error!.partialUsage, undefined);
});

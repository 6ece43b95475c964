import test from 'ava';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultMockReply, mockTokens, startMockOpenAI, type MockOpenAIOptions, type MockScenario } from '../../../tests/support/mockOpenAI.ts';
import { chatCompletionsUrl, OpenAICompatibleProvider, parseRetryAfter, withContext, type OpenAICompatibleOptions, type RetryInfo } from './openai.ts';
import { ModelError, type ModelDelta, type ModelRequest } from './port.ts';
import { estimateTokens } from './tokens.ts';

const question: ModelRequest = { messages: [{ role: 'user', content: '你好' }] };

interface Run {
  deltas: ModelDelta[];
  text: string;
  error: ModelError | undefined;
}

async function run(provider: OpenAICompatibleProvider, request: ModelRequest = question): Promise<Run> {
  const deltas: ModelDelta[] = [];
  let error: ModelError | undefined;
  try {
    for await (const delta of provider.stream(request)) deltas.push(delta);
  } catch (caught) {
    if (!(caught instanceof ModelError)) throw caught;
    error = caught;
  }
  const text = deltas.map((d) => (d.type === 'text' ? d.text : '')).join('');
  return { deltas, text, error };
}

/** A mock server plus a provider pointed at it, closed when the test ends. */
async function setup(
  t: { teardown(fn: () => Promise<void>): void },
  scenario: MockScenario,
  mockOptions: MockOpenAIOptions = {},
  providerOptions: Partial<OpenAICompatibleOptions> = {},
) {
  const mock = await startMockOpenAI({ scenario, ...mockOptions });
  t.teardown(() => mock.close());
  const retries: RetryInfo[] = [];
  const provider = new OpenAICompatibleProvider({
    baseUrl: mock.url,
    model: 'test-model',
    retryBaseDelayMs: 5,
    onRetry: (info) => retries.push(info),
    ...providerOptions,
  });
  return { mock, provider, retries };
}

test('streams the reply as text deltas, then the server-reported usage exactly once', async (t) => {
  const { mock, provider } = await setup(t, 'normal', {}, { apiKey: 'sk-test' });
  const { deltas, text, error } = await run(provider);
  t.is(error, undefined);
  t.is(text, defaultMockReply);
  t.true(deltas.filter((d) => d.type === 'text').length > 1);
  t.deepEqual(deltas.at(-1), {
    type: 'usage',
    promptTokens: Math.ceil(mock.requests[0]!.body.messages!.reduce((n, m) => n + m.content.length, 0) / 4) + 7,
    completionTokens: mockTokens(defaultMockReply).length,
    model: 'test-model',
    estimated: false,
  });
  t.is(deltas.filter((d) => d.type === 'usage').length, 1);

  const request = mock.requests[0]!;
  t.is(request.path, '/v1/chat/completions');
  t.is(request.headers.authorization, 'Bearer sk-test');
  t.true(request.body.stream);
  t.deepEqual(request.body.stream_options, { include_usage: true });
  t.is(request.body.model, 'test-model');
});

test('complete() returns the text and usage of the stream', async (t) => {
  const { provider } = await setup(t, 'normal', { reply: 'Short answer.' });
  const completion = await provider.complete(question);
  t.is(completion.text, 'Short answer.');
  t.is(completion.usage.completionTokens, mockTokens('Short answer.').length);
  t.false(completion.usage.estimated);
});

test('sends no Authorization header without a key, and passes temperature and max_tokens', async (t) => {
  const { mock, provider } = await setup(t, 'normal');
  await provider.complete({ ...question, temperature: 0.2, maxTokens: 64 });
  const request = mock.requests[0]!;
  t.is(request.headers.authorization, undefined);
  t.is(request.body.temperature, 0.2);
  t.is(request.body.max_tokens, 64);
});

test('a base URL without /v1 reaches the same endpoint', async (t) => {
  const { mock } = await setup(t, 'normal');
  const provider = new OpenAICompatibleProvider({ baseUrl: `${mock.origin}/`, model: 'm' });
  t.is((await provider.complete(question)).text, defaultMockReply);
  t.is(mock.requests[0]!.path, '/v1/chat/completions');
});

test('chatCompletionsUrl: bare origins get /v1, other paths are the API root', (t) => {
  t.is(chatCompletionsUrl('http://localhost:11434'), 'http://localhost:11434/v1/chat/completions');
  t.is(chatCompletionsUrl('http://localhost:11434/'), 'http://localhost:11434/v1/chat/completions');
  t.is(chatCompletionsUrl('http://localhost:8000/v1'), 'http://localhost:8000/v1/chat/completions');
  t.is(chatCompletionsUrl('https://api.openai.com/v1/'), 'https://api.openai.com/v1/chat/completions');
  t.is(chatCompletionsUrl('https://open.bigmodel.cn/api/paas/v4'), 'https://open.bigmodel.cn/api/paas/v4/chat/completions');
  t.is(chatCompletionsUrl('https://proxy.example/llm/v1/chat/completions'), 'https://proxy.example/llm/v1/chat/completions');
});

test('context documents become one numbered system message after the caller’s system messages', async (t) => {
  const { mock, provider } = await setup(t, 'normal');
  await provider.complete({
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is X?' },
    ],
    context: [
      { title: 'Doc A', url: 'https://a.example', text: 'X is a letter.' },
      { title: 'Doc B', text: 'X marks the spot.' },
    ],
  });
  const messages = mock.requests[0]!.body.messages!;
  t.deepEqual(messages.map((m) => m.role), ['system', 'system', 'user']);
  t.regex(messages[1]!.content, /\[1\] Doc A <https:\/\/a\.example>\nX is a letter\./);
  t.regex(messages[1]!.content, /\[2\] Doc B\nX marks the spot\./);
  t.deepEqual(withContext([{ role: 'user', content: 'q' }], []), [{ role: 'user', content: 'q' }]);
});

test('reassembles SSE frames split across TCP writes, inside fields and UTF-8 characters', async (t) => {
  const { provider } = await setup(t, 'fragmented', { tokensPerChunk: 3 });
  const { text, error, deltas } = await run(provider);
  t.is(error, undefined);
  t.is(text, defaultMockReply);
  t.false((deltas.at(-1) as { estimated: boolean }).estimated);
});

test('tolerates CRLF, comments, id/event fields and JSON spread over several data lines', async (t) => {
  const { provider } = await setup(t, 'quirky');
  const { text, error } = await run(provider);
  t.is(error, undefined);
  t.is(text, defaultMockReply);
});

test('a role-only first chunk yields no text delta', async (t) => {
  const { provider } = await setup(t, 'role-only', { reply: 'A B' });
  const { deltas } = await run(provider);
  t.deepEqual(
    deltas.filter((d) => d.type === 'text'),
    [
      { type: 'text', text: 'A' },
      { type: 'text', text: ' B' },
    ],
  );
});

test('without usage from the server, usage is estimated and still emitted once at the end', async (t) => {
  const { provider } = await setup(t, 'no-usage');
  const { deltas, error } = await run(provider);
  t.is(error, undefined);
  const usage = deltas.filter((d) => d.type === 'usage');
  t.is(usage.length, 1);
  t.is(deltas.at(-1), usage[0]);
  t.like(usage[0], { completionTokens: estimateTokens(defaultMockReply), model: 'test-model', estimated: true });
  t.true((usage[0] as { promptTokens: number }).promptTokens > 0);
});

test('accepts a plain JSON completion from a server that ignores stream: true', async (t) => {
  const { provider } = await setup(t, 'json');
  const { text, deltas } = await run(provider);
  t.is(text, defaultMockReply);
  t.like(deltas.at(-1), { type: 'usage', estimated: false, completionTokens: mockTokens(defaultMockReply).length });
});

test('429 then success: waits as Retry-After says and emits the text exactly once', async (t) => {
  const { mock, provider, retries } = await setup(t, 'rate-limit', { retryAfter: '1' });
  const { text, error } = await run(provider);
  t.is(error, undefined);
  t.is(text, defaultMockReply);
  t.deepEqual(mock.requests.map((r) => r.scenario), ['rate-limit', 'normal']);
  t.is(retries.length, 1);
  t.is(retries[0]!.delayMs, 1000);
  t.is(retries[0]!.error.kind, 'rate_limited');
  t.is(retries[0]!.error.status, 429);
});

test('a Retry-After longer than the retry cap is thrown for the job queue to honour', async (t) => {
  const { mock, provider } = await setup(t, 'rate-limit', { retryAfter: '120' }, { maxRetryDelayMs: 10_000 });
  const { error } = await run(provider);
  t.like(error, { kind: 'rate_limited', retryable: true, retryAfterMs: 120_000, textEmitted: false });
  t.is(mock.requests.length, 1);
});

test('parseRetryAfter reads retry-after-ms, seconds and HTTP dates', (t) => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  t.is(parseRetryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now), 250);
  t.is(parseRetryAfter(new Headers({ 'retry-after': '2' }), now), 2000);
  t.is(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }), now), 3000);
  t.is(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), now), undefined);
  t.is(parseRetryAfter(new Headers(), now), undefined);
});

test('500 then success: retries with backoff and emits the text exactly once', async (t) => {
  const { mock, provider, retries } = await setup(t, 'server-error');
  const { text, error } = await run(provider);
  t.is(error, undefined);
  t.is(text, defaultMockReply);
  t.is(mock.requests.length, 2);
  t.is(retries[0]!.error.kind, 'server');
});

test('gives up after maxAttempts with the last error', async (t) => {
  const { mock, provider, retries } = await setup(t, 'server-error', { failTimes: 10 }, { maxAttempts: 3 });
  const { error } = await run(provider);
  t.like(error, { kind: 'server', status: 500, retryable: true, textEmitted: false });
  t.is(mock.requests.length, 3);
  t.deepEqual(retries.map((r) => r.attempt), [1, 2]);
});

test('401 is an auth error and is not retried', async (t) => {
  const { mock, provider } = await setup(t, 'normal', { apiKey: 'right' }, { apiKey: 'wrong' });
  const { error } = await run(provider);
  t.like(error, { kind: 'auth', status: 401, retryable: false });
  t.regex(error!.message, /Incorrect API key/);
  t.is(mock.requests.length, 1);
});

test('a disconnect before any text is retried and the reply arrives once', async (t) => {
  const { mock, provider, retries } = await setup(t, 'disconnect', { failAt: 0 });
  const { text, error } = await run(provider);
  t.is(error, undefined);
  t.is(text, defaultMockReply);
  t.is(mock.requests.length, 2);
  t.is(retries[0]!.error.kind, 'network');
});

test('a disconnect after text was emitted throws instead of restarting the reply', async (t) => {
  const { mock, provider, retries } = await setup(t, 'disconnect', { failAt: 4 });
  const { text, error, deltas } = await run(provider);
  t.like(error, { kind: 'network', retryable: true, textEmitted: true });
  t.is(text, mockTokens(defaultMockReply).slice(0, 4).join(''));
  t.false(deltas.some((d) => d.type === 'usage'));
  t.is(mock.requests.length, 1);
  t.is(retries.length, 0);
});

test('an error chunk inside the stream after text is a server error marked textEmitted', async (t) => {
  const { mock, provider } = await setup(t, 'error-event', { failAt: 2 });
  const { text, error } = await run(provider);
  t.like(error, { kind: 'server', status: 500, textEmitted: true });
  t.regex(error!.message, /model worker crashed/);
  t.is(text, mockTokens(defaultMockReply).slice(0, 2).join(''));
  t.is(mock.requests.length, 1);
});

test('a malformed JSON chunk raises bad_response without retrying', async (t) => {
  const { mock, provider } = await setup(t, 'malformed', { failAt: 3 });
  const { error, text } = await run(provider);
  t.like(error, { kind: 'bad_response', retryable: false, textEmitted: true });
  t.is(text, mockTokens(defaultMockReply).slice(0, 3).join(''));
  t.is(mock.requests.length, 1);
});

test('a stream that ends without finish_reason or [DONE] is reported, not taken as complete', async (t) => {
  const { provider } = await setup(t, 'truncated', {}, { maxAttempts: 1 });
  const { error, text } = await run(provider);
  t.like(error, { kind: 'network', textEmitted: true });
  t.is(text, defaultMockReply);
});

test('the idle timeout ends a stream that stalls after text', async (t) => {
  const { mock, provider } = await setup(t, 'stall', { failAt: 2 }, { idleTimeoutMs: 1000 });
  const { error, text } = await run(provider);
  t.like(error, { kind: 'timeout', retryable: true, textEmitted: true });
  t.is(text, mockTokens(defaultMockReply).slice(0, 2).join(''));
  t.is(await mock.requests[0]!.outcome, 'client-closed');
});

test('a stall before the first token times out and is retried', async (t) => {
  const { mock, provider, retries } = await setup(t, 'stall', { failAt: 0 }, { idleTimeoutMs: 1000 });
  const { text, error } = await run(provider);
  t.is(error, undefined);
  t.is(text, defaultMockReply);
  t.is(retries[0]!.error.kind, 'timeout');
  t.is(mock.requests.length, 2);
});

test('the connect timeout covers a server that never sends headers', async (t) => {
  const { mock, provider } = await setup(t, 'hang', {}, { connectTimeoutMs: 200, maxAttempts: 1 });
  const { error } = await run(provider);
  t.like(error, { kind: 'timeout', textEmitted: false });
  t.is(mock.requests.filter((r) => r.scenario === 'normal').length, 0);
});

test('a refused connection is a retryable network error', async (t) => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  const retries: RetryInfo[] = [];
  const provider = new OpenAICompatibleProvider({ baseUrl: `http://127.0.0.1:${port}`, model: 'm', retryBaseDelayMs: 1, onRetry: (r) => retries.push(r) });
  const { error } = await run(provider);
  t.like(error, { kind: 'network', retryable: true });
  t.is(retries.length, 2);
});

test('aborting mid-stream stops the request with kind aborted', async (t) => {
  const { mock, provider } = await setup(t, 'slow', { delayMs: 50 });
  const controller = new AbortController();
  const deltas: ModelDelta[] = [];
  const error = await t.throwsAsync(
    async () => {
      for await (const delta of provider.stream({ ...question, signal: controller.signal })) {
        deltas.push(delta);
        if (deltas.length === 2) controller.abort();
      }
    },
    { instanceOf: ModelError },
  );
  t.like(error, { kind: 'aborted', retryable: false });
  t.is(deltas.length, 2);
  t.is(await mock.requests[0]!.outcome, 'client-closed');
  t.is(mock.requests.length, 1);
});

test('aborting during a retry wait ends it with kind aborted', async (t) => {
  const controller = new AbortController();
  const { mock, provider } = await setup(t, 'rate-limit', { retryAfter: '60' }, { maxRetryDelayMs: 120_000, onRetry: () => controller.abort() });
  const error = await t.throwsAsync(provider.complete({ ...question, signal: controller.signal }), { instanceOf: ModelError });
  t.is(error.kind, 'aborted');
  t.is(mock.requests.length, 1);
});

test('an already aborted signal sends nothing', async (t) => {
  const { mock, provider } = await setup(t, 'normal');
  const error = await t.throwsAsync(provider.complete({ ...question, signal: AbortSignal.abort() }), { instanceOf: ModelError });
  t.is(error.kind, 'aborted');
  t.is(mock.requests.length, 0);
});

test('a caller that stops reading early releases the connection', async (t) => {
  const { mock, provider } = await setup(t, 'slow', { delayMs: 50 });
  for await (const delta of provider.stream(question)) {
    if (delta.type === 'text') break;
  }
  t.is(await mock.requests[0]!.outcome, 'client-closed');
});

test('names itself after the model', (t) => {
  const provider = new OpenAICompatibleProvider({ baseUrl: 'http://localhost:11434', model: 'qwen2.5:7b' });
  t.is(provider.name, 'openai-compatible:qwen2.5:7b');
  t.false(provider.offline);
});

test('an HTML page where the API should be is a bad_response naming the URL', async (t) => {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html>login</html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/portal`;
  const { error } = await run(new OpenAICompatibleProvider({ baseUrl: base, model: 'm' }));
  t.like(error, { kind: 'bad_response', retryable: false });
  t.regex(error!.message, /\/portal\/chat\/completions, got text\/html/);
});

test('offers tools in the OpenAI shape and returns the calls the model streams in pieces (or sends whole) on the usage delta', async (t) => {
  const tool = { name: 'run_command', description: 'Runs a shell command once a person approves it', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } };
  const toolCalls = () => [{ name: 'run_command', arguments: '{"command":"ls -la"}' }];
  for (const scenario of ['normal', 'fragmented', 'json'] as const) {
    const { mock, provider } = await setup(t, scenario, { reply: '我来看看。', toolCalls });
    const { deltas, text, error } = await run(provider, { messages: [{ role: 'user', content: 'list the files' }], tools: [tool] });
    t.is(error, undefined);
    t.is(text, '我来看看。');
    t.deepEqual(mock.requests[0]!.body['tools'], [{ type: 'function', function: tool }]);
    const usage = deltas.at(-1);
    t.like(usage, { type: 'usage', toolCalls: [{ id: 'call_mock_0', name: 'run_command', arguments: '{"command":"ls -la"}' }] }, scenario);
  }
  const { mock, provider } = await setup(t, 'normal');
  const { deltas } = await run(provider);
  t.false('tools' in mock.requests[0]!.body);
  t.false('toolCalls' in deltas.at(-1)!);
});

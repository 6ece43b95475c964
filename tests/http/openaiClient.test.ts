import test from 'ava';
import OpenAI, { APIError, AuthenticationError, BadRequestError, NotFoundError } from 'openai';
import { signInAdmin, signUp, startTestApp, type TestApp } from '../support/app.ts';
import { startMockOpenAI } from '../support/mockOpenAI.ts';

/** The official client, pointed at the engineer api with a user's token, retrying nothing so each refusal is seen once. */
const openai = (app: TestApp, apiKey: string) => new OpenAI({ apiKey, baseURL: `${app.url}/backend/engineer/v1`, maxRetries: 0 });

const charges = async (app: TestApp, userId: string) => {
  await app.settle();
  const events = await app.services.events.readAll({ after: 0, maxCount: 100_000 });
  return events.filter((event) => event.type === 'TokensConsumed' && (event.data as { userId: string }).userId === userId).map((event) => event.data as { prompt: number; completion: number });
};

test('the official openai client lists and retrieves models, and completes with text parts, the developer role, stop, temperature and a completion cap; streamed with include_usage', async (t) => {
  const upstream = await startMockOpenAI({ reply: '先检查令牌是否过期。END 这句不该出现。' });
  t.teardown(() => upstream.close());
  const app = await startTestApp({ LLM_BASE_URL: upstream.url, LLM_MODEL: 'mock-model' });
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'sdkuser');
  const sdk = openai(app, user.token!);

  const models = await sdk.models.list();
  t.is(models.data.length, 1);
  const [served] = models.data;
  t.like(served, { id: 'openai-compatible:mock-model', object: 'model', owned_by: 'scriptorium' });
  t.true(Number.isInteger(served!.created) && served!.created > 1_600_000_000);
  t.deepEqual(await sdk.models.retrieve(served!.id), served);
  const missing = await t.throwsAsync(sdk.models.retrieve('gpt-4o'), { instanceOf: NotFoundError });
  t.like(missing, { status: 404, code: 'model_not_found', type: 'invalid_request_error', message: '404 模型不存在：gpt-4o' });

  const completion = await sdk.chat.completions.create({
    model: served!.id,
    messages: [
      { role: 'developer', content: '只回答要点。' },
      { role: 'user', content: [{ type: 'text', text: '登录接口返回 401。' }, { type: 'text', text: '该查什么？' }] },
    ],
    stop: ['END'],
    temperature: 0.2,
    max_completion_tokens: 60,
  });
  t.is(completion.object, 'chat.completion');
  t.is(completion.choices[0]!.message.content, '先检查令牌是否过期。');
  t.is(completion.choices[0]!.finish_reason, 'stop');
  t.true(completion.usage!.total_tokens > 0);
  const sent = upstream.requests.at(-1)!.body;
  t.deepEqual(sent.messages, [
    { role: 'system', content: '只回答要点。' },
    { role: 'user', content: '登录接口返回 401。\n该查什么？' },
  ]);
  t.is(sent.temperature, 0.2);
  t.is(sent.max_tokens, 60);
  t.deepEqual(sent.stop, ['END']);

  const stream = await sdk.chat.completions.create({ model: served!.id, messages: [{ role: 'user', content: '再说一遍' }], stream: true, stream_options: { include_usage: true }, stop: '这句', max_tokens: 40 });
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  const text = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? '')).join('');
  t.is(text, '先检查令牌是否过期。END ');
  t.is(upstream.requests.at(-1)!.body.max_tokens, 40);
  const last = chunks.at(-1)!;
  t.deepEqual(last.choices, []);
  t.true(last.usage!.completion_tokens > 0);
  t.is(last.usage!.total_tokens, last.usage!.prompt_tokens + last.usage!.completion_tokens);
  t.true(chunks.slice(0, -1).every((chunk) => chunk.usage === null));
  t.is(chunks.at(-2)!.choices[0]!.finish_reason, 'stop');

  // Charged for what the model produced, the cut-off text included.
  const charged = await charges(app, user.userId);
  t.is(charged.length, 2);
  t.like(charged[1], { prompt: last.usage!.prompt_tokens, completion: last.usage!.completion_tokens });
});

test('the official client reads every refusal: a bad key, a bad body naming its parameter, and a spent budget with its readable message', async (t) => {
  const app = await startTestApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password' });
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'sdkbudget');
  const ask = { model: 'offline', messages: [{ role: 'user' as const, content: '事件溯源是什么？' }] };

  const badKey = await t.throwsAsync(openai(app, 'not-a-token').chat.completions.create(ask), { instanceOf: AuthenticationError });
  t.like(badKey, { status: 401, code: 'invalid_api_key', type: 'authentication_error', message: '401 认证失败，请重新登录' });
  await t.throwsAsync(openai(app, 'not-a-token').models.list(), { instanceOf: AuthenticationError });

  const sdk = openai(app, user.token!);
  const offline = await sdk.chat.completions.create(ask);
  t.is(offline.model, 'offline');
  t.truthy(offline.choices[0]!.message.content);

  const image = await t.throwsAsync(
    sdk.chat.completions.create({ model: 'offline', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] }] }),
    { instanceOf: BadRequestError },
  );
  t.like(image, { status: 400, param: 'messages.[0].content', code: 'engineer.content_invalid', type: 'invalid_request_error' });
  const tooMany = await t.throwsAsync(sdk.chat.completions.create({ ...ask, stop: ['a', 'b', 'c', 'd', 'e'] }), { instanceOf: BadRequestError });
  t.like(tooMany, { param: 'stop', code: 'engineer.stop_invalid' });
  const hot = await t.throwsAsync(sdk.chat.completions.create({ ...ask, temperature: 2.5 }), { instanceOf: BadRequestError });
  t.like(hot, { param: 'temperature', code: 'validation.too_big' });

  // Whatever the client sends, the answer is in OpenAI's shape: an unknown path, another method, a body that is not JSON.
  const unknown = await user.request('POST', '/backend/engineer/v1/embeddings', { input: 'x' });
  t.is(unknown.status, 404);
  t.like(unknown.body.error, { type: 'invalid_request_error', code: 'http.not_found', param: null });
  const wrongMethod = await user.request('GET', '/backend/engineer/v1/chat/completions');
  t.is(wrongMethod.status, 405);
  t.is(wrongMethod.headers.get('allow'), 'POST');
  t.like(wrongMethod.body.error, { message: '该路径不支持此请求方法', code: 'http.method_not_allowed' });
  const notJson = await user.request('POST', '/backend/engineer/v1/chat/completions', undefined, { raw: '{"messages": [', headers: { 'content-type': 'application/json' } });
  t.is(notJson.status, 400);
  t.like(notJson.body.error, { type: 'invalid_request_error', code: 'http.invalid_json' });

  const admin = await signInAdmin(app.url);
  t.is((await admin.request('PUT', `/backend/auth/admin/users/${user.userId}/token-limit`, { token_level_limit: 0 })).status, 200);
  for (const stream of [false, true]) {
    const spent = await t.throwsAsync(sdk.chat.completions.create({ ...ask, stream }));
    t.true(spent instanceof APIError);
    t.like(spent, { status: 402, code: 'insufficient_quota', type: 'insufficient_quota', message: '402 Token使用额度已用尽，请联系管理员进行充值' });
    t.is((spent as APIError).error && ((spent as APIError).error as { message: string }).message, 'Token使用额度已用尽，请联系管理员进行充值');
  }
});

const runCommand = {
  type: 'function' as const,
  function: { name: 'run_command', description: 'Propose a shell command', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } },
};

test('tools with the official client: with no model a labelled fixed rule proposes run_command (whole and streamed), anything else is answered in text', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'sdktools');
  const sdk = openai(app, user.token!);

  const whole = await sdk.chat.completions.create({ model: 'offline', messages: [{ role: 'user', content: 'list the files' }], tools: [runCommand] });
  const choice = whole.choices[0]!;
  t.is(choice.finish_reason, 'tool_calls');
  t.is(choice.message.content, 'Offline rule (no model configured): suggest running `ls -la`');
  t.is(choice.message.tool_calls!.length, 1);
  const call = choice.message.tool_calls![0]!;
  t.true(call.type === 'function' && call.function.name === 'run_command' && JSON.parse(call.function.arguments).command === 'ls -la');
  t.regex(call.id, /^call_/);

  const stream = await sdk.chat.completions.create({ model: 'offline', messages: [{ role: 'user', content: '再跑一遍测试' }], tools: [runCommand], stream: true });
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  t.is(chunks.flatMap((chunk) => chunk.choices.map((c) => c.delta.content ?? '')).join(''), '离线规则（未配置模型）：建议运行 `npm test`');
  const pieces = chunks.flatMap((chunk) => chunk.choices.flatMap((c) => c.delta.tool_calls ?? []));
  t.is(pieces.length, 1);
  t.like(pieces[0], { index: 0, type: 'function', function: { name: 'run_command', arguments: '{"command":"npm test"}' } });
  t.is(chunks.at(-1)!.choices[0]!.finish_reason, 'tool_calls');

  // The official client's helper assembles the same call from the stream.
  const runner = sdk.chat.completions.stream({ model: 'offline', messages: [{ role: 'user', content: 'what is the current directory?' }], tools: [runCommand] });
  const final = await runner.finalChatCompletion();
  t.like(final.choices[0]!.message.tool_calls![0], { function: { name: 'run_command', arguments: '{"command":"pwd"}' } });

  // No rule matches, the tool is not offered, or the client says `none`: a text answer as before.
  for (const request of [
    { messages: [{ role: 'user' as const, content: '事件溯源是什么？' }], tools: [runCommand] },
    { messages: [{ role: 'user' as const, content: 'list the files' }] },
    { messages: [{ role: 'user' as const, content: 'list the files' }], tools: [runCommand], tool_choice: 'none' as const },
  ]) {
    const answer = await sdk.chat.completions.create({ model: 'offline', ...request });
    t.is(answer.choices[0]!.finish_reason, 'stop');
    t.is(answer.choices[0]!.message.tool_calls, undefined);
    t.truthy(answer.choices[0]!.message.content);
  }

  // A conversation that carries the call and its result back is taken; a bad tool is refused naming it.
  const followUp = await sdk.chat.completions.create({
    model: 'offline',
    messages: [
      { role: 'user', content: 'list the files' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'run_command', arguments: '{"command":"ls -la"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'README.md\npackage.json' },
    ],
    tools: [runCommand],
  });
  t.is(followUp.choices[0]!.finish_reason, 'stop');
  const bad = await t.throwsAsync(sdk.chat.completions.create({ model: 'offline', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'has spaces' } }] }), { instanceOf: BadRequestError });
  t.like(bad, { param: 'tools.[0].function.name' });
});

test('tools with a configured model: passed through, and the call the model streams back reaches the official client', async (t) => {
  const upstream = await startMockOpenAI({ reply: '', toolCalls: (body) => (body.tools ? [{ name: 'run_command', arguments: '{"command":"git status"}' }] : undefined) });
  t.teardown(() => upstream.close());
  const app = await startTestApp({ LLM_BASE_URL: upstream.url, LLM_MODEL: 'mock-model' });
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'sdktoolsup');
  const sdk = openai(app, user.token!);

  for (const stream of [false, true]) {
    const final = stream
      ? await sdk.chat.completions.stream({ model: 'x', messages: [{ role: 'user', content: '有哪些改动？' }], tools: [runCommand] }).finalChatCompletion()
      : await sdk.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: '有哪些改动？' }], tools: [runCommand] });
    t.deepEqual(upstream.requests.at(-1)!.body['tools'], [runCommand]);
    t.is(final.choices[0]!.finish_reason, 'tool_calls');
    t.like(final.choices[0]!.message.tool_calls![0], { type: 'function', function: { name: 'run_command', arguments: '{"command":"git status"}' } });
  }
  // Tool turns reach a model as text, since the model port carries text turns only.
  await sdk.chat.completions.create({
    model: 'x',
    messages: [
      { role: 'user', content: '有哪些改动？' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'run_command', arguments: '{"command":"git status"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'nothing to commit' },
    ],
  });
  t.deepEqual(upstream.requests.at(-1)!.body.messages!.slice(1), [
    { role: 'assistant', content: '[called run_command({"command":"git status"}) as call_1]' },
    { role: 'user', content: '[tool result call_1]\nnothing to commit' },
  ]);
});

import test from 'ava';
import { OpenAICompatibleProvider } from '@scriptorium/infra/model/openai';
import { client, signUp, startTestApp } from '../support/app.ts';
import { startMockOpenAI } from '../support/mockOpenAI.ts';

const chargedFor = async (app: Awaited<ReturnType<typeof startTestApp>>, userId: string) => {
  await app.settle();
  const events = await app.services.events.readAll({ after: 0, maxCount: 100_000 });
  return events.filter((event) => event.type === 'TokensConsumed' && (event.data as { userId: string }).userId === userId).map((event) => event.data as { prompt: number; completion: number; model: string });
};

test('an OpenAI client streams from the engineer endpoint with the user’s token, and the call is charged', async (t) => {
  const upstream = await startMockOpenAI({ reply: '先检查令牌是否过期，再看时钟是否同步。' });
  t.teardown(() => upstream.close());
  const app = await startTestApp({ LLM_BASE_URL: upstream.url, LLM_MODEL: 'mock-model' });
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'engineer');
  const viaSdk = new OpenAICompatibleProvider({ baseUrl: `${app.url}/backend/engineer/v1`, model: 'any', apiKey: user.token!, maxAttempts: 1 });
  let text = '';
  let usage;
  for await (const delta of viaSdk.stream({ messages: [{ role: 'user', content: '登录接口为什么返回 401？' }] })) {
    if (delta.type === 'text') text += delta.text;
    else usage = delta;
  }
  t.is(text, '先检查令牌是否过期，再看时钟是否同步。');
  t.false(usage!.estimated, 'the usage chunk came through');
  const charged = await chargedFor(app, user.userId);
  t.is(charged.length, 1);
  t.like(charged[0], { prompt: usage!.promptTokens, completion: usage!.completionTokens });

  const plain = await user.request('POST', '/backend/engineer/v1/chat/completions', { messages: [{ role: 'user', content: '再说一遍' }] });
  t.like(plain.body, { object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: '先检查令牌是否过期，再看时钟是否同步。' }, finish_reason: 'stop' }] });
  t.true(plain.body.usage.total_tokens > 0);
  t.is((await chargedFor(app, user.userId)).length, 2);
});

test('without a model the offline engine answers; bad requests and missing tokens are refused in OpenAI’s shape; an empty budget is 402', async (t) => {
  const app = await startTestApp({ TOKENS_PER_COIN: '1' });
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'offlineengineer');
  const answer = await user.request('POST', '/backend/engineer/v1/chat/completions', { messages: [{ role: 'user', content: '事件溯源是什么？' }] });
  t.is(answer.status, 200);
  t.is(answer.body.model, 'offline');
  t.is((await client(app.url).request('POST', '/backend/engineer/v1/chat/completions', { messages: [{ role: 'user', content: 'x' }] })).status, 401);
  // OpenAI's status and shape for a bad body, naming the parameter.
  const empty = await user.request('POST', '/backend/engineer/v1/chat/completions', { messages: [] });
  t.is(empty.status, 400);
  t.deepEqual(empty.body, { error: { message: 'messages: messages 不能为空', type: 'invalid_request_error', code: 'engineer.messages_empty', param: 'messages' } });
  const legacy = await user.request('POST', '/backend/engineer/v1/chat/completions', { messages: [{ role: 'function', content: 'x' }] });
  t.is(legacy.status, 400);
  t.like(legacy.body.error, { type: 'invalid_request_error', code: 'engineer.role_invalid', param: 'messages.[0].role' });
  for (let round = 0; round < 20; round++) {
    await app.settle();
    const next = await user.request('POST', '/backend/engineer/v1/chat/completions', { messages: [{ role: 'user', content: `第 ${round} 个问题：请详细解释事件溯源与 CQRS。` }] });
    if (next.status === 402) {
      t.deepEqual(next.body, { error: { message: 'Token使用额度已用尽，请联系管理员进行充值', type: 'insufficient_quota', code: 'insufficient_quota', param: null } });
      return;
    }
  }
  t.fail('the budget never ran out');
});

test('query refinement with a model is charged like every other call', async (t) => {
  const upstream = await startMockOpenAI({ reply: '2025 年中国钠离子电池储能的成本与装机规模' });
  t.teardown(() => upstream.close());
  const app = await startTestApp({ LLM_BASE_URL: upstream.url, LLM_MODEL: 'mock-model' });
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'refiner');
  const refined = await user.request('POST', '/backend/conversation/api/v2/query/refine', { query: '钠电池  储能 怎么样' });
  t.like(refined.body, { refined_query: '2025 年中国钠离子电池储能的成本与装机规模', offline: false });
  const charged = await chargedFor(app, user.userId);
  t.is(charged.length, 1);
  t.true(charged[0]!.prompt > 0);
});

import test from 'ava';
import { signInAdmin, signUp, startTestApp } from '../support/app.ts';
import { startMockOpenAI } from '../support/mockOpenAI.ts';

const EXHAUSTED = 'Token使用额度已用尽，请联系管理员进行充值';

test('holds are sized by the call: small calls share the last 2,000 tokens; while a running call holds the rest the answer says so, not that the quota is spent', async (t) => {
  // Each chunk takes a while, so the calls below overlap.
  const upstream = await startMockOpenAI({ delayMs: 100 });
  t.teardown(() => upstream.close());
  const app = await startTestApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password', LLM_BASE_URL: upstream.url, LLM_MODEL: 'mock-model' });
  t.teardown(() => app.stop());
  const admin = await signInAdmin(app.url);
  const withTwoCoins = async (name: string) => {
    const user = await signUp(app.url, name);
    t.is((await admin.request('PUT', `/backend/auth/admin/users/${user.userId}/token-limit`, { token_level_limit: 2 })).status, 200);
    return user;
  };
  const body = (maxTokens?: number) => ({ messages: [{ role: 'user', content: '一句话说明事件溯源。' }], ...(maxTokens !== undefined && { max_tokens: maxTokens }) });

  const small = await withTwoCoins('lastcoins');
  const calls = await Promise.all(Array.from({ length: 10 }, () => small.request('POST', '/backend/engineer/v1/chat/completions', body(40))));
  t.deepEqual(
    calls.map((response) => response.status),
    Array(10).fill(200),
  );

  const large = await withTwoCoins('heldcoins');
  // A call with no completion cap may use everything left: it holds all of it while it streams.
  const running = await fetch(`${app.url}/backend/engineer/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${large.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...body(), stream: true }),
  });
  t.is(running.status, 200);
  const refused = await Promise.all(Array.from({ length: 3 }, () => large.request('POST', '/backend/engineer/v1/chat/completions', body())));
  for (const response of refused) {
    t.is(response.status, 429);
    t.like(response.body.error, { code: 'rate_limit_exceeded', message: '额度正被进行中的请求占用，请稍后再试' });
    t.not(response.body.error.message, EXHAUSTED);
  }
  await running.text();
});

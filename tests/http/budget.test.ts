import test from 'ava';
import type { WireContent } from '@scriptorium/domain/protocol/content';
import type { TokensConsumed } from '@scriptorium/domain/conversation/conversation';
import { signInAdmin, signUp, startTestApp, type Client, type TestApp } from '../support/app.ts';

const EXHAUSTED = 'Token使用额度已用尽，请联系管理员进行充值';
const BUSY = '额度正被进行中的请求占用，请稍后再试';

let app: TestApp;
let admin: Client;
test.before(async () => {
  // One token a coin: the default 100 coins last about one offline reply.
  app = await startTestApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password', TOKENS_PER_COIN: '1' });
  admin = await signInAdmin(app.url);
});
test.after.always(async () => {
  await app?.stop();
});

const eventCount = () => app.services.events.headPosition();
const settle = () => app.settle();
const idle = async (user: Client, sessionId: string) => {
  for (;;) {
    if (!(await user.request('GET', `/backend/conversation/research/${sessionId}/status`)).body.processing) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
const session = async (user: Client) => (await user.request('POST', '/backend/conversation/sessions', { client_id: 'budget' })).body.session_id as string;

async function consumed(userId: string) {
  const events = await app.services.events.readAll({ after: 0, maxCount: 100_000 });
  return events.filter((event) => event.type === 'TokensConsumed' && (event.data as TokensConsumed['data']).userId === userId).map((event) => event.data as TokensConsumed['data']);
}

/** Spends the user's budget with one reply and waits until the charge is in. */
async function exhaust(user: Client & { userId: string }) {
  const id = await session(user);
  for (let round = 0; round < 20; round++) {
    const sent = await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: id, text: `问题 ${round}：请详细解释事件溯源与 CQRS。` });
    if (sent.status === 402) return id;
    await idle(user, id);
    await settle();
  }
  throw new Error('the budget never ran out');
}

test.serial('once the budget is gone every model call is 402 with the spec’s text, and nothing runs', async (t) => {
  const user = await signUp(app.url, 'lan');
  const id = await exhaust(user);
  await settle();
  const info = await user.request('GET', '/backend/auth/user/token-info');
  t.like(info.body, { total_available: 0, token_remaining: 0 });
  t.true(info.body.today_usage >= 100);
  const before = await eventCount();
  const calls = [
    await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: id, text: '还能回答吗？' }),
    await user.request('POST', '/backend/conversation/api/v2/chat/send', { session_id: id, message: '还能回答吗？' }),
    await user.request('POST', '/backend/conversation/api/v2/query/refine', { query: '事件溯源' }),
  ];
  for (const response of calls) {
    t.is(response.status, 402);
    t.is(response.body.detail, EXHAUSTED);
  }
  t.is(await eventCount(), before, 'no message, no job, no usage');
  const charged = (await consumed(user.userId)).reduce((sum, usage) => sum + usage.prompt + usage.completion, 0);
  t.is(info.body.today_usage, charged, 'charged exactly what the model reported');
});

test.serial('ten calls at once with room for one: one model call runs, the rest are refused before the model', async (t) => {
  const user = await signUp(app.url, 'mona');
  const sessions = await Promise.all(Array.from({ length: 10 }, () => session(user)));
  const sent = await Promise.all(sessions.map((id) => user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: id, text: '请写一段关于投影的说明。' })));
  for (const id of sessions) await idle(user, id);
  await settle();
  const replies = new Set((await consumed(user.userId)).map((usage) => usage.messageId));
  t.is(replies.size, 1, 'only the call that held the budget reached the model');
  // Refused while the running call holds the rest (busy), or after it spent it (exhausted): never exhausted while coins remain.
  const refusedByHttp = sent.filter((response) => response.status === 429 || response.status === 402).length;
  const refusedInWorker = [];
  for (const id of sessions) {
    const history = await user.request('GET', `/backend/conversation/sessions/${id}/messages`);
    const reply = history.body.messages.find((message: { role: string }) => message.role === 'assistant');
    if (reply?.status === 'failed') refusedInWorker.push(reply.contents.find((item: WireContent) => item.content_type === 'error'));
  }
  t.is(refusedByHttp + refusedInWorker.length, 9);
  t.true(refusedInWorker.every((item) => [BUSY, EXHAUSTED].includes(item.content.error_message)));
  t.true(sent.every((response) => response.status !== 402 || response.body.code === 'budget.exhausted'));
});

test.serial('an admin’s refresh, extra budget or higher limit lets the user go on', async (t) => {
  const user = await signUp(app.url, 'ning');
  const id = await exhaust(user);
  const refreshed = await admin.request('POST', `/backend/auth/admin/users/${user.userId}/refresh-tokens`);
  t.like(refreshed.body, { today_usage: 0, total_available: 100 });
  t.true(refreshed.body.all_usage >= 100, 'all-time usage survives the refresh');
  t.is((await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: id, text: '刷新之后继续。' })).status, 200);
  await idle(user, id);
  await settle();
  await exhaust(user);
  const topped = await admin.request('POST', `/backend/auth/admin/users/${user.userId}/extra-budget`, { amount: 5000 });
  t.true(topped.body.total_available > 4000);
  t.is((await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: id, text: '追加额度之后继续。' })).status, 200);
  await idle(user, id);
});

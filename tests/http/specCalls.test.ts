import test from 'ava';
import { client, signUp, startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.stop();
});

const idle = async (user: Awaited<ReturnType<typeof signUp>>, sessionId: string) => {
  for (let tries = 0; tries < 200; tries++) {
    if (!(await user.request('GET', `/backend/conversation/research/${sessionId}/status`)).body.processing) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

test.serial('POST /api/conversations/chat opens a general chat for a first message and continues it after', async (t) => {
  const user = await signUp(app.url, 'chatter');
  const first = await user.request('POST', '/backend/api/conversations/chat', { message: '你好' });
  t.is(first.status, 200);
  t.is(first.body.agent, 'poe_llm');
  const sessionId = first.body.session_id as string;
  const session = await user.request('GET', `/backend/conversation/research/${sessionId}`);
  t.is(session.body.collaboration_mode, 0);
  await idle(user, sessionId);

  const second = await user.request('POST', '/backend/api/conversations/chat', { session_id: sessionId, message: '再说一次' });
  t.is(second.status, 200);
  t.is(second.body.session_id, sessionId);
  t.not(second.body.message_id, first.body.message_id);
  await idle(user, sessionId);
  const { body } = await user.request('GET', `/backend/conversation/sessions/${sessionId}/messages`);
  t.deepEqual(
    body.messages.filter((message: { role: string }) => message.role === 'user').map((message: { contents: Array<{ content: string }> }) => message.contents[0]!.content),
    ['你好', '再说一次'],
  );
  t.is((await user.request('GET', '/backend/conversation/api/chats/my')).body.total, 1);
});

test.serial('POST /api/conversations/chat refuses a blank message, a stranger and another user’s session', async (t) => {
  const owner = await signUp(app.url, 'chatowner');
  const { body } = await owner.request('POST', '/backend/api/conversations/chat', { message: '我的会话' });
  const other = await signUp(app.url, 'chatother');
  t.is((await other.request('POST', '/backend/api/conversations/chat', { session_id: body.session_id, message: '闯入' })).status, 404);
  const blank = await owner.request('POST', '/backend/api/conversations/chat', { message: '   ' });
  t.is(blank.status, 422);
  t.deepEqual(blank.body.detail[0].loc, ['body', 'message']);
  t.is((await client(app.url).request('POST', '/backend/api/conversations/chat', { message: '匿名' })).status, 401);
  t.is((await owner.request('GET', '/backend/conversation/api/chats/my')).body.total, 1, 'the refusals opened no session');
});

test.serial('GET /conversation/api/research/share/{id} lists the owner’s links to a session, open or not', async (t) => {
  const user = await signUp(app.url, 'linklister');
  const { body: chat } = await user.request('POST', '/backend/api/conversations/chat', { message: '分享我' });
  const sessionId = chat.session_id as string;
  t.deepEqual((await user.request('GET', `/backend/conversation/api/research/share/${sessionId}`)).body, { session_id: sessionId, shares: [] });

  const kept = await user.request('POST', '/backend/conversation/sessions/share', { session_id: sessionId, title: '保留', expires_days: 7 });
  const revoked = await user.request('POST', '/backend/conversation/sessions/share', { session_id: sessionId, title: '撤回' });
  await user.request('DELETE', `/backend/conversation/share/${revoked.body.share_id}`);

  const listed = await user.request('GET', `/backend/conversation/api/research/share/${sessionId}`);
  t.is(listed.status, 200);
  const byId = new Map(listed.body.shares.map((share: { share_id: string }) => [share.share_id, share]));
  t.like(byId.get(kept.body.share_id), { kind: 'conversation', title: '保留', revoked: false, open: true, path: `/share/conversation/${kept.body.share_id}` });
  t.like(byId.get(revoked.body.share_id), { title: '撤回', revoked: true, open: false, expires_at: null });
  t.is(listed.body.shares.length, 2);
});

test.serial('GET /conversation/api/research/share/{id} shows nothing to anyone but the owner', async (t) => {
  const owner = await signUp(app.url, 'linkowner');
  const { body: chat } = await owner.request('POST', '/backend/api/conversations/chat', { message: '私有' });
  await owner.request('POST', '/backend/conversation/sessions/share', { session_id: chat.session_id });
  const other = await signUp(app.url, 'linkother');
  t.is((await other.request('GET', `/backend/conversation/api/research/share/${chat.session_id}`)).status, 404);
  t.is((await client(app.url).request('GET', `/backend/conversation/api/research/share/${chat.session_id}`)).status, 401);
  t.is((await owner.request('GET', '/backend/conversation/api/research/share/not-a-session')).status, 422);
});

import test from 'ava';
import { client, signUp, startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.stop();
});

const chatted = async (name: string) => {
  const user = await signUp(app.url, name);
  const { body } = await user.request('POST', '/backend/conversation/sessions', {});
  await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: body.session_id, text: '分享测试' });
  for (let tries = 0; tries < 200; tries++) {
    if (!(await user.request('GET', `/backend/conversation/research/${body.session_id}/status`)).body.processing) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { user, sessionId: body.session_id as string };
};

test.serial('a shared conversation opens read-only for anyone, with its messages', async (t) => {
  const { user, sessionId } = await chatted('sharer');
  const created = await user.request('POST', '/backend/conversation/sessions/share', { session_id: sessionId, title: '我的报告', description: '公开', expires_days: null });
  t.is(created.status, 200);
  t.regex(created.body.share_id, /^[0-9a-f]{32}$/);
  const opened = await client(app.url).request('GET', `/backend/conversation/share/${created.body.share_id}`);
  t.is(opened.status, 200);
  t.like(opened.body, { title: '我的报告', description: '公开', expires_at: null, canvas: null });
  t.is(opened.body.session.session_id, sessionId);
  t.is(opened.body.messages.length, 2);
  t.is(opened.body.messages[0].contents[0].content, '分享测试');
});

test.serial('only the owner shares and revokes; a revoked or expired link is gone', async (t) => {
  const { user, sessionId } = await chatted('revoker');
  const other = await signUp(app.url, 'notowner');
  t.is((await other.request('POST', '/backend/conversation/sessions/share', { session_id: sessionId })).status, 404);
  const { body } = await user.request('POST', '/backend/conversation/sessions/share', { session_id: sessionId, expires_days: 7 });
  t.is((await other.request('DELETE', `/backend/conversation/share/${body.share_id}`)).status, 404);
  t.is((await client(app.url).request('GET', `/backend/conversation/share/${body.share_id}`)).status, 200);

  const realClock = app.services.clock;
  app.services.clock = () => new Date(Date.now() + 8 * 86_400_000);
  try {
    const expired = await client(app.url).request('GET', `/backend/conversation/share/${body.share_id}`);
    t.is(expired.status, 404);
    t.is(expired.body.detail, '分享不存在或已过期');
  } finally {
    app.services.clock = realClock;
  }

  t.is((await user.request('DELETE', `/backend/conversation/share/${body.share_id}`)).status, 200);
  t.is((await client(app.url).request('GET', `/backend/conversation/share/${body.share_id}`)).status, 404);
});

test.serial('bad share requests are refused with clear errors', async (t) => {
  const { user, sessionId } = await chatted('badsharer');
  t.is((await user.request('POST', '/backend/conversation/sessions/share', { session_id: sessionId, expires_days: 0 })).status, 422);
  t.is((await user.request('POST', '/backend/conversation/sessions/share', { session_id: 'x' })).status, 422);
  t.is((await client(app.url).request('POST', '/backend/conversation/sessions/share', { session_id: sessionId })).status, 401);
  t.is((await client(app.url).request('GET', '/backend/conversation/share/doesnotexist1')).status, 404);
  t.is((await client(app.url).request('GET', '/backend/conversation/share/short')).status, 422);
});

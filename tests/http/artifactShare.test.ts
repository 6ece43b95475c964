import test from 'ava';
import type { WireContent } from '@scriptorium/domain/protocol/content';
import { client, signUp, startTestApp } from '../support/app.ts';
import { startMockOpenAI } from '../support/mockOpenAI.ts';

const PAGE = '<!doctype html><h1>价格计算器</h1><script>document.title = "ok"</script>';

test('a generated file is shared on its own page until the link is revoked', async (t) => {
  const upstream = await startMockOpenAI({ reply: `这是页面：<artifact filename="calculator.html" type="text/html">${PAGE}</artifact>完成。` });
  t.teardown(() => upstream.close());
  const app = await startTestApp({ LLM_BASE_URL: upstream.url, LLM_MODEL: 'mock-model' });
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'artifactmaker');
  const sessionId = (await user.request('POST', '/backend/conversation/sessions', { client_id: 'artifacts' })).body.session_id as string;
  await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: sessionId, text: '做一个价格计算器网页' });
  for (;;) {
    if (!(await user.request('GET', `/backend/conversation/research/${sessionId}/status`)).body.processing) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await app.settle();
  const history = (await user.request('GET', `/backend/conversation/sessions/${sessionId}/messages`)).body.messages;
  const reply = history.find((message: { contents: WireContent[] }) => message.contents.some((content) => content.content_type === 'artifact_complete'));
  t.truthy(reply, 'the reply carries the artifact');
  const messageId = reply.contents.find((content: WireContent) => content.content_type === 'artifact_complete').message_id;

  const other = await signUp(app.url, 'notartifactowner');
  t.is((await other.request('POST', '/backend/conversation/artifacts/share', { session_id: sessionId, message_id: messageId, filename: 'calculator.html' })).status, 404);
  t.is((await user.request('POST', '/backend/conversation/artifacts/share', { session_id: sessionId, message_id: messageId, filename: 'missing.html' })).status, 404);
  const shared = await user.request('POST', '/backend/conversation/artifacts/share', { session_id: sessionId, message_id: messageId, filename: 'calculator.html', expires_days: 7 });
  t.is(shared.body.path, `/share/artifact/${shared.body.share_id}`);

  const opened = await client(app.url).request('GET', `/backend/conversation/artifact-share/${shared.body.share_id}`);
  t.like(opened.body, { filename: 'calculator.html', filetype: 'html', content: PAGE });
  t.is((await client(app.url).request('GET', `/backend/conversation/share/${shared.body.share_id}`)).status, 404, 'a file link does not open the conversation');
  t.is((await user.request('DELETE', `/backend/conversation/share/${shared.body.share_id}`)).status, 200);
  t.is((await client(app.url).request('GET', `/backend/conversation/artifact-share/${shared.body.share_id}`)).status, 404);
});

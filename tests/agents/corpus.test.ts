import test from 'ava';
import { signUp, startTestApp } from '../support/app.ts';
import { startResearch } from '../support/research.ts';
import { openSocket } from '../support/socket.ts';

const NOTES = [
  '钠离子电池的能量密度目前约为每千克一百六十瓦时。',
  '钠离子电池的原材料钠在地壳中储量丰富，成本低于锂。',
  '钠离子电池低温性能较好，适合储能和两轮车场景。',
].join('\n');

test('an uploaded file is indexed for its owner, found by the platform tools and cited in the offline report', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'uploader');
  const { body } = await user.request('POST', '/backend/conversation/sessions', { client_id: 'client-up' });
  const sessionId = body.session_id as string;
  const form = new FormData();
  form.append('conversation_id', sessionId);
  form.append('file_type', 'txt');
  form.append('file', new Blob([NOTES], { type: 'text/plain' }), '钠电池笔记.txt');
  const uploaded = await fetch(`${app.url}/backend/conversation/v2/research/upload_file`, { method: 'POST', body: form, headers: { authorization: `Bearer ${user.token}` } });
  t.is(uploaded.status, 200);
  t.true(await app.research.indexed(await app.services.events.headPosition()));
  t.is(app.research.corpus.search(user.userId, '钠离子电池 成本', 5).length, 1);
  const other = await signUp(app.url, 'stranger');
  t.is(app.research.corpus.search(other.userId, '钠离子电池 成本', 5).length, 0, 'nobody else finds it');

  const socket = await openSocket(app.url, 'client-up', user.token);
  t.teardown(() => socket.close());
  socket.send({ session_id: sessionId, agent: 'none', payload: { content_type: 'subscribe' } });
  await socket.next((m) => m.type === 'subscribed');
  const { item } = await startResearch(user, socket, sessionId, '对比钠离子电池与锂离子电池在储能场景中的成本和能量密度，写一份简要报告');
  const tools = (await socket.next(item('platform_tools_results'), 60_000)).content;
  t.true(tools.tools.includes('local_search'));
  t.true(tools.total_results >= 1);
  await socket.next(item('feedback_request'), 60_000);
  const canvas = await user.request('GET', `/backend/conversation/research/${sessionId}/canvas`);
  const report = canvas.body.versions.at(-1).content as string;
  t.true(report.includes('钠电池笔记.txt'), 'the uploaded file is among the report’s sources');
});

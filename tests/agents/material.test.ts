import test from 'ava';
import { signUp, startTestApp } from '../support/app.ts';
import { BATTERY_NOTES, cognitionFromNotes } from '../support/cognition.ts';
import { startResearch, watchedSession } from '../support/research.ts';

test('a note selected for a session is read before the search and listed among the report’s sources', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'attacher');
  const note = (
    await user.request('POST', '/backend/api/notes', {
      name: '储能电站走访记录',
      content: '走访的三座储能电站都在评估钠离子电池。运维人员认为钠离子电池在零下二十度仍能正常放电，这是选择它的主要原因。',
    })
  ).body;
  const { sessionId, socket } = await watchedSession(app.url, user, 'material');
  t.teardown(() => socket.close());
  t.is((await user.request('POST', `/backend/conversation/api/research/select_note/${note.id}`, { conversation_id: sessionId })).status, 200);

  const { item } = await startResearch(user, socket, sessionId, '钠离子电池在储能电站中的低温表现如何？请写一份简要报告');
  const read = await socket.next((m) => item('info')(m) && String(m.content.content).startsWith('已读取你为本次研究添加的'), 60_000);
  t.is(read.content.content, '已读取你为本次研究添加的 1 份资料：储能电站走访记录');
  await socket.next(item('feedback_request'), 60_000);
  const canvas = await user.request('GET', `/backend/conversation/research/${sessionId}/canvas`);
  const report = canvas.body.versions.at(-1).content as string;
  const sources = report.slice(report.lastIndexOf('## 参考来源'));
  t.regex(sources, /1\. \[储能电站走访记录\]\(\/note\?id=/, 'the attached note is source 1, linked to its page');
  t.true(report.includes('零下二十度'), 'and what it says is in the report');
});

test('the user’s own cognitions on the subject are recommended after the report', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'recommended');
  const cognitionId = await cognitionFromNotes(user, BATTERY_NOTES);
  t.true(await app.research.indexed(await app.services.events.headPosition()));
  const { sessionId, socket } = await watchedSession(app.url, user, 'recommend');
  t.teardown(() => socket.close());
  const { item } = await startResearch(user, socket, sessionId, '钠离子电池在储能电站中的低温性能和成本优势，写一份简要报告');
  const recommended = await socket.next(item('cognition_recommendation'), 60_000);
  t.true(recommended.content.items.some((entry: { id: string }) => entry.id === cognitionId));
});

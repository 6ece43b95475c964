import test from 'ava';
import { signUp, startTestApp } from '../support/app.ts';
import { openSocket } from '../support/socket.ts';
import { BATTERY_NOTES, cognitionFromNotes } from '../support/cognition.ts';

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
  const sessionId = (await user.request('POST', '/backend/conversation/sessions', { client_id: 'material' })).body.session_id as string;
  t.is((await user.request('POST', `/backend/conversation/api/research/select_note/${note.id}`, { conversation_id: sessionId })).status, 200);

  const socket = await openSocket(app.url, 'material', user.token);
  t.teardown(() => socket.close());
  socket.send({ session_id: sessionId, agent: 'none', payload: { content_type: 'subscribe' } });
  await socket.next((m) => m.type === 'subscribed');
  const started = await user.request('POST', '/backend/conversation/research/start', {
    session_id: sessionId,
    message: '钠离子电池在储能电站中的低温表现如何？请写一份简要报告',
  });
  const replyId = started.body.reply_id;
  const mine = (type: string) => (m: any) => m.type === 'message' && m.content.message_id === replyId && m.content.content_type === type;
  const first = await socket.next((m) => mine('clarification')(m) || mine('plan')(m), 60_000);
  if (first.content.content_type === 'clarification') {
    const answers = first.content.questions.map((question: any) => ({ id: question.id, question: question.question_content, selectedOptions: question.question_options.slice(0, 1), textInput: '', question_type: question.question_type }));
    t.is((await user.request('POST', `/backend/conversation/research/${sessionId}/clarification_answer`, { answers })).status, 200);
  }
  const read = await socket.next((m) => mine('info')(m) && String(m.content.content).startsWith('已读取你为本次研究添加的'), 60_000);
  t.is(read.content.content, '已读取你为本次研究添加的 1 份资料：储能电站走访记录');
  await socket.next(mine('feedback_request'), 60_000);
  const canvas = await user.request('GET', `/backend/conversation/research/${sessionId}/canvas`);
  const report = canvas.body.versions.at(-1).content as string;
  const sources = report.slice(report.lastIndexOf('## 参考来源'));
  t.regex(sources, /1\. 储能电站走访记录/, 'the attached note is source 1');
  t.true(report.includes('零下二十度'), 'and what it says is in the report');
});

test('the user’s own cognitions on the subject are recommended after the report', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'recommended');
  const cognitionId = await cognitionFromNotes(user, BATTERY_NOTES);
  t.true(await app.research.indexed(await app.services.events.headPosition()));
  const sessionId = (await user.request('POST', '/backend/conversation/sessions', { client_id: 'recommend' })).body.session_id as string;
  const socket = await openSocket(app.url, 'recommend', user.token);
  t.teardown(() => socket.close());
  socket.send({ session_id: sessionId, agent: 'none', payload: { content_type: 'subscribe' } });
  await socket.next((m) => m.type === 'subscribed');
  const started = await user.request('POST', '/backend/conversation/research/start', { session_id: sessionId, message: '钠离子电池在储能电站中的低温性能和成本优势，写一份简要报告' });
  const replyId = started.body.reply_id;
  const mine = (type: string) => (m: any) => m.type === 'message' && m.content.message_id === replyId && m.content.content_type === type;
  const first = await socket.next((m) => mine('clarification')(m) || mine('plan')(m), 60_000);
  if (first.content.content_type === 'clarification') {
    const answers = first.content.questions.map((question: any) => ({ id: question.id, question: question.question_content, selectedOptions: question.question_options.slice(0, 1), textInput: '', question_type: question.question_type }));
    await user.request('POST', `/backend/conversation/research/${sessionId}/clarification_answer`, { answers });
  }
  const recommended = await socket.next(mine('cognition_recommendation'), 60_000);
  t.true(recommended.content.items.some((item: { id: string }) => item.id === cognitionId));
});

import test from 'ava';
import { asEvents, EDITOR_NOTE, harness, MARKDOWN_DEBRIS, ScriptedModel, SECTION_PROSE } from '../deep_cognition/harness.ts';
import { runDirectWriting } from './agent.ts';

test('offline: the brief is written into the canvas from the user’s material, cited, with no questions or feedback', async (t) => {
  const h = await harness();
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, '写一篇关于固态电池挑战的短文', 'direct_writing_agent');
  await h.run(runDirectWriting, 'direct_writing_agent', reply.replyId, reply);
  const events = asEvents(await h.log(sessionId));
  const types = events.map((event) => event.type);
  t.false(types.includes('ClarificationAsked') || types.includes('FeedbackRequested') || types.includes('PlanProposed'));
  const saved = events.find((event) => event.type === 'WritingVersionSaved');
  if (saved?.type !== 'WritingVersionSaved') return t.fail('no version');
  t.like(saved.data, { version: 1, interrupted: false });
  t.true(saved.data.content.startsWith('# 写一篇关于固态电池挑战的短文\n\n> 【离线模式】'));
  t.regex(saved.data.content, /\[\[\d\]\]\(https:\/\/example\.test\//);
  t.true(saved.data.content.includes('## 参考来源'));
  t.like(events.find((event) => event.type === 'AgentReplyCompleted')?.data, { outcome: 'completed' });
});

test('with a model: the model writes the report and it is saved as written', async (t) => {
  const model = new ScriptedModel();
  const h = await harness({ model });
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, '写一篇关于固态电池的短文', 'direct_writing_agent');
  await h.run(runDirectWriting, 'direct_writing_agent', reply.replyId, reply);
  const events = asEvents(await h.log(sessionId));
  const saved = events.find((event) => event.type === 'WritingVersionSaved');
  t.true(saved?.type === 'WritingVersionSaved' && saved.data.content.startsWith(SECTION_PROSE.slice(0, 20)));
  t.is(model.requests.length, 1);
  t.true(model.requests[0]!.messages.some((message) => message.role === 'user' && message.content === '写一篇关于固态电池的短文'));
});

test('offline: quotes from a note saved as Markdown read as text in the report', async (t) => {
  const h = await harness();
  t.teardown(() => h.close());
  h.corpus.add({ title: '钠电池走访', url: 'note:note-1', text: EDITOR_NOTE, source: 'note' });
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, '写一篇关于钠离子电池储能电站的短文', 'direct_writing_agent');
  await h.run(runDirectWriting, 'direct_writing_agent', reply.replyId, reply);
  const saved = asEvents(await h.log(sessionId)).find((event) => event.type === 'WritingVersionSaved');
  if (saved?.type !== 'WritingVersionSaved') return t.fail('no version');
  t.true(saved.data.content.includes('- 重点：钠离子电池在零下二十度仍能正常放电'), saved.data.content);
  t.false(MARKDOWN_DEBRIS.test(saved.data.content), saved.data.content);
});

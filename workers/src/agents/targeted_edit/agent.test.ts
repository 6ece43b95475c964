import test from 'ava';
import { runDeepCognition } from '../deep_cognition/agent.ts';
import { asEvents, harness, rejecting, ScriptedModel, type Harness } from '../deep_cognition/harness.ts';
import { EDIT_PROMPT } from '../deep_cognition/prompts.ts';
import type { ModelRequest } from '@scriptorium/infra/model/port';
import { runTargetedEdit } from './agent.ts';
import { cleanEdited, offlineEdit } from './rewrite.ts';

const QUESTION = '对比2020年以来中国固态电池的技术路线和产业化进展，写一份决策参考报告';
const SENTENCE = '固态电池使用固态电解质取代液态电解液。';

async function withReport(model?: ScriptedModel) {
  const h = await harness(model ? { model } : {});
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, QUESTION);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, reply);
  const { state } = await h.state(sessionId);
  if (state.status === 'none' || !state.canvas.current) throw new Error('no report');
  return { h, sessionId, current: state.canvas.current };
}

/** Records the request as the api does (its job is only ever queued from that event) and returns the job. */
async function edit(h: Harness, sessionId: string, requestId: string, instruction: string, snippet: string, fromVersion: number) {
  await h.requestEdit(sessionId, requestId, instruction, snippet);
  return { sessionId, userId: h.userId, requestId, instruction, snippet, fromVersion };
}

test('offline: a replacement in the selected sentence changes that sentence only, as a new version', async (t) => {
  const { h, sessionId, current } = await withReport();
  t.teardown(() => h.close());
  t.true(current.content.includes(SENTENCE));
  const job = await edit(h, sessionId, 'req-1', '把“液态电解液”改为“传统液态电解液”', SENTENCE, current.version);
  await h.run(runTargetedEdit, 'targeted_edit', 'edit:req-1', job);
  const log = await h.log(sessionId);
  const [applied] = asEvents(log).filter((event) => event.type === 'TargetedEditApplied');
  t.truthy(applied);
  if (applied?.type !== 'TargetedEditApplied') return;
  t.like(applied.data, {
    requestId: 'req-1',
    fromVersion: current.version,
    version: current.version + 1,
    originalSnippet: SENTENCE,
    editedSnippet: '固态电池使用固态电解质取代传统液态电解液。',
  });
  t.is(applied.data.fullContent, current.content.replace(SENTENCE, '固态电池使用固态电解质取代传统液态电解液。'));
  await h.run(runTargetedEdit, 'targeted_edit', 'edit:req-1', job);
  t.is((await h.log(sessionId)).length, log.length, 'a request is answered once');
});

test('offline: an instruction the rules cannot carry out is refused with what they can do', async (t) => {
  const { h, sessionId, current } = await withReport();
  t.teardown(() => h.close());
  await h.run(runTargetedEdit, 'targeted_edit', 'edit:req-2', await edit(h, sessionId, 'req-2', '写得更生动一些', SENTENCE, current.version));
  const events = asEvents(await h.log(sessionId));
  t.false(events.some((event) => event.type === 'TargetedEditApplied'));
  const error = events.find((event) => event.type === 'AgentOutputRecorded' && event.data.contentType === 'error');
  t.like(error?.data, { messageId: 'req-2', agent: 'targeted_edit', payload: { request_id: 'req-2' } });
  t.regex(String(error?.type === 'AgentOutputRecorded' && error.data.payload.error_message), /离线模式下无法按这条指令改写/);
});

test('a snippet that vanished meanwhile is an error item, and nothing changes', async (t) => {
  const { h, sessionId, current } = await withReport();
  t.teardown(() => h.close());
  const first = await edit(h, sessionId, 'a', '删除这句', SENTENCE, current.version);
  const second = await edit(h, sessionId, 'b', '加粗', SENTENCE, current.version);
  await h.run(runTargetedEdit, 'targeted_edit', 'edit:a', first);
  await h.run(runTargetedEdit, 'targeted_edit', 'edit:b', second);
  const events = asEvents(await h.log(sessionId));
  t.is(events.filter((event) => event.type === 'TargetedEditApplied').length, 1);
  const error = events.find((event) => event.type === 'AgentOutputRecorded' && event.data.messageId === 'b');
  t.regex(String(error?.type === 'AgentOutputRecorded' && error.data.payload.error_message), /已不在当前版本中/);
});

test('with a model: the edited snippet is what the model wrote, cleaned, and its usage is recorded', async (t) => {
  const model = new ScriptedModel({ analyse: { analysis: '具体', status: '开始', goal: '报告', needs_clarification: false } });
  const { h, sessionId, current } = await withReport(model);
  t.teardown(() => h.close());
  const snippet = current.content.match(/固态电池用固态电解质取代了液态电解液，能量密度和安全性更高\[\[1\]\]\([^)]+\)。/)?.[0];
  t.truthy(snippet);
  model.complete = async () => ({ text: '“固态电池以固态电解质替代液态电解液，因而更安全[1]。”', usage: { promptTokens: 50, completionTokens: 12, model: 'scripted', estimated: false } });
  await h.run(runTargetedEdit, 'targeted_edit', 'edit:m', await edit(h, sessionId, 'm', '改写得更简洁', snippet!, current.version));
  const events = asEvents(await h.log(sessionId));
  const applied = events.find((event) => event.type === 'TargetedEditApplied');
  // The check writes the kept number as the report links it.
  const link = /\[\[1\]\]\([^)]+\)/.exec(snippet!)![0];
  t.like(applied?.data, { editedSnippet: `固态电池以固态电解质替代液态电解液，因而更安全${link}。` });
  t.true(events.some((event) => event.type === 'TokensConsumed' && event.data.messageId === 'm'));
});

test('with a model: an edit that brings in a number past the sources and a figure its source lacks is checked: the number out, the claim marked, the other sentences keep their checks, moved', async (t) => {
  const model = new ScriptedModel({ analyse: { analysis: '具体', status: '开始', goal: '报告', needs_clarification: false } });
  const judged = rejecting(model, /900/);
  const editing: ScriptedModel = Object.assign(Object.create(judged) as ScriptedModel, {
    async complete(request: ModelRequest) {
      if (request.messages[0]?.content !== EDIT_PROMPT) return judged.complete(request);
      return { text: '能量密度已达到每千克900瓦时[7]', usage: { promptTokens: 50, completionTokens: 12, model: 'scripted', estimated: false } };
    },
  });
  const { h, sessionId, current } = await withReport(editing);
  t.teardown(() => h.close());
  const saved = asEvents(await h.log(sessionId)).find((event) => event.type === 'WritingVersionSaved');
  const before = saved?.type === 'WritingVersionSaved' ? (saved.data.citations ?? []) : [];
  const sentence = /固态电池用固态电解质取代了液态电解液，能量密度和安全性更高(\[\[1\]\]\([^)]+\))。/.exec(current.content)!;
  const link = sentence[1]!;
  t.true(before.some((check) => check.offset === sentence.index && check.n === 1), 'the sentence was checked with the report');

  await h.run(runTargetedEdit, 'targeted_edit', 'edit:c', await edit(h, sessionId, 'c', '写上具体的能量密度', '能量密度和安全性更高', current.version));
  const applied = asEvents(await h.log(sessionId)).find((event) => event.type === 'TargetedEditApplied');
  if (applied?.type !== 'TargetedEditApplied') return t.fail('no edit applied');
  const mark = '⚠〔待核实：来源 1 中没有“900”〕';
  t.like(applied.data, { originalSnippet: `能量密度和安全性更高${link}`, editedSnippet: `能量密度已达到每千克900瓦时${link}${mark}` }, 'the replaced span grows to the mark after the citation, no further');
  t.false(/\[\[?7\]/.test(applied.data.fullContent), 'the number past the sources is taken out');
  const citations = applied.data.citations ?? [];
  const touched = citations.filter((check) => check.offset === sentence.index);
  t.like(touched.find((check) => check.n === 7), { verdict: 'dangling', action: 'removed' });
  t.like(touched.find((check) => check.n === 1), { verdict: 'unsupported', action: 'marked', missing: ['900'] });
  const moved = applied.data.fullContent.length - current.content.length;
  t.deepEqual(
    citations.filter((check) => check.offset !== sentence.index),
    before.filter((check) => check.offset !== sentence.index).map((check) => ({ ...check, offset: check.offset > sentence.index ? check.offset + moved : check.offset })),
    'every other check kept, those after the edit moved by what it added',
  );
  const said = asEvents(await h.log(sessionId)).flatMap((event) => (event.type === 'AgentOutputRecorded' && event.data.messageId === 'c' && event.data.contentType === 'info' ? [event.data.payload] : []));
  t.like(said, [{ progress: { code: 'research.editChecked', params: { removed: 1, marked: 1 } } }], 'the chat says what the check did to the edit');
  for (const check of citations.filter((candidate) => candidate.action !== 'removed')) {
    t.regex(applied.data.fullContent.slice(check.offset).split(/[。\n]/)[0]!, new RegExp(`\\[\\[${check.n}\\]\\]`), 'each check stands at a sentence citing its number');
  }
});

test('offline rules', (t) => {
  t.deepEqual(offlineEdit('将固态改成全固态', '固态电池很好。', 'zh'), { ok: true, text: '全固态电池很好。' });
  t.deepEqual(offlineEdit('删除“很”', '固态电池很好。', 'zh'), { ok: true, text: '固态电池好。' });
  t.deepEqual(offlineEdit('删掉这句话', '固态电池很好。', 'zh'), { ok: true, text: '' });
  t.deepEqual(offlineEdit('加粗', ' 重点内容\n', 'zh'), { ok: true, text: ' **重点内容**\n' });
  t.deepEqual(offlineEdit('去掉引用', '更高[[1]](https://a.test)，更贵[2]。', 'zh'), { ok: true, text: '更高，更贵。' });
  t.deepEqual(offlineEdit('replace "cheap" with "affordable"', 'It is cheap.', 'en'), { ok: true, text: 'It is affordable.' });
  t.false(offlineEdit('把“液体”改为“固体”', '固态电池很好。', 'zh').ok);
  t.false(offlineEdit('translate into English', '固态电池很好。', 'en').ok);
  t.is(cleanEdited('```\n新的句子。\n```', '旧的句子。\n'), '新的句子。\n');
});

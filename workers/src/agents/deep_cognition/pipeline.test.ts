import test from 'ava';
import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import { BUDGET_EXHAUSTED } from '@scriptorium/domain/budget/guard';
import { toWire, WRITING_INTERRUPTED } from '@scriptorium/domain/conversation/wire';
import type { OutputType } from '@scriptorium/domain/protocol/content';
import { runDeepCognition } from './agent.ts';
import { asEvents, harness, itemTypes, ScriptedModel, SECTION_PROSE, until, type Reply } from './harness.ts';

const VAGUE = '帮我研究一下固态电池';
const SPECIFIC = '对比2020年以来中国固态电池的技术路线和产业化进展，写一份决策参考报告';

const job = (reply: Reply, stage?: 'research' | 'revise') => ({ ...reply, ...(stage && { stage }) });
const of = <T extends string>(log: RecordedEvent[], type: T) => asEvents(log).filter((event) => event.type === type) as Array<Extract<ReturnType<typeof asEvents>[number], { type: T }>>;
const outputs = (log: RecordedEvent[], contentType: OutputType) =>
  asEvents(log).flatMap((event) => (event.type === 'AgentOutputRecorded' && event.data.contentType === contentType ? [event.data.payload] : []));
const written = (log: RecordedEvent[], replyId: string) =>
  asEvents(log)
    .flatMap((event) => (event.type === 'MessageChunksAppended' && event.data.messageId === replyId && event.data.contentType === 'writing_content' ? [event.data.text] : []))
    .join('');

test('a vague question: think, status, clarifying questions, then the job ends and the reply waits', async (t) => {
  const h = await harness();
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, VAGUE);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  const log = await h.log(sessionId);
  t.deepEqual(itemTypes(log, reply.replyId).filter((type) => type !== 'AgentStatusChanged'), [
    'AgentReplyStarted',
    'think',
    'think_end',
    'status_and_goal',
    'info',
    'info',
    'ClarificationAsked',
  ]);
  t.deepEqual(outputs(log, 'info').map((item) => item.content), ['Making Clarification Questions .....', 'Clarification Questions Generated']);
  t.deepEqual(outputs(log, 'info').map((item) => item.progress), [{ code: 'research.clarifying', params: {} }, { code: 'research.clarified', params: {} }], 'progress travels as codes beside the text');
  t.true(String(asEvents(log).find((event) => event.type === 'MessageChunksAppended')?.data.text).includes('离线模式'), 'the rule-based analysis says so');
  const [asked] = of(log, 'ClarificationAsked');
  t.true(asked!.data.questions.length >= 2);
  for (const question of asked!.data.questions) {
    t.truthy(question.id);
    t.truthy(question.question_content);
    t.truthy(question.section_id);
    t.true(['single', 'multiple', 'text'].includes(question.question_type));
  }
  const { state } = await h.state(sessionId);
  t.like(state, { activity: 'waiting', awaiting: 'clarification' });
  t.is(of(log, 'AgentReplyCompleted').length, 0, 'the reply goes on after the answers');

  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  t.is((await h.log(sessionId)).length, log.length, 'a second run of the start job appends nothing');
});

test('answers lead to a plan whose steps move, searches, reading, a cited version and a feedback request', async (t) => {
  const h = await harness();
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, VAGUE);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  const research = await h.answerAll(sessionId);
  await h.run(runDeepCognition, 'deep_cognition', research, job(reply, 'research'));
  const log = await h.log(sessionId);

  const [plan] = of(log, 'PlanProposed');
  const marks = of(log, 'PlanStepMarked').map((event) => event.data.index);
  t.deepEqual(marks, [...plan!.data.steps.keys(), plan!.data.steps.length], 'each step in turn, then all completed');
  t.true(outputs(log, 'info').some((item) => item.content === 'Planing .....'));
  t.true(outputs(log, 'info').some((item) => String(item.content).startsWith('联网搜索已开启')), 'says which search it uses');
  const results = of(log, 'SearchResultsRecorded').flatMap((event) => event.data.results);
  t.true(results.length > 0);
  t.true(results.some((result) => result.has_useful_info && result.useful_info_summary.length > 0));
  t.true(outputs(log, 'web_search_queries').length === plan!.data.steps.length);

  const browsing = itemTypes(log, reply.replyId).filter((type) => type.startsWith('web_browsing') || type.startsWith('web_scraping'));
  t.deepEqual(browsing.slice(0, 3), ['web_browsing_start', 'web_scraping_start', 'web_browsing_in_progress']);
  t.true(browsing.includes('web_scraping_end') && browsing.includes('web_browsing_result') && browsing.at(-1) === 'web_browsing_llm_end');
  t.is(outputs(log, 'web_browsing_start')[0]!.message, 'Browsing Webpages .....');
  t.is(outputs(log, 'web_scraping_start')[0]!.message, 'Scraping Webpages .....');
  t.regex(String(outputs(log, 'web_scraping_end')[0]!.message), /^Get Information from \d+ Webpages\.\.\.\.$/);
  t.is(outputs(log, 'web_browsing_llm_end')[0]!.message, 'Browsing Webpages Finished');

  const [saved] = of(log, 'WritingVersionSaved');
  t.like(saved!.data, { version: 1, interrupted: false });
  t.is(saved!.data.content, written(log, reply.replyId), 'the version is exactly what streamed');
  t.regex(saved!.data.content, /\[\[1\]\]\(https:\/\/example\.test\/[\w-]+\)/, 'citations link to their source');
  t.regex(saved!.data.content, /## 参考来源\n\n1\. \[.+\]\(https:\/\/example\.test\/[\w-]+\)/);
  t.true(saved!.data.content.includes('离线模式'));
  const headings = [...saved!.data.content.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
  t.is(headings[0], '研究问题');
  t.true(headings.includes('基本概念与背景') && headings.includes('结论'), 'a section is headed by what it covers');
  t.false(headings.some((heading) => heading!.includes('固态电池')), 'no section heading repeats the topic the title names');

  const tail = itemTypes(log, reply.replyId).filter((type) => type !== 'AgentStatusChanged').slice(-4);
  t.deepEqual(tail, ['WritingVersionSaved', 'edit_report', 'cognition_recommendation', 'FeedbackRequested']);
  const [report] = outputs(log, 'edit_report') as Array<{ content: Array<{ content: string }>; version: number }>;
  t.is(report!.version, 1);
  t.is(report!.content.map((block) => block.content).join(''), saved!.data.content, 'a report with headings is one block');
  t.deepEqual(outputs(log, 'cognition_recommendation')[0], { items: [] });
  const { state } = await h.state(sessionId);
  t.like(state, { activity: 'waiting', awaiting: 'feedback' });

  await h.run(runDeepCognition, 'deep_cognition', research, job(reply, 'research'));
  t.is((await h.log(sessionId)).length, log.length, 'the research job run again appends nothing');
});

test('a specific question skips clarification and is researched in the first job', async (t) => {
  const h = await harness();
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  const log = await h.log(sessionId);
  t.is(of(log, 'ClarificationAsked').length, 0);
  t.is(of(log, 'WritingVersionSaved').length, 1);
  t.is(of(log, 'FeedbackRequested').length, 1);
});

test('search off: the local material is searched, and the report says where it looked', async (t) => {
  const h = await harness();
  t.teardown(() => h.close());
  const sessionId = await h.createSession({ searchEnabled: false });
  const reply = await h.post(sessionId, SPECIFIC);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  const log = await h.log(sessionId);
  t.true(outputs(log, 'info').some((item) => String(item.content).startsWith('联网搜索已关闭：改为检索你的本地资料')));
  t.true(outputs(log, 'info').some((item) => JSON.stringify(item.progress) === JSON.stringify({ code: 'research.localSearch', params: { reason: 'off' } })));
});

test('feedback: manual feedback and continue each write a new version and ask again; the seqs of later jobs do not collide', async (t) => {
  const h = await harness();
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  const COST = '固态电池的电芯成本预计在2030年降至每千瓦时100美元以下。';
  h.corpus.add({ title: '固态电池成本分析', url: 'https://example.test/solid-state-cost', text: `${COST}规模化生产是成本下降的关键。` });
  const manual = await h.feedback(sessionId, 'manual_feedback', '补充固态电池成本方面的内容');
  await h.run(runDeepCognition, 'deep_cognition', manual, job(reply, 'revise'));
  let log = await h.log(sessionId);
  let versions = of(log, 'WritingVersionSaved');
  t.is(versions.length, 2);
  t.is(versions[1]!.data.version, 2);
  t.true(versions[1]!.data.content.startsWith(versions[0]!.data.content.split('## 参考来源')[0]!.trimEnd()), 'offline, the earlier text is kept');
  t.true(versions[1]!.data.content.includes('根据反馈补充'));
  const added = versions[1]!.data.content.split('## 根据反馈补充')[1]!;
  t.true(added.includes(`- ${COST}[[4]](https://example.test/solid-state-cost)`), 'the new material, cited with the next number');
  t.true(added.includes('4. [固态电池成本分析](https://example.test/solid-state-cost)'), 'and listed with the sources');
  t.is(of(log, 'FeedbackRequested').length, 2);

  const deeper = await h.feedback(sessionId, 'continue');
  await h.run(runDeepCognition, 'deep_cognition', deeper, job(reply, 'revise'));
  log = await h.log(sessionId);
  versions = of(log, 'WritingVersionSaved');
  t.is(versions.length, 3);
  t.true(versions[2]!.data.content.includes('## 深入补充'));
  t.is(of(log, 'FeedbackRequested').length, 3);

  const seqs = asEvents(log).flatMap((event) => (event.type === 'AgentOutputRecorded' || event.type === 'MessageChunksAppended' ? [event.data.seq] : []));
  t.is(new Set(seqs).size, seqs.length);
  t.deepEqual(seqs, [...seqs].sort((a, b) => a - b));
});

test('with a model: JSON answers drive questions and plan, prose streams into the version with linked citations', async (t) => {
  const model = new ScriptedModel();
  const h = await harness({ model });
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, VAGUE);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  let log = await h.log(sessionId);
  t.deepEqual(of(log, 'ClarificationAsked')[0]!.data.questions, [
    { id: 'q1', question_content: '更关注哪个方面？', question_options: ['技术', '产业'], question_type: 'single', section_id: 'focus' },
  ]);
  const research = await h.answerAll(sessionId);
  await h.run(runDeepCognition, 'deep_cognition', research, job(reply, 'research'));
  log = await h.log(sessionId);
  t.deepEqual(of(log, 'PlanProposed')[0]!.data.steps, ['梳理技术路线', '调研产业化进展']);
  const content = of(log, 'WritingVersionSaved')[0]!.data.content;
  t.true(content.includes('## 梳理技术路线') && content.includes('## 结论'));
  t.regex(content, /更高\[\[1\]\]\(https:\/\/example\.test\/[\w-]+\)。/);
  t.true(of(log, 'TokensConsumed').length >= 5, 'every model call is accounted');
  t.false(content.includes('离线模式'));
});

test('a worker that dies while writing: the re-run saves what was written as interrupted and writes nothing again', async (t) => {
  const model = new ScriptedModel({ analyse: { analysis: '足够具体', status: '开始', goal: '报告', needs_clarification: false } });
  const h = await harness({ model });
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  const stalled = model.stallAfter(5);
  const dying = new AbortController();
  const first = h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply), dying.signal);
  await stalled;
  const before = await until(() => h.log(sessionId), (log) => written(log, reply.replyId).length > 0 && of(log, 'WritingStarted').length === 1);
  const partial = written(before, reply.replyId);
  const calls = model.requests.length;

  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  const log = await h.log(sessionId);
  t.is(model.requests.length, calls, 'the re-run called no model');
  t.is(of(log, 'WritingStarted').length, 1);
  const [saved] = of(log, 'WritingVersionSaved');
  t.like(saved!.data, { interrupted: true, content: partial });
  t.true(partial.includes(SECTION_PROSE.slice(0, 12)));
  t.false(partial.includes('## 结论'), 'cut where the worker died');
  t.deepEqual(of(log, 'AgentReplyCompleted').map((event) => event.data.outcome), ['interrupted']);
  const wire = toWire(log.find((event) => event.type === 'WritingVersionSaved')!);
  t.like(wire?.type === 'message' ? wire.content : {}, { content_type: 'writing_end', message: WRITING_INTERRUPTED, level: 'warning' });

  // The dead run's model call returns at last: nothing it does reaches the log.
  const length = log.length;
  dying.abort();
  await first;
  t.is((await h.log(sessionId)).length, length);
  await h.close();
});

test('a worker that dies in a later step: the re-run shows each page read once and says its search once, and the report still cites what was read before', async (t) => {
  const h = await harness();
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  const web = h.deps.webSearch!;
  // Once a round has been read to the end, the next search the worker makes never answers.
  let stalled: () => void = () => undefined;
  const stalling = new Promise<void>((resolve) => (stalled = resolve));
  h.deps.webSearch = {
    ...web,
    async search(query, options) {
      if (outputs(await h.log(sessionId), 'web_browsing_llm_end').length > 0) {
        stalled();
        await new Promise((_, reject) => options?.signal?.addEventListener('abort', () => reject(new Error('the worker died'))));
      }
      return web.search(query, options);
    },
  };
  const dying = new AbortController();
  const first = h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply), dying.signal);
  await stalling;
  const before = outputs(await h.log(sessionId), 'web_browsing_result').map((item) => String(item.url));
  t.true(before.length > 0, 'the first round was read before the worker died');

  // The job runs again (its worker is gone: a restart re-queues it) while the dead run still hangs.
  h.deps.webSearch = web;
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  const log = await h.log(sessionId);
  // Here the dead run is only stopped, and its stop would end the reply: what counts is the log before.
  dying.abort();
  await first.catch(() => undefined);
  const read = outputs(log, 'web_browsing_result').map((item) => String(item.url));
  t.deepEqual(read.slice(0, before.length), before);
  t.is(new Set(read).size, read.length, 'no page is shown as read twice');
  t.is(outputs(log, 'info').filter((item) => String(item.content).startsWith('联网搜索已开启')).length, 1, 'which search it uses is said once');
  const [saved] = of(log, 'WritingVersionSaved');
  t.like(saved!.data, { interrupted: false });
  for (const url of before) t.true(saved!.data.content.includes(url), `the report still lists ${url}`);
});

test('a pause while writing saves the partial version and ends the reply as interrupted', async (t) => {
  const model = new ScriptedModel({ analyse: { analysis: '足够具体', status: '开始', goal: '报告', needs_clarification: false } });
  const h = await harness({ model });
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  const stalled = model.stallAfter(7);
  const pause = new AbortController();
  const running = h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply), pause.signal);
  await stalled;
  pause.abort();
  await running;
  const log = await h.log(sessionId);
  const [saved] = of(log, 'WritingVersionSaved');
  t.true(saved!.data.interrupted);
  t.is(saved!.data.content, written(log, reply.replyId));
  t.true(saved!.data.content.includes(SECTION_PROSE.slice(0, 10)));
  t.deepEqual(of(log, 'AgentReplyCompleted').map((event) => event.data.outcome), ['interrupted']);
  t.is(of(log, 'FeedbackRequested').length, 0);
  const { state } = await h.state(sessionId);
  t.like(state, { activity: 'paused' });
});

test('a budget that runs out mid-report: a 402 error item, the partial version kept, the reply failed', async (t) => {
  const h = await harness({ remainingTokens: () => 150 });
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  const log = await h.log(sessionId);
  t.deepEqual(outputs(log, 'error'), [{ error_message: BUDGET_EXHAUSTED, code: 'budget.exhausted', status: 402 }]);
  const [saved] = of(log, 'WritingVersionSaved');
  t.true(saved!.data.interrupted);
  t.is(saved!.data.content, written(log, reply.replyId));
  t.is((saved!.data.content.match(/^## /gm) ?? []).length, 2, 'the question and the first section, no more');
  t.deepEqual(of(log, 'AgentReplyCompleted').map((event) => [event.data.outcome, event.data.error]), [['failed', BUDGET_EXHAUSTED]]);
  t.is(of(log, 'TokensConsumed').length, 1, 'stopped before the second section');
});

import test, { type ExecutionContext } from 'ava';
import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import { BUDGET_EXHAUSTED } from '@scriptorium/domain/budget/guard';
import type { OutputType } from '@scriptorium/domain/protocol/content';
import { runDeepCognition } from './agent.ts';
import { asEvents, harness, itemTypes, rejecting, ScriptedModel, SECTION_PROSE, until, type Reply } from './harness.ts';
import { deepenPrompt, JUDGE_PROMPT, PLAN_PROMPT, QUERIES_PROMPT, REFLECT_PROMPT, REPLAN_PROMPT, revisePrompt, sectionPrompt, summaryPrompt } from './prompts.ts';
import { citedSentences, MARK_PATTERN } from './citations.ts';
import { DEFAULT_RESEARCH_LIMITS, researchSlots } from '../deps.ts';
import { conversationStream } from '@scriptorium/domain/conversation/conversation';
import { conversationDecider, type ConversationCommand } from '@scriptorium/domain/conversation/decide';
import { preferencesDecider, preferencesStream } from '@scriptorium/domain/preferences/preferences';

const VAGUE = '帮我研究一下固态电池';
const SPECIFIC = '对比2020年以来中国固态电池的技术路线和产业化进展，写一份决策参考报告';
/** Web searches made, without the cognition recommendations' search for the question itself. */
const searches = (queries: string[]) => queries.filter((query) => query !== SPECIFIC).length;

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
  t.true(headings.includes('基本概念与背景'), 'a section is headed by what it covers');
  t.is(headings[1], '摘要', 'the summary comes first');
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
  t.true(content.indexOf('## 摘要') < content.indexOf('## 梳理技术路线') && content.includes('## 调研产业化进展'), 'the summary heads the sections');
  t.regex(content, /更高\[\[1\]\]\(https:\/\/example\.test\/[\w-]+\)。/);
  t.true(of(log, 'TokensConsumed').length >= 5, 'every model call is accounted');
  t.false(content.includes('离线模式'));
});

test('a worker that dies while writing: the job taken over continues the section from the last stored chunk and ends completed', async (t) => {
  const model = new ScriptedModel({ analyse: { analysis: '足够具体', status: '开始', goal: '报告', needs_clarification: false } });
  const h = await harness({ model });
  oneCallAtATime(h);
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  const stalled = model.stallAfter(5);
  const dying = new AbortController();
  const first = h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply), dying.signal);
  await stalled;
  const before = await until(() => h.log(sessionId), (log) => written(log, reply.replyId).includes(SECTION_PROSE.slice(0, 12)));
  const partial = written(before, reply.replyId);
  const calls = model.requests.length;
  const searched = searches(h.corpus.queries);

  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  const log = await h.log(sessionId);
  const later = model.requests.slice(calls);
  t.false(later.some((request) => request.messages[0]?.content === PLAN_PROMPT), 'no planning call');
  t.is(searches(h.corpus.queries), searched, 'no search again');
  t.is(later.length, 3, 'the cut section, the second and the conclusion: nothing else');
  t.true(later[0]!.messages.some((message) => message.role === 'assistant' && SECTION_PROSE.startsWith(message.content.replace(/\[\[(\d+)\]\]\([^)]*\)/g, '[$1]'))), 'the model is given what it had written');
  t.is(of(log, 'WritingStarted').length, 1, 'the same version goes on');
  const [saved] = of(log, 'WritingVersionSaved');
  t.like(saved!.data, { interrupted: false });
  t.true(saved!.data.content.startsWith(partial), 'what was streamed stays where it was');
  t.is(saved!.data.content, written(log, reply.replyId));
  t.is(of(log, 'SectionWritten').length, 3);
  t.deepEqual(of(log, 'AgentReplyCompleted').map((event) => event.data.outcome), []);
  t.is(of(log, 'FeedbackRequested').length, 1);
  t.true(outputs(log, 'info').some((item) => (item.progress as { code?: string } | undefined)?.code === 'research.takenOver'));

  // The dead run's model call returns at last: nothing it does reaches the log.
  const length = log.length;
  dying.abort();
  await first;
  t.is((await h.log(sessionId)).length, length);
  await h.close();
});

/** Faults and stalls are played by the order of the model's calls: these tests write sections one after another. */
const oneCallAtATime = (h: { deps: { researchLimits?: typeof DEFAULT_RESEARCH_LIMITS } }) => (h.deps.researchLimits = { ...DEFAULT_RESEARCH_LIMITS, modelConcurrency: 1 });
const SPECIFIC_MODEL = () => new ScriptedModel({ analyse: { analysis: '足够具体', status: '开始', goal: '报告', needs_clarification: false } });

/** `model` streaming a little slower, so calls asked together overlap; counts the streams open now and at most. */
function slowStreams(model: ScriptedModel) {
  const streams = { open: 0, most: 0 };
  const slow: ScriptedModel = Object.assign(Object.create(model) as ScriptedModel, {
    async *stream(request: Parameters<ScriptedModel['stream']>[0]) {
      streams.open++;
      streams.most = Math.max(streams.most, streams.open);
      try {
        for await (const delta of model.stream(request)) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          yield delta;
        }
      } finally {
        streams.open--;
      }
    },
  });
  return { slow, streams };
}
const codes = (log: RecordedEvent[]) => outputs(log, 'info').flatMap((item) => ((item.progress as { code?: string } | undefined)?.code ? [(item.progress as { code: string }).code] : []));
const systemOf = (request: { messages: Array<{ content: string }> }) => request.messages[0]?.content;

test('an internal JSON call cut or answered badly is asked again; when it never fits, the rules take over and it is said in chat and report', async (t) => {
  const model = SPECIFIC_MODEL();
  // analyse fine; the plan cut once and invalid once, then answered.
  model.faults.json.push('ok', 'cut', 'invalid');
  const h = await harness({ model });
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  let log = await h.log(sessionId);
  t.is(model.requests.filter((request) => systemOf(request) === PLAN_PROMPT).length, 3, 'the plan was asked for three times');
  t.deepEqual(of(log, 'PlanProposed')[0]!.data.steps, ['梳理技术路线', '调研产业化进展'], "the model's plan on the third try");
  t.false(codes(log).includes('research.rulesFallback'));
  t.true(of(log, 'TokensConsumed').some((event) => event.data.completion === 7), 'the cut call is charged what it used');

  const fallback = SPECIFIC_MODEL();
  fallback.faults.json.push('ok', 'empty', 'runaway', 'invalid');
  const h2 = await harness({ model: fallback });
  t.teardown(() => h2.close());
  const session2 = await h2.createSession();
  const reply2 = await h2.post(session2, SPECIFIC);
  await h2.run(runDeepCognition, 'deep_cognition', reply2.replyId, job(reply2));
  log = await h2.log(session2);
  t.is(fallback.requests.filter((request) => systemOf(request) === PLAN_PROMPT).length, 3, 'bounded: two more tries');
  t.deepEqual(outputs(log, 'info').filter((item) => (item.progress as { code?: string } | undefined)?.code === 'research.rulesFallback').map((item) => item.progress), [{ code: 'research.rulesFallback', params: { call: 'plan' } }]);
  const content = of(log, 'WritingVersionSaved')[0]!.data.content;
  t.regex(content, /## 说明\n\n- 研究计划由规则生成/, 'the report says its plan came from the rules');
  t.deepEqual(of(log, 'AgentReplyCompleted').map((event) => event.data.outcome), []);
});

test('a section whose stream is cut is rolled back to its start and written again, visibly; an empty or capped section leaves a note', async (t) => {
  const model = SPECIFIC_MODEL();
  model.faults.stream.push('cut', 'ok', 'empty', 'capped');
  const h = await harness({ model });
  oneCallAtATime(h);
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  const log = await h.log(sessionId);
  const [saved] = of(log, 'WritingVersionSaved');
  const rollbacks = outputs(log, 'writing_rollback');
  t.is(rollbacks.length, 1);
  // The canvas replays the chunks with the rollback: it ends with exactly the saved version.
  let canvas = '';
  for (const event of asEvents(log)) {
    if (event.type === 'MessageChunksAppended' && event.data.contentType === 'writing_content') canvas += event.data.text;
    if (event.type === 'AgentOutputRecorded' && event.data.contentType === 'writing_rollback') canvas = canvas.slice(0, Number(event.data.payload.length));
  }
  t.is(canvas, saved!.data.content);
  t.is(saved!.data.content.split('## 摘要\n\n')[1]!.split('\n\n')[0], SECTION_PROSE.replace(/\[(\d)\]/g, (_m, n: string) => `[[${n}]](${saved!.data.content.match(new RegExp(`\\[\\[${n}\\]\\]\\(([^)]+)\\)`))![1]})`), 'the cut section is whole, once');
  t.deepEqual(codes(log).filter((code) => code.startsWith('research.section')), ['research.sectionRetry', 'research.sectionEmpty', 'research.sectionCapped']);
  t.true(saved!.data.content.includes('> 注：模型没有为本节写出内容。'));
  t.regex(saved!.data.content, /## 说明\n\n- “梳理技术路线”一节模型没有写出内容。\n- “调研产业化进展”一节达到了模型的输出上限/);
  t.is(model.requests.filter((request) => request.context).length, 4, 'three sections, the first written twice');
});

test('a 429 with a long Retry-After: the job is deferred with the time said in chat, and the later job continues without planning again', async (t) => {
  const model = SPECIFIC_MODEL();
  model.faults.stream.push('ok', 'wait');
  const h = await harness({ model });
  oneCallAtATime(h);
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  let log = await h.log(sessionId);
  const [deferred] = of(log, 'ReplyDeferred');
  t.is(deferred!.data.jobId, `${reply.replyId}:wait:1`);
  const waiting = outputs(log, 'info').find((item) => (item.progress as { code?: string } | undefined)?.code === 'research.waitingForModel');
  t.is((waiting!.progress as { params: { until: string } }).params.until, deferred!.data.until);
  t.true(Date.parse(deferred!.data.until) - Date.parse(deferred!.data.at) >= 119_000, 'when the service said');
  let { state } = await h.state(sessionId);
  t.like(state, { activity: 'processing', activeReply: { jobId: deferred!.data.jobId, notBefore: deferred!.data.until } });
  t.is(of(log, 'AgentReplyCompleted').length, 0);

  const calls = model.requests.length;
  await h.run(runDeepCognition, 'deep_cognition', deferred!.data.jobId, job(reply));
  log = await h.log(sessionId);
  const later = model.requests.slice(calls);
  t.is(later.length, 2, 'the section that waited and the one after it');
  t.false(later.some((request) => request.messages[0]?.content === PLAN_PROMPT));
  t.is(of(log, 'SectionWritten').length, 3);
  t.like(of(log, 'WritingVersionSaved')[0]!.data, { interrupted: false });
  ({ state } = await h.state(sessionId));
  t.like(state, { activity: 'waiting', awaiting: 'feedback' });
});

test('a pause in a later section, then resume: no planning, no search, no rewrite of a finished section; the paused section is continued', async (t) => {
  const model = SPECIFIC_MODEL();
  const h = await harness({ model });
  oneCallAtATime(h);
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  const pieces = (SECTION_PROSE.match(/.{1,6}/gsu) ?? []).length;
  const stalled = model.stallAfter(pieces + 4);
  const pause = new AbortController();
  const running = h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply), pause.signal);
  await stalled;
  await until(() => h.log(sessionId), (log) => of(log, 'SectionWritten').length === 1 && (written(log, reply.replyId).split('## 梳理技术路线\n\n')[1] ?? '').length > 0);
  pause.abort();
  await running;
  let log = await h.log(sessionId);
  const paused = of(log, 'WritingVersionSaved')[0]!.data.content;
  t.deepEqual(of(log, 'AgentReplyCompleted').map((event) => event.data.outcome), ['interrupted']);
  const calls = model.requests.length;
  const searched = searches(h.corpus.queries);
  const fetched = h.corpus.fetched.length;

  const resumed = await h.resume(sessionId, reply);
  await h.run(runDeepCognition, 'deep_cognition', resumed.replyId, resumed);
  log = await h.log(sessionId);
  const later = model.requests.slice(calls);
  t.is(later.length, 2, 'the paused section and the one after it, nothing more');
  t.false(later.some((request) => !request.context), 'no JSON call: no planning, judging or summarising');
  t.is(searches(h.corpus.queries), searched, 'no search for a finished step');
  t.is(h.corpus.fetched.length, fetched, 'no page read again');
  t.true(later[0]!.messages.some((message) => message.role === 'assistant'), 'the paused section is continued from its text');
  const version = of(log, 'WritingVersionSaved').at(-1)!.data;
  t.like(version, { version: 2, interrupted: false });
  t.true(version.content.startsWith(paused), 'the paused text, continued, not rewritten');
  t.is(version.content.split('## 摘要')[1]!.split('## 梳理技术路线')[0], paused.split('## 摘要')[1]!.split('## 梳理技术路线')[0], 'the finished section as it was');
  t.true(codes(log).includes('research.continuing'));
  t.is(of(log, 'FeedbackRequested').length, 1);
});

test('a failed reply is retried from where it failed: finished sections stay, only the failed one and what follows are written', async (t) => {
  const model = SPECIFIC_MODEL();
  model.faults.stream.push('ok', 'cut', 'cut', 'cut');
  const h = await harness({ model });
  oneCallAtATime(h);
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  let log = await h.log(sessionId);
  t.deepEqual(of(log, 'AgentReplyCompleted').map((event) => event.data.outcome), ['failed']);
  t.is(codes(log).filter((code) => code === 'research.sectionRetry').length, 2, 'bounded: two more tries');
  const calls = model.requests.length;
  const searched = searches(h.corpus.queries);

  const retried = await h.resume(sessionId, reply);
  await h.run(runDeepCognition, 'deep_cognition', retried.replyId, retried);
  log = await h.log(sessionId);
  const later = model.requests.slice(calls);
  t.is(later.length, 2, 'the failed section and the conclusion');
  t.is(searches(h.corpus.queries), searched);
  t.like(of(log, 'WritingVersionSaved').at(-1)!.data, { interrupted: false });
  t.is(of(log, 'FeedbackRequested').length, 1);
});

test('a worker that dies in a later step: the re-run shows each page read once and says its search once, and the report still cites what was read before', async (t) => {
  const h = await harness();
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  const web = h.deps.webSearch!;
  // Steps are researched side by side; here each step's search waits for the steps before it to end,
  // and once a round has been read to the end, the next search the worker makes never answers.
  h.deps.researchLimits = { ...DEFAULT_RESEARCH_LIMITS, maxRounds: 1 };
  let stalled: () => void = () => undefined;
  const stalling = new Promise<void>((resolve) => (stalled = resolve));
  let searched = 0;
  h.deps.webSearch = {
    ...web,
    async search(query, options) {
      const turn = searched++;
      await until(() => h.log(sessionId), (log) => turn === 0 || of(log, 'PlanStepMarked').some((event) => event.data.index >= turn));
      if (outputs(await h.log(sessionId), 'web_browsing_llm_end').length > 0) {
        stalled();
        await new Promise((_, reject) => {
          const died = () => reject(new Error('the worker died'));
          if (options?.signal?.aborted) died();
          options?.signal?.addEventListener('abort', died);
        });
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

/** `model`'s research of SPECIFIC, one call at a time, paused once `pieces` pieces of the report have streamed. */
async function pausedWhileWriting(t: ExecutionContext, model: ScriptedModel, pieces: number) {
  const h = await harness({ model });
  oneCallAtATime(h);
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  const stalled = model.stallAfter(pieces);
  const pause = new AbortController();
  const running = h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply), pause.signal);
  await stalled;
  pause.abort();
  await running;
  return { h, sessionId, reply };
}

test('a pause while writing saves the partial version and ends the reply as interrupted', async (t) => {
  const model = new ScriptedModel({ analyse: { analysis: '足够具体', status: '开始', goal: '报告', needs_clarification: false } });
  const { h, sessionId, reply } = await pausedWhileWriting(t, model, 7);
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
  t.is((saved!.data.content.match(/^## /gm) ?? []).length, 3, 'the question, the summary (written offline without a call) and the first section, no more');
  t.deepEqual(of(log, 'AgentReplyCompleted').map((event) => [event.data.outcome, event.data.error]), [['failed', BUDGET_EXHAUSTED]]);
  t.is(of(log, 'TokensConsumed').length, 1, 'stopped before the second section');
});

test('a revision works from the text of the pages the first run read: a fact past character 3,000 reaches the model', async (t) => {
  const model = SPECIFIC_MODEL();
  const h = await harness({ model });
  t.teardown(() => h.close());
  const FACT = '固态电池电芯成本目标：到2030年降至每千瓦时80美元。';
  const filler = '行业报告回顾了电池材料的历史沿革与各国政策。'.repeat(160);
  const fetcher = h.deps.fetcher!;
  h.deps.fetcher = {
    async fetch(url, options) {
      const page = await fetcher.fetch(url, options);
      return url === 'https://example.test/solid-state-industry' ? { ...page, text: `${page.text}${filler}${FACT}` } : page;
    },
  };
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  const stored = of(await h.log(sessionId), 'PageRead').find((event) => event.data.url === 'https://example.test/solid-state-industry');
  t.true(stored!.data.text.indexOf(FACT) > 3000, 'the page is in the log with its text');

  // The page is gone from the web by the time of the revision: the log has it.
  h.deps.fetcher = fetcher;
  const calls = model.requests.length;
  const revision = await h.feedback(sessionId, 'manual_feedback', '补充2030年的电芯成本目标');
  await h.run(runDeepCognition, 'deep_cognition', revision, job(reply, 'revise'));
  const revising = model.requests.slice(calls).find((request) => request.context);
  t.true(revising!.context!.some((document) => document.text.includes(FACT)), 'the revision is given the passage with the fact');
});

test('the plan steps are researched side by side in bounded pools, and the plan shown still moves one step at a time', async (t) => {
  const model = SPECIFIC_MODEL();
  const h = await harness({ model });
  t.teardown(() => h.close());
  h.deps.researchLimits = { ...DEFAULT_RESEARCH_LIMITS, fetchConcurrency: 2 };
  const web = h.deps.webSearch!;
  let open = 0;
  let most = 0;
  // Every search waits until a second one is open or a moment has passed: searches made one after another never overlap.
  h.deps.webSearch = {
    ...web,
    async search(query, options) {
      open++;
      most = Math.max(most, open);
      await new Promise((resolve) => setTimeout(resolve, 50));
      open--;
      return web.search(query, options);
    },
  };
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  const log = await h.log(sessionId);
  t.is(most, 2, 'the two steps searched at once, and no more than the fetch pool allows');
  t.deepEqual(
    of(log, 'PlanStepMarked').map((event) => event.data.index),
    [0, 1, 2],
    'the lowest unfinished step is in progress, those before it done',
  );
  t.deepEqual(of(log, 'SearchResultsRecorded').map((event) => [event.data.step, event.data.round]).sort(), [[0, 0], [1, 0]]);
  const items = itemTypes(log, reply.replyId);
  const browsing = items.filter((type) => type.startsWith('web_browsing') || type.startsWith('web_scraping'));
  const rounds = browsing.join(' ').split('web_browsing_llm_end').filter((round) => round.trim());
  for (const round of rounds) t.regex(round.trim(), /^web_browsing_start web_scraping_start (web_browsing_in_progress )+web_scraping_end (web_browsing_result ?)+$/, 'a round of reading stays together in the chat');
});

test("two users' runs on one worker share its model slots: the worker's cap holds, and the second user's run makes progress while the first still runs", async (t) => {
  const slots = researchSlots({ ...DEFAULT_RESEARCH_LIMITS, workerModelConcurrency: 2 });
  const started: string[] = [];
  let open = 0;
  let most = 0;
  const pause = () => new Promise((resolve) => setTimeout(resolve, 3));
  // Each user's model, a little slow, counting the calls open over both users.
  const tracked = (who: string) => {
    const model = SPECIFIC_MODEL();
    const enter = () => {
      started.push(who);
      most = Math.max(most, ++open);
    };
    return Object.assign(Object.create(model) as ScriptedModel, {
      async complete(request: Parameters<ScriptedModel['complete']>[0]) {
        enter();
        try {
          await pause();
          return await model.complete(request);
        } finally {
          open--;
        }
      },
      async *stream(request: Parameters<ScriptedModel['stream']>[0]) {
        enter();
        try {
          for await (const delta of model.stream(request)) {
            await pause();
            yield delta;
          }
        } finally {
          open--;
        }
      },
    });
  };
  const alice = await harness({ model: tracked('alice'), userId: 'alice' });
  const bob = await harness({ model: tracked('bob'), userId: 'bob' });
  t.teardown(() => Promise.all([alice.close(), bob.close()]));
  alice.deps.researchSlots = bob.deps.researchSlots = slots;
  const aliceSession = await alice.createSession();
  const bobSession = await bob.createSession();
  const aliceReply = await alice.post(aliceSession, SPECIFIC);
  const bobReply = await bob.post(bobSession, SPECIFIC);
  let aliceDone = false;
  const aliceRun = alice.run(runDeepCognition, 'deep_cognition', aliceReply.replyId, job(aliceReply)).then(() => (aliceDone = true));
  // Bob asks once Alice's steps hold every slot of the worker.
  await until(() => alice.log(aliceSession), () => open === 2 || aliceDone);
  t.false(aliceDone, "alice's steps filled the worker's slots");
  await bob.run(runDeepCognition, 'deep_cognition', bobReply.replyId, job(bobReply));
  await aliceRun;
  t.is(most, 2, 'never more calls open than the worker allows, over both runs');
  t.true(started.indexOf('bob') < started.lastIndexOf('alice'), "bob was served before alice's run ended");
  t.true(started.slice(started.indexOf('bob'), started.lastIndexOf('bob')).includes('alice'), "alice was served while bob's run went on");
  for (const [h, sessionId, reply] of [[alice, aliceSession, aliceReply], [bob, bobSession, bobReply]] as const) {
    t.true(written(await h.log(sessionId), reply.replyId).length > 0, `${reply.userId}'s report was written`);
  }
});

test('with an embedding endpoint, the sources and the focuses of the summary and sections are embedded before writing; one that fails leaves BM25, and the report is written', async (t) => {
  for (const fails of [false, true]) {
    const h = await harness({ model: SPECIFIC_MODEL() });
    const asked: string[][] = [];
    h.deps.embeddings = {
      model: 'test-embeddings',
      async embed(texts) {
        asked.push([...texts]);
        if (fails) throw new Error('503 from the embedding endpoint');
        return texts.map((text) => [text.length, 1]);
      },
    };
    const sessionId = await h.createSession();
    const reply = await h.post(sessionId, SPECIFIC);
    await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
    const log = await h.log(sessionId);
    t.is(asked.length, 1, 'one request: every chunk and every focus');
    t.true(asked[0]!.includes(SPECIFIC) && asked[0]!.includes('梳理技术路线') && asked[0]!.includes('调研产业化进展'));
    t.true(written(log, reply.replyId).includes('[1]'), fails ? 'written with BM25 alone' : 'written');
    await h.close();
  }
});

test('a reflection that finds the step unanswered asks a follow-up search with its reason in the chat; a re-run of the job does not ask again', async (t) => {
  const model = new ScriptedModel({
    analyse: { analysis: '足够具体', status: '开始', goal: '报告', needs_clarification: false },
    reflect: { answered: false, reason: '两篇资料的成本数据不一致', follow_up_queries: ['固态电池 成本 核实'] },
  });
  const h = await harness({ model });
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  const log = await h.log(sessionId);
  const followUps = outputs(log, 'info').filter((item) => (item.progress as { code?: string } | undefined)?.code === 'research.followUp');
  t.is(followUps.length, 1, 'both steps meet the same gap: its search is made once');
  t.like(followUps[0]!.progress, { code: 'research.followUp', params: { reason: '两篇资料的成本数据不一致', queries: ['固态电池 成本 核实'] } });
  const recorded = of(log, 'SearchResultsRecorded');
  t.is(recorded.length, 3);
  t.like(recorded.find((event) => event.data.round === 1)!.data, { reason: '两篇资料的成本数据不一致', queries: ['固态电池 成本 核实'] });
  t.is(outputs(log, 'web_search_queries').length, 3, 'the follow-up is shown as a search');
  const followed = recorded.find((event) => event.data.round === 1)!.data;
  const planned = recorded.find((event) => event.data.step === followed.step && event.data.round === 0)!.data;
  const judged = model.requests.filter((request) => systemOf(request) === JUDGE_PROMPT).flatMap((request) => [...request.messages.at(-1)!.content.matchAll(/^\[\d+\] (.+)$/gm)].map((match) => match[1]));
  t.true(judged.length > 0);
  t.is(new Set(judged).size, judged.length, "a page a round found useful is not put before the judge again: not by the other step searching at once, nor by the follow-up, which found only pages the first rounds judged");
  t.deepEqual(
    followed.results.map((result) => result.has_useful_info),
    followed.results.map((result) => planned.results.find((earlier) => earlier.url === result.url)!.has_useful_info),
    'each keeps the judgement it had',
  );

  // The job runs again from its log: nothing is searched or reflected on twice.
  const calls = model.requests.length;
  const searched = searches(h.corpus.queries);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  t.is(searches(h.corpus.queries), searched);
  t.false(model.requests.slice(calls).some((request) => systemOf(request) === REFLECT_PROMPT));
  t.is(of(await h.log(sessionId), 'SearchResultsRecorded').length, 3);
});

test('offline, the rules follow up only on a step that found nothing', async (t) => {
  const h = await harness();
  t.teardown(() => h.close());
  const web = h.deps.webSearch!;
  let first = true;
  h.deps.webSearch = {
    ...web,
    async search(query, options) {
      // The first search finds nothing: its step has a gap.
      if (first) {
        first = false;
        return [];
      }
      return web.search(query, options);
    },
  };
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  const log = await h.log(sessionId);
  const followUps = of(log, 'SearchResultsRecorded').filter((event) => event.data.round === 1);
  t.is(followUps.length, 1, 'only the step that found nothing searched again');
  t.deepEqual(followUps[0]!.data.queries, [of(log, 'PlanProposed')[0]!.data.steps[followUps[0]!.data.step!]]);
});

test('later sections are written ahead, side by side, and still reach the report one after another in order', async (t) => {
  const model = SPECIFIC_MODEL();
  const { slow, streams } = slowStreams(model);
  const h = await harness({ model: slow });
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  const log = await h.log(sessionId);
  t.true(streams.most >= 3, `sections streamed at once: ${streams.most}`);
  t.deepEqual(of(log, 'SectionWritten').map((event) => event.data.index), [0, 1, 2]);
  const [saved] = of(log, 'WritingVersionSaved');
  t.is(saved!.data.content, written(log, reply.replyId), 'the canvas shows what was saved');
  const headings = [...saved!.data.content.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
  t.deepEqual(headings.slice(1, 4), ['摘要', '梳理技术路线', '调研产业化进展']);
  for (const section of of(log, 'SectionWritten')) t.is(section.data.text.split(SECTION_PROSE.slice(0, 12)).length, 2, `section ${section.data.index} holds its own text once`);
});

test('a section written ahead that meets a long 429 defers the reply at its turn; the other sections asked ahead stop, and nothing is written after the job ends', async (t) => {
  const model = SPECIFIC_MODEL();
  // The first section streams; of the two asked ahead, the second section meets the 429.
  model.faults.stream.push('ok', 'wait');
  const { slow, streams } = slowStreams(model);
  const h = await harness({ model: slow });
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  const log = await h.log(sessionId);
  t.is(of(log, 'ReplyDeferred').length, 1);
  t.deepEqual(of(log, 'SectionWritten').map((event) => event.data.index), [0], 'the first section only');
  t.is(streams.open, 0, 'no call is left open');
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.is((await h.log(sessionId)).length, log.length, 'nothing lands after the job ended');
});

test("with a model: the plan's short headings, its title and its length head and shape the report, and a job that goes on keeps them", async (t) => {
  const plan = {
    title: '固态电池：路线与量产',
    length: 'brief',
    steps: [
      { description: '梳理技术路线', heading: '## 技术路线。', queries: ['固态电池 技术路线'] },
      { description: '调研产业化进展', heading: '量产进度', queries: ['固态电池 产业化'] },
    ],
  };
  const model = new ScriptedModel({ analyse: { analysis: '足够具体', status: '开始', goal: '报告', needs_clarification: false }, plan });
  const h = await harness({ model });
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  // The first worker dies in the first section; the job taken over writes the rest from the log.
  const stalled = model.stallAfter(5);
  const dying = new AbortController();
  const first = h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply), dying.signal);
  await stalled;
  await until(() => h.log(sessionId), (log) => written(log, reply.replyId).includes(SECTION_PROSE.slice(0, 12)));
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  const log = await h.log(sessionId);
  dying.abort();
  await first;
  await h.close();
  t.is(model.requests.filter((request) => request.messages[0]?.content === PLAN_PROMPT).length, 1, 'planned once');
  t.like(of(log, 'PlanProposed')[0]!.data, { steps: ['梳理技术路线', '调研产业化进展'], headings: ['技术路线', '量产进度'], title: '固态电池：路线与量产', length: 'brief' });
  const writing = model.requests.filter((request) => request.context).map((request) => request.messages[0]?.content);
  t.true(writing.length >= 3);
  t.true(writing.every((system) => system === summaryPrompt('zh', 'brief') || system === sectionPrompt('zh', 'brief')), 'every section, also those the second job wrote, is asked at the length the plan chose');
  t.is(writing[0], summaryPrompt('zh', 'brief'), 'the summary is written first');
  const content = of(log, 'WritingVersionSaved')[0]!.data.content;
  t.true(content.startsWith('# 固态电池：路线与量产\n'));
  t.true(content.includes('\n## 技术路线\n') && content.includes('\n## 量产进度\n'));
  t.false(content.includes('## 梳理技术路线'), 'the step sentence is no heading');
});

test('with a model: the chat says what the run used when it ends, and warns before the plan when the budget left is below a run', async (t) => {
  const plenty = await harness({ model: new ScriptedModel() });
  t.teardown(() => plenty.close());
  const sessionId = await plenty.createSession();
  const reply = await plenty.post(sessionId, SPECIFIC);
  await plenty.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  await plenty.run(runDeepCognition, 'deep_cognition', await plenty.answerAll(sessionId), job(reply, 'research'));
  const log = await plenty.log(sessionId);
  const spent = of(log, 'TokensConsumed').reduce((sum, event) => sum + event.data.prompt + event.data.completion, 0);
  const progress = outputs(log, 'info').map((item) => item.progress as { code: string; params: Record<string, unknown> } | undefined);
  t.deepEqual(progress.filter((item) => item?.code === 'research.tokensUsed'), [{ code: 'research.tokensUsed', params: { tokens: spent } }], 'every token of the reply, its clarifying stage too, said once');
  const types = itemTypes(log, reply.replyId);
  t.true(types.lastIndexOf('info') < types.indexOf('FeedbackRequested'), 'said before the feedback request');
  t.false(progress.some((item) => item?.code === 'research.budgetLow'), 'a budget that covers the run says nothing');

  const low = await harness({ model: new ScriptedModel(), remainingTokens: () => 30_000 });
  t.teardown(() => low.close());
  const lowSession = await low.createSession();
  const lowReply = await low.post(lowSession, SPECIFIC);
  await low.run(runDeepCognition, 'deep_cognition', lowReply.replyId, job(lowReply));
  await low.run(runDeepCognition, 'deep_cognition', await low.answerAll(lowSession), job(lowReply, 'research'));
  const lowLog = await low.log(lowSession);
  const said = outputs(lowLog, 'info').map((item) => item.progress as { code: string; params: Record<string, unknown> } | undefined);
  const warned = said.findIndex((item) => item?.code === 'research.budgetLow');
  t.deepEqual(said[warned], { code: 'research.budgetLow', params: { remaining: 30_000, estimate: DEFAULT_RESEARCH_LIMITS.tokensEstimate } });
  t.true(warned < said.findIndex((item) => item?.code === 'research.planning'), 'before the plan');
  t.is(of(lowLog, 'WritingVersionSaved').length, 1, 'and the run goes on');
});

test('with a model: a message sent while the steps are researched is taken up at writing, with the original question, and the chat says so', async (t) => {
  const model = SPECIFIC_MODEL();
  const instruction: { send?: () => Promise<unknown> } = {};
  let steered: Promise<unknown> | undefined;
  // The instruction arrives while a step's search results are judged: after the plan, before any section.
  const steering: ScriptedModel = Object.assign(Object.create(model) as ScriptedModel, {
    async complete(request: Parameters<ScriptedModel['complete']>[0]) {
      if (request.messages[0]?.content === JUDGE_PROMPT && instruction.send) await (steered ??= instruction.send());
      return model.complete(request);
    },
  });
  const h = await harness({ model: steering });
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  instruction.send = () => h.post(sessionId, '只看低温性能，其他的不用管。');
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  t.truthy(steered, 'the instruction was sent mid-run');
  const log = await h.log(sessionId);
  const [posted] = of(log, 'UserMessagePosted').filter((event) => event.data.steers !== undefined);
  t.is(posted!.data.steers, reply.replyId, 'recorded for the running reply');
  t.is(of(log, 'AgentReplyStarted').length, 1, 'no reply of its own');
  const sections = model.requests.filter((request) => request.context);
  t.true(sections.length >= 3);
  for (const request of sections) {
    const user = request.messages.find((message) => message.role === 'user')!.content;
    t.true(user.includes(SPECIFIC) && user.includes('只看低温性能'), 'every section is asked with the question and the instruction');
  }
  const said = outputs(log, 'info').map((item) => item.progress as { code: string; params: Record<string, unknown> } | undefined).filter((item) => item?.code === 'research.instructionApplied');
  t.deepEqual(said, [{ code: 'research.instructionApplied', params: { id: posted!.data.messageId, instruction: '只看低温性能，其他的不用管。', to: 'writing' } }]);
  t.like((await h.state(sessionId)).state, { awaiting: 'feedback' });
});

test('with a model: an instruction sent while the steps are researched that drops a topic re-plans the steps not yet done: the new step searches it, the report follows, the chat says what changed', async (t) => {
  const INSTRUCTION = '不用看产业化了，改为比较低温性能。';
  // As a model would: the steps not yet done, without the one dropped, and the one asked for.
  const replanned = (request: Parameters<ScriptedModel['complete']>[0]) => ({
    changes_scope: true,
    steps: [
      ...[...request.messages[1]!.content.matchAll(/^\d+\. \[未完成\] (.+)$/gm)].map((match) => THREE_STEPS.steps.find((step) => step.description === match[1])!).filter((step) => !step.description.includes('产业化')),
      { description: '比较低温性能', heading: '低温性能', queries: ['固态电池 低温性能'] },
    ],
  });
  const model = new ScriptedModel({ analyse: SPECIFIC_ANALYSIS, plan: THREE_STEPS });
  const instruction: { send?: () => Promise<unknown> } = {};
  let steered: Promise<unknown> | undefined;
  const steering: ScriptedModel = Object.assign(Object.create(model) as ScriptedModel, {
    async complete(request: Parameters<ScriptedModel['complete']>[0]) {
      const system = request.messages[0]?.content;
      if (system === JUDGE_PROMPT && instruction.send) await (steered ??= instruction.send());
      if (system === REPLAN_PROMPT) {
        model.requests.push(request);
        return { text: JSON.stringify(replanned(request)), usage: { promptTokens: 100, completionTokens: 20, model: 'scripted', estimated: false } };
      }
      return model.complete(request);
    },
  });
  const h = await harness({ model: steering });
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  instruction.send = () => h.post(sessionId, INSTRUCTION);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  t.truthy(steered, 'the instruction was sent mid-run');
  const log = await h.log(sessionId);

  const asked = model.requests.filter((request) => request.messages[0]?.content === REPLAN_PROMPT);
  t.is(asked.length, 1, 'judged once');
  t.true(asked[0]!.messages[1]!.content.includes(SPECIFIC) && asked[0]!.messages[1]!.content.includes(INSTRUCTION), 'with the original question and the instruction');
  const [revised] = of(log, 'PlanRevised');
  t.false(revised!.data.steps.includes('调研产业化进展'), 'the dropped topic is no step any more');
  t.deepEqual([...revised!.data.steps].sort(), ['梳理技术路线', '比较安全性', '比较低温性能'].sort());
  t.is(revised!.data.from[revised!.data.steps.indexOf('比较低温性能')], null, 'the new step is new');
  const after = log.findIndex((event) => event.type === 'PlanRevised');
  const later = of(log.slice(after), 'SearchResultsRecorded').map((event) => event.data.queries);
  t.deepEqual(later.filter((queries) => queries.includes('固态电池 低温性能')).length, 1, 'the new step searches what was asked');
  t.false(later.some((queries) => queries.includes('固态电池 产业化')), 'the dropped step searches nothing after the revision');
  t.deepEqual(of(log, 'PlanStepMarked').at(-1)!.data.steps, revised!.data.steps, 'the plan shown is the revised one');

  t.deepEqual(of(log, 'SectionWritten').map((event) => event.data.heading).sort(), ['摘要', '技术路线', '安全性', '低温性能'].sort());
  const sections = model.requests.filter((request) => request.context);
  t.false(sections.some((request) => request.messages.some((message) => message.content.includes('现在撰写这一节：调研产业化进展'))), 'no section is written on the dropped topic');
  t.true(sections.some((request) => request.messages.some((message) => message.content.includes('现在撰写这一节：比较低温性能'))));
  const [posted] = of(log, 'UserMessagePosted').filter((event) => event.data.steers !== undefined);
  const said = outputs(log, 'info').map((item) => item.progress as { code: string; params: Record<string, unknown> } | undefined);
  t.deepEqual(said.filter((item) => item?.code === 'research.planRevised'), [{ code: 'research.planRevised', params: { ids: [posted!.data.messageId], instruction: INSTRUCTION, removed: ['产业化'], added: ['低温性能'] } }]);
  t.false(said.some((item) => item?.code === 'research.instructionApplied'), 'said once, as the revision');
  t.is(of(log, 'FeedbackRequested').length, 1);

  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  t.is((await h.log(sessionId)).length, log.length, 'the job run again appends nothing: the revision is read from the log');
});

test('with a model: instructions sent while a revision works: one sent while it searches is followed by its writing, one sent once it writes is said to come too late', async (t) => {
  const model = SPECIFIC_MODEL();
  const instruction: { post?: (content: string) => Promise<unknown> } = {};
  let writing = false;
  const steering: ScriptedModel = Object.assign(Object.create(model) as ScriptedModel, {
    async complete(request: Parameters<ScriptedModel['complete']>[0]) {
      if (request.messages[0]?.content === QUERIES_PROMPT && instruction.post) await instruction.post('改写时写明成本的具体数字');
      return model.complete(request);
    },
    async *stream(request: Parameters<ScriptedModel['stream']>[0]) {
      if (request.messages[0]?.content === revisePrompt('zh') && instruction.post && !writing) {
        writing = true;
        await instruction.post('再加一段政策分析');
      }
      yield* model.stream(request);
    },
  });
  const h = await harness({ model: steering });
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  instruction.post = (content) => h.post(sessionId, content);
  const revision = await h.feedback(sessionId, 'manual_feedback', '补充成本方面的内容');
  await h.run(runDeepCognition, 'deep_cognition', revision, job(reply, 'revise'));
  const log = await h.log(sessionId);

  const steered = of(log, 'UserMessagePosted').filter((event) => event.data.steers !== undefined);
  t.deepEqual(steered.map((event) => [event.data.content, event.data.steers]), [['改写时写明成本的具体数字', reply.replyId], ['再加一段政策分析', reply.replyId]], 'both accepted as instructions to the revision');
  t.is(of(log, 'AgentReplyStarted').length, 1, 'no reply of their own');
  const rewrite = model.requests.find((request) => request.messages[0]?.content === revisePrompt('zh'))!;
  const asked = rewrite.messages[1]!.content;
  t.true(asked.includes(SPECIFIC) && asked.includes('补充成本方面的内容') && asked.includes('改写时写明成本的具体数字'), 'the revision is written with the question, the feedback and the instruction');
  t.false(asked.includes('再加一段政策分析'));
  const said = outputs(log, 'info').map((item) => item.progress as { code: string; params: Record<string, unknown> } | undefined).filter((item) => item?.code.startsWith('research.instruction'));
  t.deepEqual(said, [
    { code: 'research.instructionApplied', params: { id: steered[0]!.data.messageId, instruction: '改写时写明成本的具体数字', to: 'writing' } },
    { code: 'research.instructionLate', params: { id: steered[1]!.data.messageId, instruction: '再加一段政策分析' } },
  ]);
  const types = itemTypes(log, reply.replyId);
  t.true(types.lastIndexOf('info') < types.lastIndexOf('FeedbackRequested'), 'said before the report asks for feedback again');
  t.like((await h.state(sessionId)).state, { awaiting: 'feedback' });
});

test('with a model: after a pause, a message redirects the research: planned again with the question and the instruction, pages read before kept, no empty section', async (t) => {
  const model = SPECIFIC_MODEL();
  const { h, sessionId, reply } = await pausedWhileWriting(t, model, 8);
  const fetched = h.corpus.fetched.length;
  const calls = model.requests.length;

  const redirect = await h.post(sessionId, '只看低温性能，其他的不用管。');
  await h.run(runDeepCognition, 'deep_cognition', redirect.replyId, { ...redirect, replyTo: reply.replyTo, continues: reply.replyId });
  const log = await h.log(sessionId);
  const [started] = of(log, 'AgentReplyStarted').filter((event) => event.data.messageId === redirect.replyId);
  t.like(started!.data, { replyTo: reply.replyTo, continues: reply.replyId }, 'the same research, continued');
  const later = model.requests.slice(calls);
  const plan = later.find((request) => request.messages[0]?.content === PLAN_PROMPT);
  t.truthy(plan, 'planned again for the new direction');
  const asked = plan!.messages[1]!.content;
  t.true(asked.includes(SPECIFIC) && asked.includes('只看低温性能'), 'with the original question and the instruction');
  t.is(h.corpus.fetched.length - fetched, 0, 'no page read again');
  const version = of(log, 'WritingVersionSaved').at(-1)!.data;
  t.like(version, { interrupted: false });
  t.false(version.content.includes('> 注：模型没有为本节写出内容。'), 'no empty section');
  for (const request of later.filter((entry) => entry.context)) t.true(request.messages.some((message) => message.content.includes('只看低温性能')));
  t.true(outputs(log, 'info').some((item) => (item.progress as { code?: string; params?: { to?: string } } | undefined)?.code === 'research.instructionApplied'));
});

test('with a model: a file added while the steps are researched is read before the sections, is in their requests, and the chat says from where it counts', async (t) => {
  const model = SPECIFIC_MODEL();
  const added = { at: false };
  const LATE = { id: 'ctx-1', kind: 'upload' as const, title: '低温测试.txt', text: '在零下二十度时，这款固态电池保留了百分之八十五的容量。' };
  // The file arrives while a step's search results are judged: after the plan, before any section.
  const watching: ScriptedModel = Object.assign(Object.create(model) as ScriptedModel, {
    async complete(request: Parameters<ScriptedModel['complete']>[0]) {
      if (request.messages[0]?.content === JUDGE_PROMPT) added.at = true;
      return model.complete(request);
    },
  });
  const h = await harness({ model: watching, material: { attached: async () => (added.at ? [LATE] : []) } });
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  const log = await h.log(sessionId);
  const said = outputs(log, 'info').map((item) => item.progress as { code: string; params: Record<string, unknown> } | undefined);
  t.deepEqual(said.filter((item) => item?.code.startsWith('research.attached')), [{ code: 'research.attachedLate', params: { count: 1, titles: ['低温测试.txt'] } }], 'said once, as counting from the sections on');
  const summary = model.requests.find((request) => request.context && request.messages[0]?.content === summaryPrompt('zh'));
  t.true(summary!.context!.some((doc) => doc.text.includes('百分之八十五')), 'the summary draws on it');
  t.true(of(log, 'WritingVersionSaved')[0]!.data.content.includes('低温测试.txt'), 'listed among the sources');
});

/** Issues a command as the session's user would through the api. */
const asUser = (h: Awaited<ReturnType<typeof harness>>, sessionId: string, command: { type: 'EditPlan' | 'StartPlan'; data: Record<string, unknown> }) =>
  h.deps.commands.handle(conversationDecider, conversationStream(sessionId), { ...command, data: { actorId: h.userId, ...command.data }, metadata: { now: new Date(), userId: h.userId } } as ConversationCommand);

const THREE_STEPS = {
  title: '固态电池决策参考',
  steps: [
    { description: '梳理技术路线', heading: '技术路线', queries: ['固态电池 技术路线'] },
    { description: '调研产业化进展', heading: '产业化', queries: ['固态电池 产业化'] },
    { description: '比较安全性', heading: '安全性', queries: ['固态电池 安全性'] },
  ],
};
const SPECIFIC_ANALYSIS = { analysis: '问题已经具体', status: '开始研究', goal: '写报告', needs_clarification: false };

test('an edited plan (one step removed, one added) is the one researched; the countdown an edit stopped starts nothing', async (t) => {
  const model = new ScriptedModel({ analyse: SPECIFIC_ANALYSIS, plan: THREE_STEPS });
  const h = await harness({ model });
  t.teardown(() => h.close());
  h.deps.planCountdownMs = 8_000;
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  const proposedLog = await h.log(sessionId);
  t.is(of(proposedLog, 'PlanReviewOpened').length, 1);
  t.is(of(proposedLog, 'SearchResultsRecorded').length, 0, 'nothing is searched before the plan starts');
  t.like((await h.state(sessionId)).state, { activity: 'waiting', awaiting: 'plan' });

  await asUser(h, sessionId, { type: 'EditPlan', data: { steps: [{ description: '梳理技术路线' }, { description: '比较安全性' }, { description: '评估成本与供应链', queries: ['固态电池 成本 供应链'] }].filter((step) => step.description !== '调研产业化进展') } });
  const edited = await h.log(sessionId);
  // The countdown's job comes when it would have ended: the edit stopped it, so it does nothing.
  await h.run(runDeepCognition, 'deep_cognition', `${reply.replyId}:plan`, job(reply, 'research'));
  t.is((await h.log(sessionId)).length, edited.length);

  await asUser(h, sessionId, { type: 'StartPlan', data: { jobId: 'start-1' } });
  await h.run(runDeepCognition, 'deep_cognition', 'start-1', job(reply, 'research'));
  const log = await h.log(sessionId);
  t.is(of(log, 'PlanProposed').length, 1, 'not planned again');
  t.deepEqual(of(log, 'SearchResultsRecorded').filter((event) => (event.data.round ?? 0) === 0).map((event) => event.data.queries).sort(), [['固态电池 安全性'], ['固态电池 成本 供应链'], ['固态电池 技术路线']]);
  t.false(h.corpus.queries.includes('固态电池 产业化'), 'the removed step is not searched');
  t.deepEqual(of(log, 'SectionWritten').map((event) => event.data.heading), ['摘要', '技术路线', '安全性', '评估成本与供应链']);
  t.true(model.requests.some((request) => request.messages.some((message) => message.content.includes('现在撰写这一节：评估成本与供应链'))));
  t.false(model.requests.some((request) => request.messages.some((message) => message.content.includes('调研产业化进展'))), 'no request mentions the removed step after the edit');
  t.deepEqual(of(log, 'PlanStepMarked').at(-1)!.data.steps, ['梳理技术路线', '比较安全性', '评估成本与供应链']);
  t.is(of(log, 'FeedbackRequested').length, 1);
});

test('a plan nobody edits starts when its countdown ends, in the countdown job; one a reviewing user must start waits with no countdown', async (t) => {
  const model = new ScriptedModel({ analyse: SPECIFIC_ANALYSIS, plan: THREE_STEPS });
  const h = await harness({ model });
  t.teardown(() => h.close());
  h.deps.planCountdownMs = 8_000;
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  await h.run(runDeepCognition, 'deep_cognition', `${reply.replyId}:plan`, job(reply, 'research'));
  const log = await h.log(sessionId);
  t.like(of(log, 'PlanStarted')[0]!.data, { by: 'countdown', jobId: `${reply.replyId}:plan` });
  t.deepEqual(of(log, 'SectionWritten').map((event) => event.data.heading), ['摘要', '技术路线', '产业化', '安全性']);

  await h.deps.commands.handle(preferencesDecider, preferencesStream(h.userId), { type: 'SetPlanReviewPreference', data: { userId: h.userId, reviewPlans: true }, metadata: { now: new Date(), userId: h.userId } });
  await h.feedback(sessionId, 'satisfied');
  const second = await h.post(sessionId, SPECIFIC);
  await h.run(runDeepCognition, 'deep_cognition', second.replyId, job(second));
  const opened = of(await h.log(sessionId), 'PlanReviewOpened').at(-1)!;
  t.is(opened.data.messageId, second.replyId);
  t.is(opened.data.startsAt, undefined, 'waits for the user');
  t.like((await h.state(sessionId)).state, { awaiting: 'plan', planStartsAt: null });
});

/** Each check of a version stands where a sentence citing its number starts; every number the version cites has its check. */
function checksInPlace(t: ExecutionContext, version: { content: string; citations?: Array<{ n: number; offset: number; action: string }> }) {
  const checks = version.citations ?? [];
  const sentences = citedSentences(version.content.split(/^## 参考来源/m)[0]!);
  for (const check of checks.filter((candidate) => candidate.action !== 'removed')) {
    const sentence = sentences.find((candidate) => candidate.start === check.offset);
    t.true(sentence?.markers.some((marker) => marker.numbers.includes(check.n)), `the check of [${check.n}] at ${check.offset} stands at a sentence citing it`);
  }
  const cited = sentences.flatMap((sentence) => [...new Set(sentence.markers.flatMap((marker) => marker.numbers))].map((n) => `${sentence.start}:${n}`));
  t.deepEqual(cited.sort(), checks.filter((check) => check.action !== 'removed').map((check) => `${check.offset}:${check.n}`).sort(), 'every citation of the version has its check');
}

test('with a model: a revision is checked like a first run: a number past the sources is taken out, a claim its source does not hold is marked, the checks saved with the version; continuing keeps them', async (t) => {
  const BAD = '固态电池的能量密度已经达到每千克900瓦时[1]。界面阻抗问题已被彻底解决[9]。';
  const model = SPECIFIC_MODEL();
  const judged = rejecting(model, /900/);
  const revising: ScriptedModel = Object.assign(Object.create(judged) as ScriptedModel, {
    async *stream(request: Parameters<ScriptedModel['stream']>[0]) {
      const system = request.messages[0]?.content;
      if (system !== revisePrompt('zh') && system !== deepenPrompt('zh')) {
        yield* model.stream(request);
        return;
      }
      model.requests.push(request);
      yield { type: 'text' as const, text: system === revisePrompt('zh') ? `## 技术路线\n\n${SECTION_PROSE}\n\n${BAD}` : BAD };
      yield { type: 'usage' as const, promptTokens: 200, completionTokens: 40, model: 'scripted', estimated: false };
    },
  });
  const h = await harness({ model: revising });
  t.teardown(() => h.close());
  const sessionId = await h.createSession();
  const reply = await h.post(sessionId, SPECIFIC);
  await h.run(runDeepCognition, 'deep_cognition', reply.replyId, job(reply));
  const sources = of(await h.log(sessionId), 'WritingVersionSaved')[0]!.data.content.split('## 参考来源')[1]!.match(/^\d+\. /gm)!.length;
  t.true(sources < 9, 'source 9 does not exist');

  const manual = await h.feedback(sessionId, 'manual_feedback', '补充能量密度的具体数字');
  await h.run(runDeepCognition, 'deep_cognition', manual, job(reply, 'revise'));
  let log = await h.log(sessionId);
  const second = of(log, 'WritingVersionSaved')[1]!.data;
  const body = second.content.split(/^## 参考来源/m)[0]!;
  t.false(/\[\[?9\]/.test(body), 'no dangling number reaches the version');
  t.true(body.includes('界面阻抗问题已被彻底解决。'), 'the sentence stays, its number taken out');
  t.regex(body, /每千克900瓦时\[\[1\]\]\([^)]+\)⚠〔待核实：来源 1 中没有“900”〕。/, 'the claim source 1 does not hold is marked');
  t.like(second.citations!.find((check) => check.n === 9), { verdict: 'dangling', action: 'removed' });
  t.like(second.citations!.find((check) => check.n === 1 && check.action === 'marked'), { verdict: 'unsupported', missing: ['900'] });
  checksInPlace(t, second);
  const said = outputs(log, 'info').map((item) => item.progress as { code: string; params: Record<string, number> } | undefined).filter((item) => item?.code === 'research.citationsChecked');
  t.true(said.some((item) => item!.params.removed === 1 && item!.params.marked === 1), 'the chat says what the check of the revision did');

  const deeper = await h.feedback(sessionId, 'continue');
  await h.run(runDeepCognition, 'deep_cognition', deeper, job(reply, 'revise'));
  log = await h.log(sessionId);
  const third = of(log, 'WritingVersionSaved')[2]!.data;
  const kept = third.content.split('## 深入补充')[0]!;
  t.true(kept.startsWith(body.trimEnd()), 'the revised report is kept as it was');
  t.deepEqual(
    third.citations!.filter((check) => check.offset < body.trimEnd().length),
    second.citations!.filter((check) => check.offset < body.trimEnd().length),
    'its checks are kept, not checked again',
  );
  const added = third.content.split('## 深入补充')[1]!.split(/^## 参考来源/m)[0]!;
  t.false(/\[\[?9\]/.test(added));
  t.is(added.match(MARK_PATTERN)?.length, 1, 'the new claim is marked once');
  t.is(kept.match(MARK_PATTERN)?.length, 1, 'the kept one is not marked again');
  checksInPlace(t, third);
});

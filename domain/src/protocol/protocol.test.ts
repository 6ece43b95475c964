import test from 'ava';
import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import { toWire } from '../conversation/wire.ts';
import { CONTENT_TYPES, wireContentSchema, type ContentOf, type ContentType } from './content.ts';
import { PROGRESS_CODES, progressSchema, type Progress, type ProgressCode } from './progress.ts';
import { CANVAS_ID } from './research.ts';
import { clientEnvelopeSchema, serverMessageSchema, type ClientPayload, type ServerMessage } from './ws.ts';

const at = '2025-05-01T10:00:00.000Z';
const base = { agent: 'deep_cognition', message_id: 'r1', timestamp: at, updated_at: at, seq: 3 } as const;
const step = { step: 1, description: '检索资料', status: 'in_progress' } as const;
const result = { title: '固态电池', url: 'https://example.com/a', snippet: '…', has_useful_info: true, useful_info_summary: '要点' };
const canvas = { artifact_id: CANVAS_ID, version: 2 };

/** One item per content type; the mapped type makes a missing one a compile error. */
const fixtures: { [T in ContentType]: ContentOf<T> } = {
  user_input: { ...base, agent: 'user', content_type: 'user_input', content: '你好', target_agent: 'poe_llm', client_id: 'client-1' },
  message_start: { ...base, content_type: 'message_start', reply_to: 'u1', continues: 'r0' },
  message_end: { ...base, content_type: 'message_end', outcome: 'failed', error_message: '出错了' },
  status: { ...base, content_type: 'status', status: 'paused' },
  canvas_saved: { ...base, agent: 'user', content_type: 'canvas_saved', ...canvas, title: '报告', content: '# 报告' },
  chat_chunk: { ...base, agent: 'poe_llm', content_type: 'chat_chunk', content: '你好，' },
  artifact_start: { ...base, agent: 'poe_llm', content_type: 'artifact_start', filename: 'a.html', artifact_type: 'html', filetype: 'html', status: 'in_progress' },
  artifact_complete: { ...base, agent: 'poe_llm', content_type: 'artifact_complete', filename: 'a.md', artifact_type: 'markdown', filetype: 'markdown', content: '# A', status: 'completed' },
  think: { ...base, content_type: 'think', content: '先想一想' },
  think_end: { ...base, content_type: 'think_end' },
  clarification: { ...base, content_type: 'clarification', status: 'undone', questions: [{ id: 'q1', question_content: '范围？', question_options: ['中国', '全球'], question_type: 'single', section_id: 's1' }] },
  clarification_answer: { ...base, content_type: 'clarification_answer', status: 'done', answers: [{ id: 'q1', question: '范围？', selectedOptions: ['中国'], textInput: '', question_type: 'single' }] },
  status_and_goal: { ...base, content_type: 'status_and_goal', status: '开始研究', goal: '写一份报告' },
  content: { ...base, content_type: 'content', content: '正文' },
  plan: { ...base, content_type: 'plan', research_plan: [step], message: 'Plan Generated' },
  mark_in_progress_plan_step: { ...base, content_type: 'mark_in_progress_plan_step', index: 0, research_plan: [step] },
  plan_review: { ...base, content_type: 'plan_review', status: 'edited', research_plan: [step], queries: [['固态电池 2024']] },
  web_search_queries: { ...base, content_type: 'web_search_queries', queries: ['固态电池 2024'] },
  web_search_results: { ...base, content_type: 'web_search_results', queries: ['固态电池 2024'], results: [result], message: 'Have got 1 Correlated Web Search Results' },
  platform_tools_start: { ...base, content_type: 'platform_tools_start', tools: ['calculator'] },
  platform_tools_results: {
    ...base,
    content_type: 'platform_tools_results',
    tool_count: 1,
    tools: ['calculator'],
    total_results: 1,
    results_by_tool: { calculator: [{ args: { expression: '1+1' }, ok: true, data: { result: 2 }, count: 1 }] },
    sources: [{ title: '笔记', url: 'note:1', tool: 'local_search' }],
    sources_status: { calculator: 'ok' },
  },
  platform_tools_end: { ...base, content_type: 'platform_tools_end', message: 'Platform Tools Execution Completed' },
  web_browsing_start: { ...base, content_type: 'web_browsing_start', urls: [result.url], message: 'Browsing Webpages .....' },
  web_browsing_in_progress: { ...base, content_type: 'web_browsing_in_progress', url: result.url, title: result.title, index: 1, total: 1 },
  web_browsing_result: { ...base, content_type: 'web_browsing_result', url: result.url, title: result.title, ok: false, error: '网页读取失败' },
  web_browsing_llm_end: { ...base, content_type: 'web_browsing_llm_end', message: 'Browsing Webpages Finished' },
  web_scraping_start: { ...base, content_type: 'web_scraping_start', urls: [result.url], message: 'Scraping Webpages .....' },
  web_scraping_end: { ...base, content_type: 'web_scraping_end', count: 1, message: 'Get Information from 1 Webpages....' },
  edit_report: { ...base, content_type: 'edit_report', ...canvas, title: '报告', content: [{ id: 'dccanvas-v2-1', content: '# 报告', destination: CANVAS_ID }] },
  writing_start: { ...base, content_type: 'writing_start', ...canvas, title: '报告', message: '正在编辑报告...' },
  writing_content: { ...base, content_type: 'writing_content', artifact_id: CANVAS_ID, content: '# 报' },
  writing_rollback: { ...base, content_type: 'writing_rollback', artifact_id: CANVAS_ID, length: 120 },
  writing_end: { ...base, content_type: 'writing_end', ...canvas, title: '报告', interrupted: true, saved: true, message: '写作过程中断，已保存部分内容', level: 'warning' },
  feedback_request: { ...base, content_type: 'feedback_request', ...canvas, options: ['continue', 'satisfied', 'manual_feedback'] },
  feedback_response: { ...base, agent: 'user', content_type: 'feedback_response', option: 'manual_feedback', text: '再短一点' },
  cognition_recommendation: { ...base, content_type: 'cognition_recommendation', items: [{ id: 'c1', title: '认知', summary: '摘要' }] },
  info: { ...base, content_type: 'info', content: '搜索“电池”失败，已跳过', level: 'warning', progress: { code: 'research.searchFailed', params: { query: '电池' } } },
  error: { ...base, agent: 'targeted_edit', content_type: 'error', error_message: '预算不足', status: 402, request_id: 'edit-1' },
  targeted_edit_result: { ...base, agent: 'targeted_edit', content_type: 'targeted_edit_result', ...canvas, request_id: 'edit-1', original_snippet: '旧', edited_snippet: '新', full_content: '# 新' },
};

const overJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

test('every content type the protocol lists survives the wire: serialised, parsed, the same item', (t) => {
  t.deepEqual(Object.keys(fixtures).sort(), [...CONTENT_TYPES].sort());
  for (const [type, item] of Object.entries(fixtures)) {
    t.deepEqual(wireContentSchema.parse(overJson(item)), item, type);
    const message: ServerMessage = { type: 'message', session_id: 's', position: 7, content: item };
    t.deepEqual(serverMessageSchema.parse(overJson(message)), message, `${type} in a message`);
  }
});

test("the spec's 27 research types, general chat's and targeted edits' are all in the union", (t) => {
  const spec = 'think, think_end, clarification, status_and_goal, content, plan, web_search_queries, web_search_results, platform_tools_start, platform_tools_results, platform_tools_end, edit_report, web_browsing_start, web_browsing_in_progress, web_browsing_result, web_browsing_llm_end, web_scraping_start, web_scraping_end, mark_in_progress_plan_step, feedback_request, cognition_recommendation, error, writing_start, writing_content, writing_end, info, status'.split(', ');
  t.is(spec.length, 27);
  for (const type of [...spec, 'chat_chunk', 'artifact_start', 'artifact_complete', 'targeted_edit_result']) t.true((CONTENT_TYPES as string[]).includes(type), type);
});

test('an item of an unknown type or with a field of the wrong shape is refused', (t) => {
  t.false(wireContentSchema.safeParse({ ...base, content_type: 'teleport' }).success);
  t.false(wireContentSchema.safeParse({ ...fixtures.plan, research_plan: 'three steps' }).success);
  t.false(wireContentSchema.safeParse({ ...fixtures.info, progress: { code: 'research.searchFailed', params: {} } }).success, 'params belong to their code');
});

test('every progress code round-trips with its parameters', (t) => {
  const params: { [C in ProgressCode]: Extract<Progress, { code: C }>['params'] } = {
    'research.planning': {},
    'research.clarifying': {},
    'research.clarified': {},
    'research.webSearch': {},
    'research.localSearch': { reason: 'unconfigured' },
    'research.noMaterial': { reason: 'off' },
    'research.searchFailed': { query: '电池' },
    'research.resuming': {},
    'research.attachedRead': { count: 2, titles: ['A', 'B'] },
    'research.continuing': { steps: 2, sections: 1 },
    'research.tokensUsed': { tokens: 12_345 },
    'research.attachedLate': { count: 1, titles: ['低温测试.pdf'] },
    'research.instructionApplied': { id: 'm2', instruction: '只看低温性能', to: 'plan' },
    'research.instructionLate': { id: 'm3', instruction: '再加一段成本分析' },
    'research.planRevised': { ids: ['m2'], instruction: '不看产业化，改看低温性能', removed: ['调研产业化进展'], added: ['低温性能'] },
    'research.budgetLow': { remaining: 9_000, estimate: 40_000 },
    'research.takenOver': {},
    'research.rulesFallback': { call: 'plan' },
    'research.sectionRetry': { section: '技术路线' },
    'research.sectionEmpty': { section: '技术路线' },
    'research.sectionCapped': { section: '技术路线' },
    'research.followUp': { section: '成本与争议', reason: '资料之间对成本的说法不一致', queries: ['钠离子电池 成本 争议'] },
    'research.citationsChecked': { section: '技术路线', checked: 6, repaired: 1, marked: 1, removed: 1 },
    'research.editChecked': { checked: 2, repaired: 0, marked: 1, removed: 1 },
    'research.waitingForModel': { until: '2025-05-01T10:02:00.000Z' },
    'research.cutShortSaved': {},
    'research.interrupted': {},
    'chat.cutShortKept': {},
    'chat.paused': {},
  };
  t.deepEqual(Object.keys(params).sort(), [...PROGRESS_CODES].sort());
  for (const [code, value] of Object.entries(params)) t.deepEqual(progressSchema.parse(overJson({ code, params: value })), { code, params: value }, code);
});

test('an info entry from before codes gets its code back from the spec text it carries; other text stays text', (t) => {
  const recorded = (content: string): RecordedEvent =>
    ({
      position: 9,
      streamId: 'conversation-s',
      type: 'AgentOutputRecorded',
      data: { sessionId: 's', messageId: 'r1', agent: 'deep_cognition', contentType: 'info', seq: 1, payload: { content } },
      metadata: { at },
    }) as unknown as RecordedEvent;
  const planning = toWire(recorded('Planing .....'));
  t.like(planning?.type === 'message' ? planning.content : null, { content_type: 'info', content: 'Planing .....', progress: { code: 'research.planning', params: {} } });
  const english = toWire(recorded('Web search is on: searching the web'));
  t.false(english?.type === 'message' && 'progress' in english.content && english.content.progress !== undefined);
});

test('client envelopes: every outgoing type parses; unknown types and bad fields do not', (t) => {
  const session_id = '6f1c2b9e-8a4d-4e5f-9b1a-2c3d4e5f6a7b';
  const payloads: ClientPayload[] = [
    { content_type: 'subscribe', last_position: 4 },
    { content_type: 'unsubscribe' },
    { content_type: 'user_input', content: '你好' },
    { content_type: 'question', text: '你好' },
    { content_type: 'pause' },
    { content_type: 'clarification_answer', answers: [{ id: 'q1', selectedOptions: ['中国'] }] },
    { content_type: 'feedback_response', option: 'continue' },
    { content_type: 'targeted_edit', request_id: 'edit-1', text: '更短', snippet: '原文' },
    { content_type: 'add_context', file_url: `/backend/conversation/api/files/${session_id}`, round: 1 },
  ];
  for (const payload of payloads) t.true(clientEnvelopeSchema.safeParse({ session_id, agent: 'deep_cognition', payload }).success, payload.content_type);
  const refused = clientEnvelopeSchema.safeParse({ session_id, agent: 'none', payload: { content_type: 'teleport' } });
  t.regex(refused.error?.issues[0]?.message ?? '', /content_type 不支持: teleport/);
  t.false(clientEnvelopeSchema.safeParse({ session_id, agent: 'none', payload: { content_type: 'add_context', file_url: 'https://elsewhere.example/x' } }).success);
  t.false(clientEnvelopeSchema.safeParse({ session_id, agent: 'robot', payload: { content_type: 'pause' } }).success);
});

import test from 'ava';
import { conversationStream } from '@scriptorium/domain/conversation/conversation';
import { client, signUp, startTestApp } from '../support/app.ts';

const NOTE_BODY = '我的私人笔记：银行卡密码提示在抽屉里';
const PRIVATE_COGNITION = '私人认知：下季度裁员名单';
const CITED = 'https://example.org/cited-paper';
const UNCITED_NOTE = '未引用的私人笔记：UNCITED-SECRET';
const UPLOAD_TITLE = '工资单.pdf';
const searched = (title: string, url: string, snippet: string) => ({ title, url, snippet, has_useful_info: true, useful_info_summary: snippet });

test('a public conversation share shows what the report cites and leaves private notes and cognitions out, unless the owner includes them', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const owner = await signUp(app.url, 'privateowner');
  const sessionId = (await owner.request('POST', '/backend/conversation/sessions', { client_id: 'privacy' })).body.session_id as string;
  const at = new Date().toISOString();
  const reply = { sessionId, messageId: 'r1', agent: 'deep_cognition' as const };
  const output = (seq: number, contentType: string, payload: Record<string, unknown>) => ({ type: 'AgentOutputRecorded', data: { ...reply, contentType, seq, payload }, metadata: { at } });
  await app.services.events.appendToStream(conversationStream(sessionId), [
    { type: 'UserMessagePosted', data: { sessionId, messageId: 'm1', content: '研究一下', agent: 'deep_cognition', at }, metadata: { at, userId: owner.userId } },
    { type: 'AgentReplyStarted', data: { ...reply, replyTo: 'm1', jobId: 'j1', at }, metadata: { at } },
    output(0, 'platform_tools_results', {
      tool_count: 2,
      tools: ['local_search', 'calculator'],
      total_results: 3,
      results_by_tool: {
        local_search: [{ args: { query: '密码' }, ok: true, count: 2, data: { query: '密码', hits: [{ title: '私人笔记', snippet: NOTE_BODY, source: 'note' }, { title: '引用的论文', url: CITED, snippet: '公开内容', source: 'source' }] } }],
        calculator: [{ args: { expression: '1+1' }, ok: true, count: 1, data: { value: 2 } }],
      },
      sources: [
        { title: '私人笔记', tool: 'local_search' },
        { title: '引用的论文', url: CITED, tool: 'local_search' },
      ],
      sources_status: { local_search: 'ok', calculator: 'ok' },
    }),
    // With no web search the research rounds search the owner's material: its addresses are `<kind>:<id>`.
    {
      type: 'SearchResultsRecorded',
      data: {
        sessionId,
        messageId: 'r1',
        queries: ['密码'],
        results: [searched('私密观察', 'note:n-secret', UNCITED_NOTE), searched('引用的笔记', 'note:n-cited', '引用的笔记内容'), searched(UPLOAD_TITLE, 'upload:u1', '月薪'), searched('公开网页', 'https://example.org/page', '网页内容')],
        at,
      },
      metadata: { at },
    },
    output(1, 'cognition_recommendation', { items: [{ id: 'private-cognition', title: PRIVATE_COGNITION, summary: '机密' }] }),
    { type: 'WritingStarted', data: { ...reply, artifactId: 'dccanvas', version: 1, title: '报告', at }, metadata: { at } },
    { type: 'WritingVersionSaved', data: { ...reply, artifactId: 'dccanvas', version: 1, title: '报告', content: `# 报告\n\n见 [引用的论文](${CITED})。\n\n## 参考来源\n\n1. [引用的笔记](/note?id=n-cited)\n`, interrupted: false, at }, metadata: { at } },
  ]);
  await app.settle();

  const shared = await owner.request('POST', '/backend/conversation/sessions/share', { session_id: sessionId, title: '公开', description: '' });
  t.is(shared.status, 200);
  t.false(shared.body.include_private);
  const opened = await client(app.url).request('GET', `/backend/conversation/share/${shared.body.share_id}`);
  t.is(opened.status, 200);
  const text = JSON.stringify(opened.body);
  t.false(text.includes(NOTE_BODY), 'no private note body');
  t.false(text.includes('私人笔记'), 'no private note title');
  t.false(text.includes(PRIVATE_COGNITION), 'no private cognition title');
  t.false(text.includes(UNCITED_NOTE) || text.includes('私密观察'), 'no uncited note a search round found');
  t.false(text.includes(UPLOAD_TITLE), 'no uncited upload a search round found');
  const rounds = (opened.body.messages as Array<{ contents: Array<{ content_type: string; results?: Array<{ url: string }>; message?: string }> }>).flatMap((message) =>
    message.contents.filter((content) => content.content_type === 'web_search_results'),
  );
  t.deepEqual(rounds[0]?.results?.map((result) => result.url), ['note:n-cited', 'https://example.org/page'], 'the cited note and the web page stay');
  t.is(rounds[0]?.message, 'Have got 2 Correlated Web Search Results');
  t.true(text.includes(CITED), 'what the report cites stays');
  t.true(opened.body.private_material_hidden);

  const full = await owner.request('POST', '/backend/conversation/sessions/share', { session_id: sessionId, title: '全部', description: '', include_private: true });
  t.true(full.body.include_private);
  const everything = JSON.stringify((await client(app.url).request('GET', `/backend/conversation/share/${full.body.share_id}`)).body);
  t.true(everything.includes(NOTE_BODY) && everything.includes(PRIVATE_COGNITION) && everything.includes(UNCITED_NOTE), 'the owner chose to include them');
});

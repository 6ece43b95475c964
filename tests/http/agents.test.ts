import test from 'ava';
import { client, signUp, startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.stop();
});

test.serial('a user creates an agent from the platform tools, changes it, tries its tools and sees the runs', async (t) => {
  const user = await signUp(app.url, 'agentmaker');
  const listed = await user.request('GET', '/backend/api/agents');
  t.deepEqual(listed.body.agents, []);
  const names = listed.body.tools.map((tool: { name: string }) => tool.name);
  t.true(['calculator', 'unit_convert', 'current_time', 'word_count', 'local_search'].every((name) => names.includes(name)));
  t.truthy(listed.body.tools.find((tool: { name: string }) => tool.name === 'calculator').parameters.properties.expression, 'each tool carries its argument schema');

  const created = await user.request('POST', '/backend/api/agents', { name: ' 财务助手 ', description: '算账和换算', instructions: '回答时给出计算过程。', tools: ['calculator', 'unit_convert'] });
  t.is(created.status, 201);
  t.like(created.body, { name: '财务助手', tools: ['calculator', 'unit_convert'], tests: 0 });
  const id = created.body.id;
  t.like((await user.request('PATCH', `/backend/api/agents/${id}`, { tools: ['calculator', 'current_time'] })).body, { tools: ['calculator', 'current_time'] });

  const sum = await user.request('POST', '/backend/api/agents/tools/test', { tool: 'calculator', args: { expression: '(1 + 2) * 3^2' }, agent_id: id });
  t.like(sum.body, { tool: 'calculator', ok: true, result: { result: 27 } });
  const bad = await user.request('POST', '/backend/api/agents/tools/test', { tool: 'calculator', args: { expression: '1 / (' }, agent_id: id });
  t.like(bad.body, { ok: false, error: '表达式不完整', code: 'tools.expression_incomplete' });
  const local = await user.request('POST', '/backend/api/agents/tools/test', { tool: 'local_search', args: { query: '钠电池' } });
  t.like(local.body, { ok: false, error: '该工具检索你的笔记、上传文件和认知库，只在研究与写作智能体运行时可用', code: 'tools.only_in_agents' });
  const units = await user.request('POST', '/backend/api/agents/tools/test', { tool: 'unit_convert', args: { value: 1, from: 'kg', to: 'km' } });
  t.like(units.body, { ok: false, code: 'tools.incompatible_units', params: { fromDimension: 'mass', from: 'kg', toDimension: 'length', to: 'km' } });
  t.is(units.body.error, '无法把质量单位“kg”换算成长度单位“km”');
  // Arguments the tool's schema refuses never run it: a 422 naming the argument, and no run is recorded.
  const missing = await user.request('POST', '/backend/api/agents/tools/test', { tool: 'calculator', args: {}, agent_id: id });
  t.is(missing.status, 422);
  t.like(missing.body.detail[0], { loc: ['body', 'args', 'expression'], code: 'validation.required' });

  const detail = await user.request('GET', `/backend/api/agents/${id}`);
  t.like(detail.body, { tests: 2, failed_tests: 1 });
  t.deepEqual(detail.body.recent_tests.map((run: { tool: string; ok: boolean }) => [run.tool, run.ok]), [
    ['calculator', false],
    ['calculator', true],
  ]);
  t.like(detail.body.recent_tests[0], { summary: '表达式不完整', code: 'tools.expression_incomplete' });
});

test.serial('bad requests and other users are refused, and change nothing', async (t) => {
  const owner = await signUp(app.url, 'agentowner');
  const other = await signUp(app.url, 'agentsnoop');
  const id = (await owner.request('POST', '/backend/api/agents', { name: '写作教练', instructions: '只给修改建议。' })).body.id;
  const before = await app.services.events.headPosition();
  t.is((await other.request('GET', `/backend/api/agents/${id}`)).status, 404);
  t.is((await other.request('PATCH', `/backend/api/agents/${id}`, { name: '偷改' })).status, 404);
  t.is((await other.request('DELETE', `/backend/api/agents/${id}`)).status, 404);
  t.is((await other.request('POST', '/backend/api/agents/tools/test', { tool: 'calculator', args: { expression: '1+1' }, agent_id: id })).status, 404);
  t.is((await owner.request('POST', '/backend/api/agents', { name: 'x', instructions: 'y', tools: ['teleport'] })).status, 422);
  t.is((await owner.request('POST', '/backend/api/agents', { name: '   ', instructions: 'y' })).status, 422);
  t.is((await owner.request('POST', '/backend/api/agents/tools/test', { tool: 'teleport', args: {} })).status, 422);
  t.is((await client(app.url).request('GET', '/backend/api/agents')).status, 401);
  t.is(await app.services.events.headPosition(), before, 'nothing was written');
  t.is((await owner.request('DELETE', `/backend/api/agents/${id}`)).status, 200);
  t.deepEqual((await owner.request('GET', '/backend/api/agents')).body.agents, []);
});

import test from 'ava';
import { client, signUp, startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.stop();
});

const at = (second: number) => new Date(Date.UTC(2026, 10, 20, 9, 0, second)).toISOString();
const thought = (id: string, second: number, parent: string | null = null) => ({ id, node_type: 'thought', parent_id: parent, timestamp: at(second), payload: { text: `想法 ${id}` } });
const base = '/backend/api/ai-engineer';

test.serial('a session records a tree of nodes, pages it by page and cursor, and counts it', async (t) => {
  const user = await signUp(app.url, 'engineer1');
  const created = await user.request('POST', `${base}/sessions`, { title: '修复登录', task_description: '登录返回 401' });
  t.is(created.status, 201);
  t.like(created.body, { title: '修复登录', task_description: '登录返回 401', status: 'running', node_count: 0 });
  const id = created.body.id;

  const nodes = [
    { id: 'n0', node_type: 'message', timestamp: at(0), payload: { role: 'user', text: '为什么 401？' }, tokens: 7 },
    ...Array.from({ length: 119 }, (_, index) => thought(`n${index + 1}`, index + 1, 'n0')),
    { id: 'cmd', node_type: 'command', parent_id: 'n0', timestamp: at(200), payload: { command: 'npm test' } },
    { id: 'out', node_type: 'output', parent_id: 'cmd', status: 'failed', timestamp: at(201), payload: { text: '1 failed', exit_code: 1 }, tokens: 3 },
  ];
  const posted = await user.request('POST', `${base}/sessions/${id}/nodes`, { nodes });
  t.is(posted.status, 200, JSON.stringify(posted.body));
  t.is(posted.body.session.node_count, 122);
  const again = await user.request('POST', `${base}/sessions/${id}/nodes`, { nodes: nodes.slice(0, 3), status: 'waiting_input' });
  t.like(again.body.session, { node_count: 122, status: 'waiting_input' }, 'nodes sent again are not recorded twice');

  const page = await user.request('GET', `${base}/sessions/${id}/nodes`);
  t.like(page.body, { total: 122, page: 1, page_size: 50, total_pages: 3 });
  t.deepEqual(page.body.nodes.slice(0, 2).map((node: any) => node.id), ['out', 'cmd'], 'newest first by default');
  const filtered = await user.request('GET', `${base}/sessions/${id}/nodes?node_type=thought&start_time=${at(10)}&end_time=${at(19)}&sort_order=asc&page_size=5&page=2`);
  t.deepEqual(filtered.body.nodes.map((node: any) => node.id), ['n15', 'n16', 'n17', 'n18', 'n19']);
  t.is(filtered.body.total, 10);
  t.deepEqual((await user.request('GET', `${base}/sessions/${id}/nodes?parent_id=root`)).body.nodes.map((node: any) => node.id), ['n0']);
  t.deepEqual((await user.request('GET', `${base}/sessions/${id}/nodes?status=failed`)).body.nodes.map((node: any) => node.id), ['out']);

  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const response: any = await user.request('GET', `${base}/sessions/${id}/nodes/cursor${cursor ? `?cursor=${cursor}` : ''}`);
    t.true(response.body.nodes.length <= 50);
    seen.push(...response.body.nodes.map((node: any) => node.id));
    cursor = response.body.next_cursor;
  } while (cursor);
  t.is(seen.length, 122);
  t.is(new Set(seen).size, 122, 'every node once');
  const oldest = await user.request('GET', `${base}/sessions/${id}/nodes/cursor?limit=3&direction=down&cursor=${Buffer.from(`${at(3)}|n3`).toString('base64url')}`);
  t.deepEqual(oldest.body.nodes.map((node: any) => node.id), ['n2', 'n1', 'n0']);
  const newer = await user.request('GET', `${base}/sessions/${id}/nodes/cursor?limit=2&direction=up&cursor=${oldest.body.prev_cursor}`);
  t.deepEqual(newer.body.nodes.map((node: any) => node.id), ['n4', 'n3'], 'up gives the next newer nodes, still newest first');
  t.is((await user.request('GET', `${base}/sessions/${id}/nodes/cursor?cursor=bm9wZQ`)).status, 422);

  // How the screen reads a session: `up` from no cursor starts at the oldest, `prev_cursor` walks on to the newest.
  const walked: string[] = [];
  let upward: string | null = null;
  do {
    const response: any = await user.request('GET', `${base}/sessions/${id}/nodes/cursor?direction=up&limit=500${upward ? `&cursor=${upward}` : ''}`);
    walked.push(...response.body.nodes.map((node: any) => node.id).reverse());
    upward = response.body.prev_cursor;
  } while (upward);
  t.is(walked.length, 122);
  t.deepEqual([walked[0], walked.at(-1)], ['n0', 'out'], 'oldest first, to the newest');
  const small: string[] = [];
  upward = null;
  do {
    const response: any = await user.request('GET', `${base}/sessions/${id}/nodes/cursor?direction=up&limit=50${upward ? `&cursor=${upward}` : ''}`);
    small.push(...response.body.nodes.map((node: any) => node.id).reverse());
    upward = response.body.prev_cursor;
  } while (upward);
  t.deepEqual(small, walked, 'the same walk in pages of 50');
  t.is((await user.request('GET', `${base}/sessions/${id}/nodes/cursor?limit=501`)).status, 422, 'a page is at most a batch');

  const stats = await user.request('GET', `${base}/sessions/${id}/nodes/stats`);
  t.like(stats.body, { total_nodes: 122, tokens: 10, by_type: { message: 1, thought: 119, command: 1, output: 1, error: 0 }, by_status: { completed: 121, failed: 1 }, duration_seconds: 201 });

  t.like((await user.request('GET', `${base}/sessions/${id}/nodes/out`)).body, { node_type: 'output', parent_id: 'cmd', payload: { text: '1 failed', exit_code: 1 } });
  t.is((await user.request('GET', `${base}/sessions/${id}/nodes/ghost`)).status, 404);
  const tree = await user.request('GET', `${base}/sessions/${id}/tree`);
  t.is(tree.body.tree.length, 1);
  t.is(tree.body.tree[0].children.length, 120);
  t.deepEqual(tree.body.tree[0].children.at(-1).children.map((node: any) => node.id), ['out']);

  const waiting = await user.request('GET', `${base}/sessions?status=waiting_input`);
  t.deepEqual(waiting.body.sessions.map((session: any) => session.id), [id]);
  t.is((await user.request('GET', `${base}/sessions?status=completed`)).body.total, 0);
});

test.serial('commands reach each polling client once, take one result, and user input wakes a waiting session', async (t) => {
  const user = await signUp(app.url, 'engineer2');
  const id = (await user.request('POST', `${base}/sessions`, { title: '命令', session_id: 'cli-session-1', source: 'cli' })).body.id;
  t.is(id, 'cli-session-1');
  t.is((await user.request('POST', `${base}/sessions`, { title: '命令', session_id: 'cli-session-1', source: 'cli' })).status, 201, 'a retried create is the same session');
  await user.request('POST', `${base}/sessions/${id}/nodes`, { nodes: [thought('a', 0)], status: 'waiting_input' });

  const command = await user.request('POST', `${base}/sessions/${id}/commands`, { command_type: 'run', content: 'ls' });
  t.is(command.status, 201);
  t.like(command.body, { seq: 1, command_type: 'run', content: 'ls', client_id: null, result: null });
  await user.request('POST', `${base}/sessions/${id}/commands`, { command_type: 'run', content: 'pwd', client_id: 'cli-b' });
  const input = await user.request('POST', `${base}/sessions/${id}/user-input`, { text: '继续' });
  t.like(input.body, { seq: 3, command_type: 'message', content: '继续' });
  t.is((await user.request('GET', `${base}/sessions/${id}`)).body.status, 'running');

  const polled = await user.request('GET', `${base}/sessions/${id}/commands?client_id=cli-a&after=0`);
  t.deepEqual(polled.body.commands.map((c: any) => c.seq), [1, 3], 'not the command addressed to another client');
  t.is(polled.body.last_seq, 3);
  const all = await user.request('GET', `${base}/sessions/${id}/commands`);
  t.deepEqual(all.body.commands.map((c: any) => c.delivered_to), [['cli-a'], [], ['cli-a']]);
  t.deepEqual((await user.request('GET', `${base}/sessions/${id}/commands?client_id=cli-a&after=3`)).body.commands, []);

  const result = { status: 'completed', result: 'a.txt', error_message: null };
  const recorded = await user.request('POST', `${base}/sessions/${id}/commands/${command.body.id}/result`, result);
  t.like(recorded.body, { result: { status: 'completed', result: 'a.txt', error_message: null } });
  t.is((await user.request('POST', `${base}/sessions/${id}/commands/${command.body.id}/result`, result)).status, 200, 'the same result again is a retry');
  const conflict = await user.request('POST', `${base}/sessions/${id}/commands/${command.body.id}/result`, { ...result, status: 'failed' });
  t.is(conflict.status, 409);
  t.is(conflict.body.code, 'engineer.result_recorded');

  t.like((await user.request('POST', `${base}/executions/${id}/stop`)).body, { status: 'stopped' });
  const ended = await user.request('POST', `${base}/sessions/${id}/nodes`, { nodes: [thought('b', 1)] });
  t.is(ended.status, 409);
  t.is(ended.body.code, 'engineer.session_ended');
});

test.serial("another user's session is not found, and bad input is a 422 with a list", async (t) => {
  const owner = await signUp(app.url, 'engineer3');
  const other = await signUp(app.url, 'engineer4');
  const id = (await owner.request('POST', `${base}/sessions`, { title: '私有' })).body.id;
  for (const [method, path, body] of [
    ['GET', `${base}/sessions/${id}`],
    ['GET', `${base}/sessions/${id}/nodes`],
    ['GET', `${base}/sessions/${id}/nodes/cursor`],
    ['GET', `${base}/sessions/${id}/nodes/stats`],
    ['GET', `${base}/sessions/${id}/tree`],
    ['GET', `${base}/sessions/${id}/commands`],
    ['POST', `${base}/sessions/${id}/nodes`, { nodes: [thought('x', 0)] }],
    ['POST', `${base}/sessions/${id}/commands`, { command_type: 'run', content: 'rm -rf /' }],
    ['POST', `${base}/sessions/${id}/user-input`, { text: 'hi' }],
    ['POST', `${base}/executions/${id}/stop`],
    ['GET', `${base}/sessions/${id}/nodes/some-node`],
    ['POST', `${base}/sessions/${id}/commands/00000000-0000-4000-8000-000000000000/result`, { status: 'completed', result: 'ok' }],
    ['GET', `${base}/demo/executions/${id}`],
    ['GET', `${base}/demo/executions/${id}/files`],
    ['GET', `${base}/demo/executions/${id}/terminals`],
    ['GET', `${base}/demo/executions/${id}/actions`],
    ['GET', `${base}/demo/executions/${id}/nodes`],
  ] as const) {
    const response = await other.request(method, path, body);
    t.is(response.status, 404, `${method} ${path}`);
    t.is(response.body.code, 'engineer.not_found');
  }
  t.is((await other.request('POST', `${base}/sessions`, { title: '抢占', session_id: id })).status, 404);
  t.deepEqual((await other.request('GET', `${base}/sessions`)).body.sessions, []);
  t.is((await client(app.url).request('GET', `${base}/sessions`)).status, 401);

  const bad = await owner.request('POST', `${base}/sessions/${id}/nodes`, { nodes: [{ id: 'x', node_type: 'command', timestamp: 'yesterday', payload: { text: 'no' } }] });
  t.is(bad.status, 422);
  t.true(Array.isArray(bad.body.detail));
  t.true(bad.body.detail.some((issue: any) => issue.loc.includes('timestamp')));
  // Each refusal words its own cause: too many nodes is not "please give nodes".
  const tooMany = await owner.request('POST', `${base}/sessions/${id}/nodes`, { nodes: Array.from({ length: 501 }, (_, index) => thought(`n${index}`, index)) });
  t.is(tooMany.status, 422);
  t.like(tooMany.body.detail[0], { code: 'validation.too_big_array', msg: '最多 500 项' });
  t.is((await owner.request('POST', `${base}/sessions/${id}/nodes`, { nodes: 'none' })).body.detail[0].code, 'engineer.nodes_required');
  const orphan = await owner.request('POST', `${base}/sessions/${id}/nodes`, { nodes: [thought('y', 0, 'ghost')] });
  t.is(orphan.status, 422);
  t.is(orphan.body.code, 'engineer.parent_unknown');
  t.is((await owner.request('GET', `${base}/sessions/${id}/nodes?page_size=1000`)).status, 422);
  t.is((await owner.request('GET', `${base}/sessions?status=sleeping`)).status, 422);
  t.is((await owner.request('POST', `${base}/sessions/${id}/user-input`, { text: '   ' })).body.detail[0].code, 'engineer.input_empty');
});

test.serial('a proposal is answered once over HTTP: approve wakes the session, a second answer is 409, an id that is no pending proposal is 422, and the answer is listed with the commands', async (t) => {
  const user = await signUp(app.url, 'engineerproposal');
  const id = (await user.request('POST', `${base}/sessions`, { title: '列文件', task_description: 'list the files' })).body.id;
  const proposal = { id: 'p1', node_type: 'tool_call', status: 'pending', timestamp: at(1), title: 'ls -la', payload: { name: 'run_command', arguments: { command: 'ls -la' } } };
  t.is((await user.request('POST', `${base}/sessions/${id}/nodes`, { nodes: [thought('t0', 0), proposal], status: 'waiting_input' })).status, 200);

  const unknown = await user.request('POST', `${base}/sessions/${id}/commands`, { command_type: 'approve', content: 't0' });
  t.is(unknown.status, 422);
  t.like(unknown.body, { code: 'engineer.proposal_unknown' });
  const approved = await user.request('POST', `${base}/sessions/${id}/commands`, { command_type: 'approve', content: 'p1' });
  t.is(approved.status, 201, JSON.stringify(approved.body));
  t.like(approved.body, { command_type: 'approve', content: 'p1' });
  t.is((await user.request('GET', `${base}/sessions/${id}`)).body.status, 'running');
  const second = await user.request('POST', `${base}/sessions/${id}/commands`, { command_type: 'reject', content: 'p1' });
  t.is(second.status, 409);
  t.like(second.body, { code: 'engineer.proposal_answered', detail: '该命令建议已有答复' });

  // A proposal the agent answered itself (a node under it) takes no answer from the browser.
  const p2 = { ...proposal, id: 'p2', timestamp: at(2) };
  await user.request('POST', `${base}/sessions/${id}/nodes`, { nodes: [p2, { id: 'c2', node_type: 'command', parent_id: 'p2', timestamp: at(3), payload: { command: 'ls -la' } }] });
  t.is((await user.request('POST', `${base}/sessions/${id}/commands`, { command_type: 'reject', content: 'p2' })).status, 409);
  const listed = (await user.request('GET', `${base}/sessions/${id}/commands`)).body.commands;
  t.deepEqual(listed.map((command: any) => [command.command_type, command.content]), [['approve', 'p1']]);
});

test.serial('a node sent again under its id is updated (status, payload, timing) with a revision; a replayed older update changes nothing; its type and parent stay', async (t) => {
  const user = await signUp(app.url, 'engineerupdate');
  const id = (await user.request('POST', `${base}/sessions`, { title: '跑测试' })).body.id;
  const running = { id: 'cmd', node_type: 'command', status: 'running', timestamp: at(1), payload: { command: 'npm test' } };
  t.like((await user.request('POST', `${base}/sessions/${id}/nodes`, { nodes: [running] })).body, { received: 1, session: { node_count: 1 } });
  t.like((await user.request('GET', `${base}/sessions/${id}/nodes/cmd`)).body, { status: 'running' });

  const completed = { ...running, status: 'completed', timestamp: at(9), title: 'npm test (8 s)' };
  const posted = await user.request('POST', `${base}/sessions/${id}/nodes`, { nodes: [completed] });
  t.is(posted.status, 200, JSON.stringify(posted.body));
  t.like(posted.body.session, { node_count: 1 }, 'an update is no new node');
  t.like((await user.request('GET', `${base}/sessions/${id}/nodes/cmd`)).body, { status: 'completed', revision: 2, timestamp: at(9), title: 'npm test (8 s)' });
  t.like((await user.request('GET', `${base}/sessions/${id}/nodes/stats`)).body, { by_status: { running: 0, completed: 1 }, duration_seconds: 8 });

  t.is((await user.request('POST', `${base}/sessions/${id}/nodes`, { nodes: [running] })).status, 200, 'the older version replayed');
  t.is((await user.request('POST', `${base}/sessions/${id}/nodes`, { nodes: [{ ...running, status: 'failed', revision: 2 }] })).status, 200, 'a revision already recorded');
  t.like((await user.request('GET', `${base}/sessions/${id}/nodes/cmd`)).body, { status: 'completed', revision: 2 }, 'neither changed it');
  await user.request('POST', `${base}/sessions/${id}/nodes`, { nodes: [{ ...running, status: 'failed', payload: { command: 'npm test -- --bail' }, revision: 7 }] });
  t.like((await user.request('GET', `${base}/sessions/${id}/nodes/cmd`)).body, { status: 'failed', revision: 7, payload: { command: 'npm test -- --bail' } });
  t.like((await user.request('GET', `${base}/sessions/${id}/tree`)).body.tree[0], { id: 'cmd', status: 'failed', revision: 7 });

  const reshaped = await user.request('POST', `${base}/sessions/${id}/nodes`, { nodes: [{ ...thought('cmd', 2), revision: 8 }] });
  t.is(reshaped.status, 422);
  t.like(reshaped.body, { code: 'engineer.node_reshaped' });
  t.like((await user.request('GET', `${base}/sessions/${id}/nodes/cmd`)).body, { node_type: 'command', revision: 7 }, 'a refused update changes nothing');
});

import test from 'ava';
import { signUp, startTestApp, type TestApp } from '../support/app.ts';
import { openSocketAt } from '../support/socket.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.stop();
});

const base = '/backend/api/ai-engineer';
const socketPath = (id: string) => `${base}/ws/sessions/${id}`;
const thought = (id: string) => ({ id, node_type: 'thought', timestamp: new Date().toISOString(), payload: { text: id } });

test.serial('a watcher sees nodes, commands, results and status as they are recorded, and its input becomes a command', async (t) => {
  const user = await signUp(app.url, 'watcher1');
  const id = (await user.request('POST', `${base}/sessions`, { title: '直播' })).body.id;
  const socket = await openSocketAt(app.url, socketPath(id), user.token);
  const subscribed = await socket.next((message) => message.type === 'subscribed');

  await user.request('POST', `${base}/sessions/${id}/nodes`, { nodes: [thought('a')] });
  const nodes = await socket.next((message) => message.type === 'nodes');
  t.deepEqual(nodes.nodes.map((node: any) => node.id), ['a']);
  t.true(nodes.position > subscribed.position);

  socket.send({ type: 'user_input', text: '请先跑测试', timestamp: new Date().toISOString() });
  const command = await socket.next((message) => message.type === 'command');
  t.like(command.command, { command_type: 'message', content: '请先跑测试', seq: 1 });
  await user.request('GET', `${base}/sessions/${id}/commands?client_id=cli-1&after=0`);
  t.like(await socket.next((message) => message.type === 'command_delivered'), { command_id: command.command.id, client_id: 'cli-1' });
  await user.request('POST', `${base}/sessions/${id}/commands/${command.command.id}/result`, { status: 'completed', result: 'ok' });
  t.like((await socket.next((message) => message.type === 'command_result')).result, { status: 'completed', result: 'ok' });
  await user.request('POST', `${base}/sessions/${id}/nodes`, { nodes: [thought('b')], status: 'completed' });
  t.like(await socket.next((message) => message.type === 'status'), { status: 'completed' });

  socket.send({ type: 'user_input', text: '还在吗' });
  t.like(await socket.next((message) => message.type === 'error'), { code: 'engineer.session_ended' });
  socket.send({ type: 'user_input', text: '' });
  t.like(await socket.next((message) => message.type === 'error' && message.code === 'socket.invalid_message'), { type: 'error' });
  socket.close();

  const resumed = await openSocketAt(app.url, socketPath(id), user.token, { last_position: String(nodes.position) });
  await resumed.next((message) => message.type === 'subscribed');
  const types = resumed.received.filter((message) => message.type !== 'heartbeat' && message.type !== 'subscribed').map((message) => message.type);
  t.deepEqual(types, ['command', 'command_delivered', 'command_result', 'nodes', 'status'], 'exactly what came after, once, in order');
  resumed.close();
});

test.serial("another user's session, a missing one and no token close the socket", async (t) => {
  const owner = await signUp(app.url, 'watcher2');
  const other = await signUp(app.url, 'watcher3');
  const id = (await owner.request('POST', `${base}/sessions`, { title: '私有' })).body.id;
  t.is((await (await openSocketAt(app.url, socketPath(id), other.token)).closed).code, 4404);
  t.is((await (await openSocketAt(app.url, socketPath('missing'), owner.token)).closed).code, 4404);
  t.is((await (await openSocketAt(app.url, socketPath(id))).closed).code, 4401);
});

test.serial('signing out closes the session sockets of that sign-in', async (t) => {
  const user = await signUp(app.url, 'watcher4');
  const id = (await user.request('POST', `${base}/sessions`, { title: '退出' })).body.id;
  const socket = await openSocketAt(app.url, socketPath(id), user.token);
  await socket.next((message) => message.type === 'subscribed');
  t.is((await user.request('POST', '/backend/auth/logout')).status, 200);
  t.like(await socket.closed, { code: 4401, reason: 'signed out' });
});

import test from 'ava';
import { readFileSync } from 'node:fs';
import { signUp, startTestApp, type TestApp } from '../support/app.ts';
import { startMockOpenAI, type MockOpenAI } from '../support/mockOpenAI.ts';
import { openSocket, streamedText } from '../support/socket.ts';
import { eventually } from '../support/poll.ts';

const REPLY = '事件溯源把每一次变化记录为事件。'.repeat(12) + ' Event sourcing records every change as an event.';

let mock: MockOpenAI;
let app: TestApp;
test.before(async () => {
  mock = await startMockOpenAI({ scenario: 'slow', delayMs: 8, reply: REPLY, tokensPerChunk: 2 });
  app = await startTestApp({ LLM_BASE_URL: mock.url, LLM_MODEL: 'slow', LLM_API_KEY: 'test-key' });
});
test.after.always(async () => {
  await app?.stop();
  await mock?.close();
});

const session = async (name: string) => {
  const user = await signUp(app.url, name);
  const { body } = await user.request('POST', '/backend/conversation/sessions', { client_id: `client-${name}` });
  return { user, sessionId: body.session_id as string };
};
const subscribe = (sessionId: string, last_position?: number) => ({ session_id: sessionId, agent: 'none', payload: { content_type: 'subscribe', ...(last_position !== undefined && { last_position }) } });
const isEnd = (replyId: string) => (message: any) => message.type === 'message' && message.content.content_type === 'message_end' && message.content.message_id === replyId;

test('two sockets on one session receive the identical stream, equal to the history and the log', async (t) => {
  const { user, sessionId } = await session('twotabs');
  const [a, b] = await Promise.all([openSocket(app.url, 'client-a', user.token), openSocket(app.url, 'client-b', user.token)]);
  a.send(subscribe(sessionId));
  b.send(subscribe(sessionId));
  await Promise.all([a.next((m) => m.type === 'subscribed'), b.next((m) => m.type === 'subscribed')]);
  const sent = await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: sessionId, text: '什么是事件溯源？' });
  await Promise.all([a.next(isEnd(sent.body.reply_id)), b.next(isEnd(sent.body.reply_id))]);
  const fromA = a.received.filter((m) => m.type === 'message');
  const fromB = b.received.filter((m) => m.type === 'message');
  t.deepEqual(fromA, fromB);
  const text = streamedText(fromA, sent.body.reply_id);
  t.is(text, REPLY);
  const history = await user.request('GET', `/backend/conversation/sessions/${sessionId}/messages`);
  const reply = history.body.messages.find((m: any) => m.message_id === sent.body.reply_id);
  t.is(reply.contents.filter((item: any) => item.content_type === 'chat_chunk').map((item: any) => item.content).join(''), REPLY);
  const logged = (await app.services.events.readStream(`conversation-${sessionId}`))
    .filter((event) => event.type === 'MessageChunksAppended')
    .map((event) => (event.data as { text: string }).text)
    .join('');
  t.is(logged, REPLY);
  t.true(fromA.some((m) => m.content.content_type === 'status' && m.content.status === 'processing'));
  t.true(fromA.some((m) => m.content.content_type === 'status' && m.content.status === 'paused'));
  const usage = await app.services.events.readStream(`conversation-${sessionId}`);
  t.true(usage.some((event) => event.type === 'TokensConsumed'));
  a.close();
  b.close();
});

test('a socket that drops mid-stream and resubscribes with its last position loses and doubles nothing', async (t) => {
  const { user, sessionId } = await session('dropper');
  const first = await openSocket(app.url, 'client-drop', user.token);
  first.send(subscribe(sessionId));
  await first.next((m) => m.type === 'subscribed');
  const sent = await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: sessionId, text: '讲讲事件溯源' });
  await first.next((m) => m.type === 'message' && m.content.content_type === 'chat_chunk' && m.content.message_id === sent.body.reply_id);
  first.close();
  await first.closed;
  const seen = first.received.filter((m) => m.type === 'message');
  const lastPosition = Math.max(...seen.map((m) => m.position));
  const second = await openSocket(app.url, 'client-drop', user.token);
  second.send(subscribe(sessionId, lastPosition));
  await second.next(isEnd(sent.body.reply_id));
  const resumed = second.received.filter((m) => m.type === 'message');
  const positions = [...seen, ...resumed].map((m) => m.position);
  t.deepEqual(positions, [...positions].sort((x, y) => x - y), 'in order');
  t.is(new Set(positions).size, positions.length, 'no duplicates');
  t.is(streamedText([...seen, ...resumed], sent.body.reply_id), REPLY);
  second.close();
});

test('metadata_update with the generated title reaches every socket of the user', async (t) => {
  const { user, sessionId } = await session('titled');
  const watcher = await openSocket(app.url, 'client-watch', user.token);
  await watcher.next((m) => m.type === 'heartbeat');
  await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: sessionId, text: '光伏产业的现状。还有什么？' });
  const update = await watcher.next((m) => m.type === 'metadata_update' && m.updated_fields.title !== undefined);
  t.is(update.session_id, sessionId);
  t.truthy(update.updated_fields.title);
  watcher.close();
});

test('pause interrupts the running reply and keeps what was written; resume continues it', async (t) => {
  const { user, sessionId } = await session('pauser');
  const socket = await openSocket(app.url, 'client-pause', user.token);
  socket.send(subscribe(sessionId));
  await socket.next((m) => m.type === 'subscribed');
  const sent = await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: sessionId, text: '写一段介绍' });
  await socket.next((m) => m.type === 'message' && m.content.content_type === 'chat_chunk');
  const paused = await user.request('POST', `/backend/conversation/research/${sessionId}/pause`);
  t.is(paused.status, 200);
  const end = await socket.next(isEnd(sent.body.reply_id));
  t.is(end.content.outcome, 'interrupted');
  const partial = streamedText(socket.received, sent.body.reply_id);
  t.true(partial.length > 0 && partial.length < REPLY.length, 'partial text kept');
  const status = await user.request('GET', `/backend/conversation/research/${sessionId}/status`);
  t.is(status.body.status, 'paused');
  const resumed = await user.request('POST', `/backend/conversation/research/${sessionId}/resume`);
  t.is(resumed.status, 200);
  const resumedEnd = await socket.next(isEnd(resumed.body.reply_id));
  t.is(resumedEnd.content.outcome, 'completed');
  const start = socket.received.find((m) => m.type === 'message' && m.content.content_type === 'message_start' && m.content.message_id === resumed.body.reply_id);
  t.is(start.content.continues, sent.body.reply_id);
  const continuation = mock.requests.find((request) => request.body.messages?.at(-1)?.content.includes('继续'))!;
  t.is(continuation.body.messages?.at(-2)?.content, partial, 'the model sees the partial answer');
  socket.close();
});

test('resume over the socket continues a paused reply; with nothing to continue it is refused with its code', async (t) => {
  const { user, sessionId } = await session('socketresumer');
  const socket = await openSocket(app.url, 'client-resume', user.token);
  socket.send(subscribe(sessionId));
  await socket.next((m) => m.type === 'subscribed');
  socket.send({ session_id: sessionId, agent: 'poe_llm', payload: { content_type: 'resume' } });
  const refused = await socket.next((m) => m.type === 'error');
  t.is(refused.code, 'conversation.nothing_to_resume');
  t.is(refused.content_type, 'resume', 'the client knows which command was refused');
  const sent = await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: sessionId, text: '写一段介绍' });
  await socket.next((m) => m.type === 'message' && m.content.content_type === 'chat_chunk');
  socket.send({ session_id: sessionId, agent: 'poe_llm', payload: { content_type: 'pause' } });
  t.is((await socket.next(isEnd(sent.body.reply_id))).content.outcome, 'interrupted');
  socket.send({ session_id: sessionId, agent: 'poe_llm', payload: { content_type: 'resume' } });
  const start = await socket.next((m) => m.type === 'message' && m.content.content_type === 'message_start' && m.content.continues === sent.body.reply_id);
  t.is((await socket.next(isEnd(start.content.message_id))).content.outcome, 'completed');
  socket.close();
});

test('messages sent over the socket start a reply; bad envelopes get an error and the socket stays up', async (t) => {
  const { user, sessionId } = await session('socketsender');
  const socket = await openSocket(app.url, 'client-send', user.token);
  const streamLength = async () => (await app.services.events.readStream(`conversation-${sessionId}`)).length;
  const before = await streamLength();
  for (const bad of ['not json', '[]', { session_id: 'nope', agent: 'none', payload: { content_type: 'subscribe' } }, { session_id: sessionId, agent: 'robot', payload: { content_type: 'user_input' } }, { session_id: sessionId, agent: 'poe_llm', payload: { content_type: 'teleport' } }]) {
    const errors = socket.received.filter((m) => m.type === 'error').length;
    socket.send(bad);
    await socket.next(() => socket.received.filter((m) => m.type === 'error').length > errors);
  }
  const refusals = socket.received.filter((m) => m.type === 'error');
  t.true(refusals.every((m) => m.code.startsWith('socket.')), 'a message outside the protocol is refused with its code');
  t.regex(refusals.at(-1).error_message, /^消息格式不正确: payload\.content_type content_type 不支持: teleport/);
  const blankErrors = socket.received.filter((m) => m.type === 'error').length;
  socket.send({ session_id: sessionId, agent: 'poe_llm', payload: { content_type: 'user_input', content: '   ' } });
  await socket.next(() => socket.received.filter((m) => m.type === 'error').length > blankErrors);
  t.is(socket.received.filter((m) => m.type === 'error').at(-1).error_message, '消息不能为空');
  t.is(await streamLength(), before, 'nothing appended for bad input');
  socket.send(subscribe(sessionId));
  await socket.next((m) => m.type === 'subscribed');
  socket.send({ session_id: sessionId, agent: 'poe_llm', payload: { content_type: 'user_input', content: '你好' } });
  const end = await socket.next((m) => m.type === 'message' && m.content.content_type === 'message_end');
  t.is(end.content.outcome, 'completed');
  const echoed = socket.received.find((m) => m.type === 'message' && m.content.content_type === 'user_input');
  t.is(echoed.content.client_id, 'client-send');
  socket.close();
});

test('add_context over the socket makes an uploaded file a context of the session; another user\'s file is not found', async (t) => {
  const { user, sessionId } = await session('contextsender');
  const form = new FormData();
  form.append('file', new Blob([readFileSync(new URL('../fixtures/zh.md', import.meta.url))], { type: 'text/markdown' }), '笔记.md');
  const uploaded = await fetch(`${app.url}/backend/conversation/api/upload_file`, { method: 'POST', headers: { authorization: `Bearer ${user.token}` }, body: form });
  const { file_url } = ((await uploaded.json()) as { data: { file_url: string } }).data;
  const socket = await openSocket(app.url, 'client-context', user.token);
  socket.send({ session_id: sessionId, agent: 'deep_cognition', payload: { content_type: 'add_context', file_url, round: 1 } });
  const contexts = async () => (await user.request('GET', `/backend/conversation/api/research/contexts/${sessionId}`)).body.data as Array<{ filename: string; round: number }>;
  await eventually(async () => ((await contexts()).length > 0 ? true : undefined), undefined, 'the context stored');
  t.like(await contexts(), [{ filename: '笔记.md', type: 'file', round: 1 }]);
  t.false(socket.received.some((m) => m.type === 'error'));

  const other = await session('contextthief');
  const thief = await openSocket(app.url, 'client-thief', other.user.token);
  thief.send({ session_id: other.sessionId, agent: 'deep_cognition', payload: { content_type: 'add_context', file_url } });
  t.is((await thief.next((m) => m.type === 'error')).error_message, '文件不存在');
  socket.close();
  thief.close();
});

test('another user cannot subscribe to a session', async (t) => {
  const { sessionId } = await session('private');
  const other = await signUp(app.url, 'snoop');
  const socket = await openSocket(app.url, 'client-snoop', other.token);
  socket.send(subscribe(sessionId));
  const error = await socket.next((m) => m.type === 'error');
  t.is(error.error_message, '会话不存在');
  socket.close();
});

test('a socket without a valid token is closed with a reason', async (t) => {
  for (const token of [undefined, 'forged']) {
    const socket = await openSocket(app.url, 'client-anon', token);
    const closed = await socket.closed;
    t.is(closed.code, 4401);
    t.is(closed.reason, 'user not authenticated, cannot establish the realtime connection');
  }
});

import test from 'ava';
import { client, signUp, startTestApp, type TestApp } from '../support/app.ts';
import { sessionWithReport } from '../support/research.ts';
import { eventually } from '../support/poll.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.stop();
});

const waitForReply = async (user: Awaited<ReturnType<typeof signUp>>, sessionId: string) => {
  for (let tries = 0; tries < 200; tries++) {
    const status = await user.request('GET', `/backend/conversation/research/${sessionId}/status`);
    if (!status.body.processing) return status.body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the reply did not finish');
};

test.serial('a session starts with the research agent and search on', async (t) => {
  const user = await signUp(app.url, 'sessionuser');
  const created = await user.request('POST', '/backend/conversation/sessions', { client_id: 'client-abc' });
  t.is(created.status, 200);
  t.regex(created.body.session_id, /^[0-9a-f-]{36}$/);
  const session = await user.request('GET', `/backend/conversation/research/${created.body.session_id}`);
  t.like(session.body, { collaboration_mode: 1, search_enabled: true, name: '未命名会话', title: null, processing: false });
});

test.serial('mode, search, title and name changes are kept per session', async (t) => {
  const user = await signUp(app.url, 'toggler');
  const { body } = await user.request('POST', '/backend/conversation/api/v2/research/create_session', { mode: 0, name: '我的会话' });
  const id = body.session_id;
  t.like(body, { collaboration_mode: 0, name: '我的会话' });
  t.like((await user.request('POST', '/backend/conversation/api/v2/research/set_mode', { session_id: id, mode: 1 })).body, { collaboration_mode: 1 });
  t.like((await user.request('POST', '/backend/conversation/api/v2/research/update_search_status', { session_id: id, search_enabled: false })).body, { search_enabled: false });
  t.like((await user.request('PUT', `/backend/conversation/api/v2/sessions/${id}/title`, { title: '新能源调研' })).body, { title: '新能源调研' });
  t.like((await user.request('POST', '/backend/conversation/api/v2/research/update_status', { session_id: id, status: 'archived' })).body, { status: 'archived' });
  const other = await user.request('POST', '/backend/conversation/api/v2/research/create_session', {});
  t.like(other.body, { collaboration_mode: 1, search_enabled: true });
});

test.serial('the general chat agent answers offline, labelled, and the history holds the same text', async (t) => {
  const user = await signUp(app.url, 'chatter');
  const { body } = await user.request('POST', '/backend/conversation/sessions', { client_id: 'client-1' });
  const sent = await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: body.session_id, text: '介绍一下事件溯源。' });
  t.is(sent.status, 200);
  t.is(sent.body.agent, 'poe_llm');
  await waitForReply(user, body.session_id);
  const history = await user.request('GET', `/backend/conversation/sessions/${body.session_id}/messages`);
  t.is(history.status, 200);
  const [question, reply] = history.body.messages;
  t.like(question, { role: 'user', message_id: sent.body.message_id });
  t.is(question.contents[0].content, '介绍一下事件溯源。');
  t.like(reply, { role: 'assistant', message_id: sent.body.reply_id, status: 'completed', agent: 'poe_llm' });
  const text = reply.contents.filter((item: any) => item.content_type === 'chat_chunk').map((item: any) => item.content).join('');
  t.true(text.includes('离线'), 'the offline engine says so');
  const session = await user.request('GET', `/backend/conversation/research/${body.session_id}`);
  t.is(session.body.title, '介绍一下事件溯源', 'titled after the first exchange');
  const chats = await user.request('GET', '/backend/conversation/api/chats/my');
  t.is(chats.body.chats[0].id, body.session_id);
  t.is(chats.body.chats[0].prompt, '介绍一下事件溯源。');
});

test.serial('blank and oversized messages are refused and append nothing', async (t) => {
  const user = await signUp(app.url, 'blank');
  const { body } = await user.request('POST', '/backend/conversation/sessions', {});
  const before = await app.services.events.headPosition();
  const blank = await user.request('POST', '/backend/conversation/api/v2/chat/send', { session_id: body.session_id, message: '  \n ' });
  t.is(blank.status, 422);
  const huge = await user.request('POST', '/backend/conversation/api/v2/chat/send', { session_id: body.session_id, message: '字'.repeat(20_001) });
  t.is(huge.status, 422);
  const wrongType = await user.request('POST', '/backend/conversation/api/v2/chat/send', { session_id: body.session_id, message: 42 });
  t.is(wrongType.status, 422);
  t.is(await app.services.events.headPosition(), before);
});

test.serial('another user’s session is a 404 on every route, and changes nothing', async (t) => {
  const owner = await signUp(app.url, 'owner');
  const intruder = await signUp(app.url, 'intruder');
  const { body } = await owner.request('POST', '/backend/conversation/sessions', {});
  const id = body.session_id;
  const before = await app.services.events.headPosition();
  const attempts: Array<[string, string, unknown?]> = [
    ['GET', `/backend/conversation/research/${id}`],
    ['GET', `/backend/conversation/research/${id}/status`],
    ['GET', `/backend/conversation/sessions/${id}/messages`],
    ['POST', '/backend/conversation/api/v2/chat/send', { session_id: id, message: 'hi' }],
    ['POST', '/backend/api/v2/chat/poe/start', { session_id: id, text: 'hi' }],
    ['POST', '/backend/conversation/api/v2/research/start', { session_id: id, message: 'hi' }],
    ['POST', '/backend/conversation/api/v2/research/set_mode', { session_id: id, mode: 0 }],
    ['POST', '/backend/conversation/api/v2/research/update_search_status', { session_id: id, search_enabled: false }],
    ['POST', '/backend/conversation/api/v2/research/update_status', { session_id: id, status: 'archived' }],
    ['PUT', `/backend/conversation/api/v2/sessions/${id}/title`, { title: 'x' }],
    ['POST', `/backend/conversation/research/${id}/pause`],
    ['POST', `/backend/conversation/research/${id}/resume`],
    ['POST', `/backend/conversation/sessions/${id}/dispatch`, { agent: 'deep_cognition', action: 'pause', params: {} }],
  ];
  for (const [method, path, payload] of attempts) {
    const response = await intruder.request(method, path, payload);
    t.is(response.status, 404, `${method} ${path}`);
  }
  t.is(await app.services.events.headPosition(), before);
  const unknown = await owner.request('GET', '/backend/conversation/research/00000000-0000-4000-8000-000000000000');
  t.is(unknown.status, 404);
  const malformed = await owner.request('GET', '/backend/conversation/research/not-a-uuid');
  t.is(malformed.status, 422);
});

test.serial('anonymous calls are 401', async (t) => {
  for (const [method, path] of [
    ['POST', '/backend/conversation/sessions'],
    ['GET', '/backend/conversation/api/chats/my'],
    ['GET', '/backend/conversation/api/models/available'],
  ] as const) {
    t.is((await client(app.url).request(method, path, method === 'POST' ? {} : undefined)).status, 401, path);
  }
});

test.serial('cloud history pages newest first with the spec’s defaults', async (t) => {
  const user = await signUp(app.url, 'historian');
  const ids: string[] = [];
  for (let index = 0; index < 3; index++) ids.push((await user.request('POST', '/backend/conversation/sessions', {})).body.session_id);
  const page = await user.request('GET', '/backend/conversation/api/chats/my?skip=1&limit=1');
  t.is(page.body.total, 3);
  t.deepEqual(page.body.chats.map((chat: any) => chat.id), [ids[1]]);
  const defaults = await user.request('GET', '/backend/conversation/api/chats/my');
  t.is(defaults.body.limit, 20);
  t.is(defaults.body.skip, 0);
  t.is((await user.request('GET', '/backend/conversation/api/chats/my?limit=0')).status, 422);
});

test.serial('models and query refinement answer offline', async (t) => {
  const user = await signUp(app.url, 'modeler');
  const models = await user.request('GET', '/backend/conversation/api/models/available');
  t.true(models.body.offline);
  t.is((await user.request('POST', '/backend/conversation/api/models/preferences', { model: models.body.current })).status, 200);
  t.is((await user.request('POST', '/backend/conversation/api/models/preferences', { model: 'no-such-model' })).status, 422);
  const refined = await user.request('POST', '/backend/conversation/api/v2/query/refine', { query: '  光伏   产业  ' });
  t.deepEqual(refined.body, { query: '光伏   产业', refined_query: '光伏 产业', offline: true });
});

test.serial('a targeted edit changes the occurrence at its offset, refuses a moved or stale selection, and stays in the history', async (t) => {
  const user = await signUp(app.url, `offset${Date.now().toString(36)}`);
  const id = await sessionWithReport(user);
  const v1 = (await user.request('GET', `/backend/conversation/research/${id}/canvas`)).body.versions[0];
  const twice = '固态电池的安全性更好。';
  const content = `${v1.content.trimEnd()}\n\n${twice}\n\n${twice}\n`;
  t.is((await user.request('PUT', `/backend/conversation/research/${id}/canvas`, { content, from_version: 1 })).status, 200);
  const edit = (body: Record<string, unknown>) => user.request('POST', `/backend/conversation/research/${id}/edit_request`, { text: '把“安全性”改为“热稳定性”', snippet: twice, ...body });

  t.is((await edit({ offset: content.lastIndexOf(twice), version: 1 })).status, 409, 'a selection made on an older version');
  t.is((await edit({ offset: content.lastIndexOf(twice) + 1, version: 2 })).status, 409, 'nothing equal at the offset');
  t.is((await edit({ request_id: 'edit-second', offset: content.lastIndexOf(twice), version: 2 })).status, 200);
  await eventually(async () => ((await user.request('GET', `/backend/conversation/research/${id}/canvas`)).body.versions.length >= 3 ? true : undefined), undefined, 'version 3');
  const v3 = (await user.request('GET', `/backend/conversation/research/${id}/canvas`)).body.versions.at(-1);
  t.is(v3.content, `${v1.content.trimEnd()}\n\n${twice}\n\n${twice.replace('安全性', '热稳定性')}\n`);

  await app.settle();
  const history = (await user.request('GET', `/backend/conversation/sessions/${id}/messages`)).body.messages.flatMap((message: { contents: Array<{ content_type: string }> }) => message.contents.map((item) => item.content_type));
  t.true(history.includes('canvas_saved'), 'the hand save');
  t.true(history.includes('targeted_edit_result'), 'the targeted edit');
});

import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import test from 'ava';
import { pino } from 'pino';
import { CONNECTIONS_STREAM } from '@scriptorium/domain/connections/connections';
import { connectionsDecider } from '@scriptorium/domain/connections/decide';
import { SecretBox } from '@scriptorium/infra/secrets/box';
import { client, signInAdmin, signUp, startTestApp } from '../support/app.ts';
import { startMockOpenAI } from '../support/mockOpenAI.ts';
import { startMockSearxng } from '../support/mockSearxng.ts';
import { eventually } from '../support/poll.ts';
import { replyEnded } from '../support/world.ts';

const KEY = 'sk-connections-test-SECRET-9f3a7c21';
const ADMIN = { ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password' };

/** Every line the product logs, at every level, kept to search for the key. */
function capturedLog() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { log: pino({ level: 'trace' }, sink), lines };
}

test('an administrator sets a model endpoint, tests it, and the next chat reply uses it without a restart; the key is in no response, log line or audit export', async (t) => {
  const upstream = await startMockOpenAI({ apiKey: KEY, reply: '来自新连接的回答。' });
  t.teardown(() => upstream.close());
  const { log, lines } = capturedLog();
  const app = await startTestApp(ADMIN, { log });
  t.teardown(() => app.stop());
  const root = await signInAdmin(app.url);
  const bodies: string[] = [];
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await root.request(method, path, body);
    bodies.push(JSON.stringify(response.body));
    return response;
  };

  const empty = await call('GET', '/backend/admin/connections');
  t.is(empty.status, 200);
  t.deepEqual(empty.body.models, []);
  t.deepEqual(empty.body.roles, ['default', 'planning', 'judging', 'summarising', 'writing']);

  const created = await call('POST', '/backend/admin/connections/models', { base_url: upstream.url, api_key: KEY, model: 'gpt-4o-mini', roles: ['default'], profile: { max_output_tokens: 2048 } });
  t.is(created.status, 201);
  const endpoint = created.body.models.find((candidate: { id: string }) => candidate.id === created.body.id);
  t.like(endpoint, {
    base_url: upstream.url,
    model: 'gpt-4o-mini',
    roles: ['default'],
    key: { set: true, readable: true, last4: '7c21' },
    profile: { max_output_tokens: 2048 },
    builtin_profile: { context_window: 128_000, max_output_tokens: 16_384, reasoning: 'none' },
    effective_profile: { context_window: 128_000, max_output_tokens: 2048 },
    last_test: null,
  });

  const tested = await call('POST', `/backend/admin/connections/models/${endpoint.id}/test`);
  t.is(tested.status, 200);
  t.like(tested.body, { ok: true, model: 'gpt-4o-mini', profile: { context_window: 128_000, max_output_tokens: 2048 } });
  t.true(Number.isInteger(tested.body.latency_ms) && tested.body.latency_ms >= 0);
  t.is(upstream.requests.length, 1);
  t.is(upstream.requests[0]!.headers.authorization, `Bearer ${KEY}`);
  t.is(upstream.requests[0]!.body.max_tokens, 1, 'the test asks for one token');
  const listed = await call('GET', '/backend/admin/connections');
  t.like(listed.body.models[0].last_test, { ok: true, latency_ms: tested.body.latency_ms });

  const user = await signUp(app.url, 'reader');
  const session = (await user.request('POST', '/backend/conversation/sessions', { client_id: 'connections' })).body.session_id as string;
  const sent = await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: session, text: '你好' });
  t.is(sent.status, 200);
  await replyEnded(user, session);
  t.true(upstream.requests.length >= 2, 'the reply went to the endpoint just configured');
  t.true(upstream.requests.slice(1).some((request) => request.body.messages?.some((message) => message.content.includes('你好'))));
  const history = await user.request('GET', `/backend/conversation/sessions/${session}/messages`);
  const reply = history.body.messages.find((message: { message_id: string }) => message.message_id === sent.body.reply_id);
  t.is(reply.contents.filter((item: { content_type: string }) => item.content_type === 'chat_chunk').map((item: { content: string }) => item.content).join(''), '来自新连接的回答。');

  // A change without a key keeps the saved one; the next reply goes to the changed model.
  const changed = await call('PUT', `/backend/admin/connections/models/${endpoint.id}`, { base_url: upstream.url, model: 'gpt-4.1-mini', roles: ['default'] });
  t.is(changed.status, 200);
  t.like(changed.body.models[0], { model: 'gpt-4.1-mini', key: { set: true, last4: '7c21' } });
  const again = await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: session, text: '再说一次' });
  t.is(again.status, 200);
  const last = await eventually(() => upstream.requests.find((request) => request.body.messages?.some((message) => message.content.includes('再说一次'))), 30_000, 'the second reply’s request');
  t.is(last.body.model, 'gpt-4.1-mini');
  t.is(last.headers.authorization, `Bearer ${KEY}`);
  await replyEnded(user, session);

  const exported = await root.request('GET', '/backend/audit/streams/connections-deployment/export.jsonl');
  t.is(exported.status, 200);
  const events = String(exported.body).trim().split('\n').map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });
  t.deepEqual(events.map((event) => event.type), ['ModelEndpointConfigured', 'ConnectionTested', 'ModelEndpointChanged']);
  t.is(events[2]!.data.encryptedKey, '[redacted]');
  t.is(events[0]!.data.encryptedKey, '[redacted]');
  t.like(events[1]!.data, { target: 'model', endpointId: endpoint.id, ok: true });
  const viewed = await call('GET', '/backend/audit/streams/connections-deployment/events?limit=10');
  t.is(viewed.status, 200);
  t.is(viewed.body.events[0].data.encryptedKey, '[redacted]', 'the audit view redacts the sealed key too');

  for (const [what, texts] of [['responses', bodies], ['log lines', lines], ['the audit export', [String(exported.body)]]] as const) {
    t.false(texts.some((text) => text.includes(KEY) || text.includes('SECRET-9f3a')), `the key appears in none of ${what}`);
  }
  t.true(lines.some((line) => line.includes('connection tested')), 'the log was captured');
});

test('bad connections are refused with their codes and change nothing; non-administrators are refused', async (t) => {
  const app = await startTestApp(ADMIN);
  t.teardown(() => app.stop());
  const root = await signInAdmin(app.url);
  const first = await root.request('POST', '/backend/admin/connections/models', { base_url: 'http://127.0.0.1:9/v1', model: 'writer', roles: ['writing'] });
  t.is(first.status, 201);
  const before = (await root.request('GET', '/backend/admin/connections')).body.revision;

  const refusals: Array<[unknown, number, string]> = [
    [{ base_url: 'ftp://x', model: 'm', roles: ['default'] }, 422, 'connections.url_invalid'],
    [{ base_url: 'http://x', model: 'm', roles: ['dreaming'] }, 422, 'connections.role_unknown'],
    [{ base_url: 'http://x', model: 'm', roles: ['writing'] }, 409, 'connections.role_taken'],
    [{ base_url: 'http://x', model: ' ', roles: ['default'] }, 422, 'connections.model_required'],
    [{ base_url: 'http://x', model: 'm', roles: ['default'], profile: { max_output_tokens: 1 } }, 422, 'connections.profile_invalid'],
  ];
  for (const [body, status, code] of refusals) {
    const refused = await root.request('POST', '/backend/admin/connections/models', body);
    t.is(refused.status, status, code);
    t.is(refused.body.code, code);
  }
  const english = await root.request('PUT', '/backend/admin/connections/smtp', { url: 'http://mail', from: 'a@b.c' }, { headers: { 'accept-language': 'en' } });
  t.is(english.body.code, 'connections.smtp_url_invalid');
  t.is((await root.request('POST', '/backend/admin/connections/search/test')).body.code, 'connections.not_set');
  t.is((await root.request('POST', '/backend/admin/connections/models/nope/test')).status, 404);
  t.is((await root.request('GET', '/backend/admin/connections')).body.revision, before, 'nothing was appended');

  // A key sealed under another CONNECTIONS_KEY (the key was changed): shown as unreadable, its test refused.
  await app.services.commands.handle(connectionsDecider, CONNECTIONS_STREAM, {
    type: 'ConfigureModelEndpoint',
    data: { id: 'foreign', baseUrl: 'http://127.0.0.1:9/v1', model: 'old', profile: {}, roles: ['default'], encryptedKey: new SecretBox(randomBytes(32)).seal('sk-old-key-123456'), by: 'admin' },
    metadata: { now: new Date() },
  });
  const foreign = (await root.request('GET', '/backend/admin/connections')).body.models.find((endpoint: { id: string }) => endpoint.id === 'foreign');
  t.deepEqual(foreign.key, { set: true, readable: false, last4: null });
  const unreadable = await root.request('POST', '/backend/admin/connections/models/foreign/test');
  t.like(unreadable, { status: 409, body: { code: 'connections.key_unreadable' } });

  const user = await signUp(app.url, 'curious');
  t.is((await user.request('GET', '/backend/admin/connections')).status, 403);
  t.is((await user.request('POST', '/backend/admin/connections/models', { base_url: 'http://x', model: 'm', roles: ['default'] })).status, 403);
  t.is((await user.request('PUT', '/backend/admin/connections/search', { url: 'http://x' })).status, 403);
  t.is((await client(app.url).request('GET', '/backend/admin/connections')).status, 401);
});

test('the environment seeds the connections once; search, SMTP and speech are set, tested and cleared live', async (t) => {
  const searxng = await startMockSearxng();
  t.teardown(() => searxng.close());
  const app = await startTestApp({ ...ADMIN, SEARCH_URL: searxng.url, SMTP_URL: 'smtp://mailer:mail-SECRET-pw@127.0.0.1:9', ASR_BASE_URL: 'http://127.0.0.1:9/v1', ASR_API_KEY: 'asr-SECRET-key-123456' });
  t.teardown(() => app.stop());
  const root = await signInAdmin(app.url);
  const seeded = await root.request('GET', '/backend/admin/connections');
  t.like(seeded.body, {
    search: { url: searxng.url },
    smtp: { url: 'smtp://mailer@127.0.0.1:9', password: { set: true, readable: true }, from: 'Scriptorium <no-reply@scriptorium.local>' },
    speech: { base_url: 'http://127.0.0.1:9/v1', model: 'whisper-1', key: { set: true, last4: '3456' } },
  });
  t.false(JSON.stringify(seeded.body).includes('SECRET'));
  t.is(app.services.mailer.transport, 'smtp');
  t.true(app.services.webSearch.available);

  const searched = await root.request('POST', '/backend/admin/connections/search/test');
  t.like(searched.body, { ok: true });
  const smtpTest = await root.request('POST', '/backend/admin/connections/smtp/test');
  t.like(smtpTest.body, { ok: false });
  t.false(JSON.stringify(smtpTest.body).includes('SECRET'));

  t.is((await root.request('DELETE', '/backend/admin/connections/smtp')).status, 200);
  t.is(app.services.mailer.transport, 'outbox', 'mail goes to the outbox at once');
  t.is((await root.request('DELETE', '/backend/admin/connections/search')).status, 200);
  t.false(app.services.webSearch.available);
  const user = await signUp(app.url, 'listener');
  t.like((await user.request('GET', '/backend/conversation/api/v2/asr/status')).body, { configured: true });
  await root.request('DELETE', '/backend/admin/connections/speech');
  t.like((await user.request('GET', '/backend/conversation/api/v2/asr/status')).body, { configured: false });
});

/**
 * History paging (`GET …/sessions/{id}/messages?limit=N&before=<cursor>` and the shared view's read)
 * and the compression of JSON responses.
 */
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import test from 'ava';
import { client, signUp, startTestApp, type TestApp } from '../support/app.ts';
import { appendExchanges } from '../support/research.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.stop();
});

const EXCHANGES = 23;

/** A session of 23 finished exchanges; its message ids in order. */
async function longSession(name: string) {
  const user = await signUp(app.url, name);
  const sessionId = (await user.request('POST', '/backend/conversation/sessions', { client_id: 'history' })).body.session_id as string;
  const ids = await appendExchanges(app.services.events, sessionId, EXCHANGES, (index) => `第 ${index + 1} 个回答。`);
  await app.settle();
  return { user, sessionId, ids };
}

type Page = { status: number; body: { messages: Array<{ message_id: string; role: string }>; earlier?: string | null; position: number } };

test.serial('a cursor walk from the newest page returns every exchange once, in order, and the whole read is unchanged', async (t) => {
  const { user, sessionId, ids } = await longSession('pager');
  const path = `/backend/conversation/sessions/${sessionId}/messages`;
  const whole = await user.request('GET', path);
  t.is(whole.status, 200);
  t.deepEqual(Object.keys(whole.body).sort(), ['messages', 'position', 'session_id'], 'without limit or before: the spec’s response, no cursor');
  t.deepEqual(
    whole.body.messages.map((message: { message_id: string }) => message.message_id),
    ids,
  );

  const pages: Page['body'][] = [];
  let before: string | null | undefined;
  do {
    const page: Page = await user.request('GET', `${path}?limit=5${before ? `&before=${encodeURIComponent(before)}` : ''}`);
    t.is(page.status, 200);
    pages.push(page.body);
    before = page.body.earlier;
  } while (before);
  t.is(pages.length, 5, '23 exchanges in pages of 5');
  t.deepEqual(
    pages.map((page) => page.messages.filter((message) => message.role === 'user').length),
    [5, 5, 5, 5, 3],
  );
  t.true(pages.every((page) => page.messages[0]!.role === 'user' && page.messages.length % 2 === 0), 'a page holds whole exchanges');
  t.deepEqual(
    pages.reverse().flatMap((page) => page.messages.map((message) => message.message_id)),
    ids,
    'oldest page first, every message once, in order',
  );
  t.is(pages.at(-1)!.position, whole.body.position, 'the newest page stands where the whole read does');
  t.is(pages[0]!.earlier, null);

  const newest = await user.request('GET', `${path}?limit=100`);
  t.deepEqual(newest.body.messages, whole.body.messages);
  t.is(newest.body.earlier, null);
  const defaulted: Page = await user.request('GET', `${path}?before=${encodeURIComponent(pages.at(-1)!.earlier!)}`);
  t.is(defaulted.body.messages.filter((message) => message.role === 'user').length, 18, 'only before: 20 exchanges at most');
});

test.serial('bad limits and cursors are coded 422s', async (t) => {
  const { user, sessionId } = await longSession('badcursor');
  const path = `/backend/conversation/sessions/${sessionId}/messages`;
  const cases: Array<[string, string]> = [
    ['before=nonsense', 'conversation.history_cursor_invalid'],
    [`before=${Buffer.from('h1:-4').toString('base64url')}`, 'conversation.history_cursor_invalid'],
    [`before=${Buffer.from('h1:12').toString('base64')}==`, 'conversation.history_cursor_invalid'],
    ['before=', 'conversation.history_cursor_invalid'],
    ['limit=0', 'paging.limit_too_small'],
    ['limit=101', 'paging.limit_too_large'],
    ['limit=2.5', 'paging.limit_integer'],
    ['limit=many', 'paging.limit_integer'],
  ];
  for (const [query, code] of cases) {
    const answer = await user.request('GET', `${path}?${query}`);
    t.is(answer.status, 422, query);
    t.is(answer.body.code, 'validation.failed', query);
    t.is(answer.body.detail[0].code, code, query);
    t.deepEqual(answer.body.detail[0].loc, ['query', query.startsWith('limit') ? 'limit' : 'before'], query);
  }
});

test.serial('another user’s session is a 404 with paging too', async (t) => {
  const { sessionId } = await longSession('pageowner');
  const intruder = await signUp(app.url, 'pageintruder');
  const path = `/backend/conversation/sessions/${sessionId}/messages`;
  t.is((await intruder.request('GET', path)).status, 404);
  t.is((await intruder.request('GET', `${path}?limit=5`)).status, 404);
  t.is((await intruder.request('GET', `${path}?limit=5&before=${Buffer.from('h1:3').toString('base64url')}`)).status, 404);
});

test.serial('a shared conversation pages the same way', async (t) => {
  const { user, sessionId, ids } = await longSession('sharepager');
  const shareId = (await user.request('POST', '/backend/conversation/sessions/share', { session_id: sessionId, title: '长对话', description: '', expires_days: null })).body.share_id as string;
  const visitor = client(app.url);
  const whole = await visitor.request('GET', `/backend/conversation/share/${shareId}`);
  t.is(whole.status, 200);
  t.false('earlier' in whole.body);
  const seen: string[][] = [];
  let before: string | null | undefined;
  do {
    const page = await visitor.request('GET', `/backend/conversation/share/${shareId}?limit=10${before ? `&before=${before}` : ''}`);
    t.is(page.status, 200);
    seen.unshift(page.body.messages.map((message: { message_id: string }) => message.message_id));
    before = page.body.earlier;
  } while (before);
  t.deepEqual(seen.flat(), ids);
  t.deepEqual(
    seen.map((page) => page.length),
    [6, 20, 20],
  );
  t.is((await visitor.request('GET', `/backend/conversation/share/${shareId}?before=x`)).status, 422);
});

/** A raw GET that does not decode the body, so what went over the wire can be checked. */
function rawGet(path: string, headers: Record<string, string>): Promise<{ headers: Record<string, string | string[] | undefined>; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${app.url}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, bytes: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

test.serial('JSON of 1 KB or more is compressed as the request accepts, smaller JSON is not', async (t) => {
  const { user, sessionId } = await longSession('squeezer');
  const auth = { authorization: `Bearer ${user.token}` };
  const path = `/backend/conversation/sessions/${sessionId}/messages`;
  const plain = await rawGet(path, auth);
  t.is(plain.headers['content-encoding'], undefined, 'no Accept-Encoding: identity');
  t.true(plain.bytes.length >= 1024);
  const expected = JSON.parse(plain.bytes.toString('utf8'));

  const brotli = await rawGet(path, { ...auth, 'accept-encoding': 'gzip, deflate, br' });
  t.is(brotli.headers['content-encoding'], 'br');
  t.regex(String(brotli.headers.vary), /Accept-Encoding/i);
  t.true(brotli.bytes.length < plain.bytes.length);
  t.deepEqual(JSON.parse(brotliDecompressSync(brotli.bytes).toString('utf8')), expected);

  const gzip = await rawGet(path, { ...auth, 'accept-encoding': 'gzip' });
  t.is(gzip.headers['content-encoding'], 'gzip');
  t.deepEqual(JSON.parse(gunzipSync(gzip.bytes).toString('utf8')), expected);

  const small = await rawGet(`/backend/conversation/research/${sessionId}/status`, { ...auth, 'accept-encoding': 'gzip, br' });
  t.true(small.bytes.length < 1024);
  t.is(small.headers['content-encoding'], undefined, 'under 1 KB: sent as it is');
  t.truthy(JSON.parse(small.bytes.toString('utf8')).session_id);
});

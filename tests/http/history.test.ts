/**
 * History paging (`GET …/sessions/{id}/messages?limit=N&before=<cursor>` and the shared view's read)
 * and the compression of JSON responses; the owner's pages kept compressed (`HistoryPages`).
 */
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import test from 'ava';
import jwt from 'jsonwebtoken';
import { conversationStream } from '@scriptorium/domain/conversation/conversation';
import { HistoryPages } from '@scriptorium/backend/http/historyCache';
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
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${app.url}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, bytes: Buffer.concat(chunks) }));
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

/** Counts the cache's lookups, and those it answered, while `during` runs. */
async function cacheLookups(during: () => Promise<void>): Promise<{ lookups: number; hits: number }> {
  const get = HistoryPages.prototype.get;
  const counted = { lookups: 0, hits: 0 };
  HistoryPages.prototype.get = function (this: HistoryPages, ...args: Parameters<typeof get>) {
    const found = get.apply(this, args);
    counted.lookups += 1;
    if (found) counted.hits += 1;
    return found;
  };
  try {
    await during();
  } finally {
    HistoryPages.prototype.get = get;
  }
  return counted;
}

const decoded = (answer: { headers: Record<string, string | string[] | undefined>; bytes: Buffer }) =>
  JSON.parse((answer.headers['content-encoding'] === 'br' ? brotliDecompressSync(answer.bytes) : answer.bytes).toString('utf8')) as { position: number; messages: Array<{ message_id: string; contents: Array<{ content?: string }> }> };

test.serial('a kept page is the same bytes until the session changes: a new exchange, or a change to an earlier message, is in the next read', async (t) => {
  const { user, sessionId, ids } = await longSession('keeper');
  const auth = { authorization: `Bearer ${user.token}`, 'accept-encoding': 'br' };
  const path = `/backend/conversation/sessions/${sessionId}/messages`;
  const first = await rawGet(`${path}?limit=5`, auth);
  let again = first;
  t.deepEqual(await cacheLookups(async () => void (again = await rawGet(`${path}?limit=5`, auth))), { lookups: 1, hits: 1 });
  t.is(again.headers['content-encoding'], 'br');
  t.deepEqual(again.bytes, first.bytes);
  const whole = decoded(await rawGet(path, auth));

  const [added] = await appendExchanges(app.services.events, sessionId, 1, () => '新的回答。');
  await app.settle();
  let changed = first;
  t.deepEqual(await cacheLookups(async () => void (changed = await rawGet(`${path}?limit=5`, auth))), { lookups: 2, hits: 0 }, 'the new exchange moved the version (asked in front of koa, then by koa’s route)');
  const newest = decoded(changed);
  t.is(newest.messages.at(-2)!.message_id, added!);
  t.true(newest.position > decoded(first).position);

  await app.services.events.appendToStream(conversationStream(sessionId), [
    { type: 'MessageChunksAppended', data: { sessionId, messageId: ids[1]!, agent: 'poe_llm', contentType: 'chat_chunk', seq: 1, text: '补充一句。' }, metadata: { at: new Date().toISOString() } },
  ]);
  await app.settle();
  const rewritten = decoded(await rawGet(path, auth));
  t.is(rewritten.messages.length, whole.messages.length + 2);
  t.true(JSON.stringify(rewritten.messages[1]).includes('补充一句。'), 'the first reply, far from the newest page, as it now reads');
  t.false(JSON.stringify(whole.messages[1]).includes('补充一句。'));
});

test.serial('the cache is asked only once the reader owns the session: another user is refused before any lookup', async (t) => {
  const { user, sessionId } = await longSession('cacheowner');
  const intruder = await signUp(app.url, 'cacheintruder');
  const path = `/backend/conversation/sessions/${sessionId}/messages?limit=5`;
  t.is((await rawGet(path, { authorization: `Bearer ${user.token}`, 'accept-encoding': 'br' })).headers['content-encoding'], 'br', 'the owner’s read keeps the page');
  const kept = await cacheLookups(async () => {
    t.is((await rawGet(path, { authorization: `Bearer ${user.token}`, 'accept-encoding': 'br' })).headers['content-encoding'], 'br');
  });
  t.deepEqual(kept, { lookups: 1, hits: 1 });
  const refused = await cacheLookups(async () => {
    const answer = await rawGet(path, { authorization: `Bearer ${intruder.token}`, 'accept-encoding': 'br' });
    t.is(answer.headers['content-encoding'], undefined);
    t.is(JSON.parse(answer.bytes.toString('utf8')).code, 'conversation.not_found');
    t.is((await client(app.url).request('GET', path)).status, 401);
  });
  t.deepEqual(refused, { lookups: 0, hits: 0 });
});

test('a kept page is used only at the version it was stored under, and the least recently used go first past the bound', (t) => {
  const pages = new HistoryPages(3000);
  const json = (size: number) => ({ bytes: Buffer.alloc(size), encoding: 'br' as const });
  pages.set('a', '1:1', json(1000));
  t.truthy(pages.get('a', '1:1'));
  t.is(pages.get('a', '1:2'), undefined);
  t.is(pages.get('a', '2:1'), undefined);
  pages.set('b', '1:1', json(1000));
  pages.set('c', '1:1', json(1000));
  t.truthy(pages.get('a', '1:1'), 'a read makes it the most recent');
  pages.set('d', '1:1', json(1000));
  t.is(pages.get('b', '1:1'), undefined, 'the least recently used went');
  t.truthy(pages.get('a', '1:1'));
  pages.set('a', '1:2', json(500));
  t.is(pages.get('a', '1:1'), undefined, 'a newer version replaces the entry');
  pages.set('e', '1:1', json(4000));
  t.is(pages.get('e', '1:1'), undefined, 'larger than the bound: not kept');
});

test.serial('a shared page is kept until the session, its messages or its canvas change, and a revoked link is refused before any lookup', async (t) => {
  const { user, sessionId } = await longSession('sharekeeper');
  const shareId = (await user.request('POST', '/backend/conversation/sessions/share', { session_id: sessionId, title: '长对话', description: '', expires_days: null })).body.share_id as string;
  const path = `/backend/conversation/share/${shareId}?limit=5`;
  const visitor = { 'accept-encoding': 'br' };
  const first = await rawGet(path, visitor);
  let again = first;
  t.deepEqual(await cacheLookups(async () => void (again = await rawGet(path, visitor))), { lookups: 1, hits: 1 });
  t.is(again.headers['content-encoding'], 'br');
  t.deepEqual(again.bytes, first.bytes);

  await appendExchanges(app.services.events, sessionId, 1, () => '分享后的新回答。');
  await app.settle();
  let changed = first;
  t.deepEqual(await cacheLookups(async () => void (changed = await rawGet(path, visitor))), { lookups: 1, hits: 0 }, 'the new exchange moved the version');
  t.true(changed.bytes.toString('latin1') !== first.bytes.toString('latin1'));
  t.true(JSON.stringify(decoded(changed)).includes('分享后的新回答。'));

  await app.services.events.appendToStream(conversationStream(sessionId), [
    { type: 'CanvasEdited', data: { sessionId, artifactId: 'sharecanvas', fromVersion: 0, version: 1, title: '报告', content: '分享后写下的报告。', at: new Date().toISOString() }, metadata: { at: new Date().toISOString() } },
  ]);
  await app.settle();
  let drawn = first;
  t.deepEqual(await cacheLookups(async () => void (drawn = await rawGet(path, visitor))), { lookups: 1, hits: 0 }, 'the canvas moved the version');
  t.true(JSON.stringify(JSON.parse(brotliDecompressSync(drawn.bytes).toString('utf8')).canvas).includes('分享后写下的报告。'));

  t.is((await user.request('DELETE', `/backend/conversation/share/${shareId}`)).status, 200);
  const refused = await cacheLookups(async () => {
    const answer = await rawGet(path, visitor);
    t.is(JSON.parse(answer.bytes.toString('utf8')).code, 'share.gone');
  });
  t.deepEqual(refused, { lookups: 0, hits: 0 });
});

/** While `during` runs, how many requests the answer before koa (`fastHistory.ts`) handed on to koa. */
async function handedToKoa(during: () => Promise<void>): Promise<number> {
  const front = app.api.koa.front!;
  let handed = 0;
  app.api.koa.front = (req, res, koa) =>
    front(req, res, (...args) => {
      handed += 1;
      return koa(...args);
    });
  try {
    await during();
  } finally {
    app.api.koa.front = front;
  }
  return handed;
}

/** The request through koa's middleware alone, as every request went before the answer in front of it. */
async function throughKoa(path: string, headers: Record<string, string>) {
  const front = app.api.koa.front;
  app.api.koa.front = undefined;
  try {
    return await rawGet(path, headers);
  } finally {
    app.api.koa.front = front;
  }
}

/** What must be the same whichever path answers: all but the request's own id and the time. */
const comparable = ({ status, headers, bytes }: Awaited<ReturnType<typeof rawGet>>) => {
  const { date: _date, 'x-request-id': requestId, ...rest } = headers;
  return { status, headers: { ...rest, 'x-request-id': requestId === undefined ? 'missing' : 'present' }, bytes: bytes.toString('base64') };
};

/** Reads `path` once through the product's server and once through koa alone; the first's hand-offs to koa. */
async function bothPaths(path: string, headers: Record<string, string>) {
  let front: Awaited<ReturnType<typeof rawGet>> | undefined;
  const handed = await handedToKoa(async () => void (front = await rawGet(path, headers)));
  return { front: comparable(front!), koa: comparable(await throughKoa(path, headers)), handed };
}

test.serial('a kept page is answered before koa with the status, headers and bytes koa answers; a page not kept goes to koa', async (t) => {
  const { user, sessionId } = await longSession('fastpath');
  const path = `/backend/conversation/sessions/${sessionId}/messages?limit=5`;
  for (const encoding of ['br', 'gzip', 'identity']) {
    const auth = { authorization: `Bearer ${user.token}`, 'accept-encoding': encoding };
    t.is(await handedToKoa(async () => void (await rawGet(path, auth))), 1, `${encoding}: the first read is koa's, and keeps the page`);
    const hit = await bothPaths(path, auth);
    t.is(hit.handed, 0, `${encoding}: the kept page is answered in front of koa`);
    t.is(hit.front.status, 200);
    t.deepEqual(hit.front, hit.koa, encoding);
  }
  let echoed: Awaited<ReturnType<typeof rawGet>> | undefined;
  t.is(await handedToKoa(async () => void (echoed = await rawGet(path, { authorization: `Bearer ${user.token}`, 'x-request-id': 'mine' }))), 0);
  t.is(echoed!.headers['x-request-id'], 'mine', 'the caller’s request id is echoed, as koa echoes it');

  await appendExchanges(app.services.events, sessionId, 1, () => '又一个回答。');
  await app.settle();
  const auth = { authorization: `Bearer ${user.token}`, 'accept-encoding': 'br' };
  let moved: Awaited<ReturnType<typeof rawGet>> | undefined;
  t.is(await handedToKoa(async () => void (moved = await rawGet(path, auth))), 1, 'a page out of date goes to koa');
  t.deepEqual(comparable(moved!), comparable(await throughKoa(path, auth)), 'koa read it afresh and kept it');
});

test.serial('every refusal of a kept page goes to koa and is koa’s: no token, an expired or revoked token, another user, a session that does not exist', async (t) => {
  const { user, sessionId } = await longSession('fastrefused');
  const intruder = await signUp(app.url, 'fastintruder');
  const path = `/backend/conversation/sessions/${sessionId}/messages?limit=5`;
  const warm = { authorization: `Bearer ${user.token}`, 'accept-encoding': 'br' };
  await rawGet(path, warm);
  t.is((await bothPaths(path, warm)).handed, 0, 'the page is kept');

  const expired = jwt.sign({ typ: 'access', exp: Math.floor(Date.now() / 1000) - 5 }, app.services.config.JWT_SECRET, { algorithm: 'HS256', subject: user.userId });
  const refusals: Array<[string, string, Record<string, string>, number]> = [
    ['no token', path, { 'accept-encoding': 'br' }, 401],
    ['an expired token', path, { authorization: `Bearer ${expired}`, 'accept-encoding': 'br' }, 401],
    ['another user', path, { authorization: `Bearer ${intruder.token}`, 'accept-encoding': 'br' }, 404],
    ['a session that does not exist', `/backend/conversation/sessions/${sessionId.replace(/.$/, (last) => (last === '0' ? '1' : '0'))}/messages?limit=5`, warm, 404],
  ];
  for (const [what, target, headers, status] of refusals) {
    const answer = await bothPaths(target, headers);
    t.is(answer.handed, 1, `${what}: handed to koa`);
    t.is(answer.front.status, status, what);
    t.deepEqual(answer.front, answer.koa, what);
  }

  // Revoked by logging out: refused from the next read on, though the page is still kept.
  t.is((await user.request('POST', '/backend/auth/logout')).status, 200);
  const revoked = await bothPaths(path, warm);
  t.is(revoked.handed, 1);
  t.is(revoked.front.status, 401);
  t.deepEqual(revoked.front, revoked.koa);
});

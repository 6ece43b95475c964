/**
 * Load on loopback against the product as `npm start` runs it (its own process, embedded adapters,
 * a mock OpenAI-compatible model), each figure beside a baseline taken in the same run:
 * - history reads/s and their p99 (autocannon, `GET …/sessions/:id/messages?limit=20` with a token
 *   and `Accept-Encoding: br, gzip`, as the chat opens a 300-exchange conversation), beside a bare
 *   Node server (its own process) sending the same bytes with the same content headers at the same
 *   concurrency (target ≥ 0.5×); the whole unpaged history beside its own bare server, for scale;
 * - 50 research replies started at once on the mock model: how long until all end, and how many did
 *   not complete (target: none);
 * - 60 sign-ins at once (argon2id each) while history reads go on: the reads' p99 during the burst
 *   beside their p99 before it (sign-ins must not starve other requests);
 * - the server's resident memory before and after.
 * It asserts only correctness (every reply completed, every read answered 200).
 * Run: npx tsx tests/bench/load.ts
 */
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { client, signUp, type Client } from '../support/app.ts';
import { startMockOpenAI } from '../support/mockOpenAI.ts';
import { passwordCostEnv, startProduct, type Product } from '../support/product.ts';
import { owned } from '../support/children.ts';
import { appendExchanges } from '../support/research.ts';
import { DEFAULT_PASSWORD_COST } from '@scriptorium/infra/auth/passwordCost';
import { loadConfig } from '@scriptorium/infra/config/config';
import { createLogger } from '@scriptorium/infra/log';
import { closeServices, createServices } from '@scriptorium/backend/services';
import { sized } from './short.ts';

const READ_CONNECTIONS = 20;
const READ_SECONDS = sized(8, 1);
const CONCURRENT_REPLIES = sized(50, 4);
const PARALLEL_SIGN_INS = sized(60, 4);
const REPLY_TIMEOUT_MS = 180_000;
/** The conversation the issue measured: 300 exchanges, about 411 KB of JSON read whole. */
const HISTORY_EXCHANGES = sized(300, 40);
const HISTORY_PAGE = 20;
const HISTORY_REPLY = '读模型从事件日志重建，每个角色都可以独立扩展。'.repeat(18);
/** What a browser sends. */
const ACCEPT_ENCODING = 'br, gzip';

/** A bare Node server in a process of its own, answering every request with `body` and `headers`: the most any server could do with these bytes. */
const BARE_SERVER = `
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
const body = readFileSync(process.env.BARE_BODY);
const headers = { ...JSON.parse(process.env.BARE_HEADERS), 'content-length': body.length };
const server = createServer((request, response) => { response.writeHead(200, headers); response.end(body); });
server.listen(0, '127.0.0.1', () => console.log('listening ' + server.address().port));
`;

async function startBare(dir: string, name: string, body: Buffer, headers: Record<string, string>): Promise<{ url: string; stop(): Promise<void> }> {
  const file = join(dir, `${name}.body`);
  writeFileSync(file, body);
  const child = owned(spawn(process.execPath, ['--input-type=module', '--eval', BARE_SERVER], { env: { ...process.env, BARE_BODY: file, BARE_HEADERS: JSON.stringify(headers) }, stdio: ['ignore', 'pipe', 'inherit'] }));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve(match[1]!);
    });
    void exited.then(() => reject(new Error('the bare server exited before listening')));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One response as it went over the wire: its body undecoded, and the headers that say what it is. */
function wireBytes(url: string, headers: Record<string, string>): Promise<{ body: Buffer; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        if (response.statusCode !== 200) return reject(new Error(`${url}: ${response.statusCode}`));
        const content = Object.fromEntries(['content-type', 'content-encoding', 'vary'].flatMap((name) => (response.headers[name] ? [[name, String(response.headers[name])]] : [])));
        resolve({ body: Buffer.concat(chunks), headers: content });
      });
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** Appends a long conversation to the log of a stopped product, as its agents would have recorded it. */
async function seedConversation(dataDir: string, sessionId: string): Promise<void> {
  const services = await createServices(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), createLogger('silent', 'bench'));
  try {
    await appendExchanges(services.events, sessionId, HISTORY_EXCHANGES, (index) => `第 ${index + 1} 个回答：${HISTORY_REPLY}`);
  } finally {
    await closeServices(services);
  }
}

/** The paged read (and the whole one) of a 300-exchange conversation, each beside a bare server sending its bytes. */
async function historyReads(dataDir: string, env: Record<string, string>): Promise<void> {
  const first = await startProduct(dataDir, env);
  const name = `reader${randomUUID().slice(0, 6)}`;
  let sessionId: string;
  try {
    const reader = await signUp(first.url, name);
    sessionId = (await reader.request('POST', '/backend/conversation/api/v2/research/create_session', { mode: 0 })).body.session_id as string;
  } finally {
    first.child.kill('SIGTERM');
    await first.exited;
  }
  await seedConversation(dataDir, sessionId);
  // Ready only once every read model has caught up with the seeded log: nothing else runs while it is measured.
  const product = await startProduct(dataDir, { ...env, READY_MAX_LAG_SECONDS: '0' });
  try {
    const login = await client(product.url).request('POST', '/backend/auth/login', { username: name, password: 'correct horse battery' }, { form: true });
    const reader = client(product.url, login.body.access_token as string);
    const path = `/backend/conversation/sessions/${sessionId}/messages`;
    const whole = `${product.url}${path}`;
    await until(async () => (await reader.request('GET', path)).body.messages?.length === HISTORY_EXCHANGES * 2, REPLY_TIMEOUT_MS);
    await until(async () => (await client(product.url).request('GET', '/readyz')).status === 200, REPLY_TIMEOUT_MS);
    const paged = `${whole}?limit=${HISTORY_PAGE}`;
    const auth = { authorization: `Bearer ${reader.token}`, 'accept-encoding': ACCEPT_ENCODING };
    for (const [label, url, target] of [
      [`newest ${HISTORY_PAGE} of ${HISTORY_EXCHANGES} exchanges (paged, as the chat opens)`, paged, ' (target ≥ 0.5×)'],
      [`all ${HISTORY_EXCHANGES} exchanges (unpaged, for scale)`, whole, ''],
    ] as const) {
      const sent = await wireBytes(url, auth);
      const plain = await wireBytes(url, { authorization: auth.authorization });
      const bare = await startBare(dataDir, label.split(' ')[0]!, sent.body, sent.headers);
      try {
        const baseline = await hammer(bare.url, undefined, READ_SECONDS, { 'accept-encoding': ACCEPT_ENCODING });
        const reads = await hammer(url, reader.token, READ_SECONDS, { 'accept-encoding': ACCEPT_ENCODING });
        if (reads.failed > 0) throw new Error(`${reads.failed} history reads failed`);
        console.log(
          `history reads, ${label}: ${reads.perSecond}/s, p99 ${reads.p99} ms; bare Node server, same ${sent.body.length.toLocaleString('en-US')} bytes (${sent.headers['content-encoding'] ?? 'identity'}; ${plain.body.length.toLocaleString('en-US')} uncompressed): ${baseline.perSecond}/s, p99 ${baseline.p99} ms; ratio ${(reads.perSecond / baseline.perSecond).toFixed(2)}×${target}`,
        );
      } finally {
        await bare.stop();
      }
    }
  } finally {
    product.child.kill('SIGTERM');
    await product.exited;
  }
}

const rssMb = (product: Product): number => {
  const status = readFileSync(`/proc/${product.child.pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
};

async function hammer(url: string, token: string | undefined, seconds = READ_SECONDS, headers: Record<string, string> = {}): Promise<{ perSecond: number; p99: number; failed: number }> {
  const result = await autocannon({ url, connections: READ_CONNECTIONS, duration: seconds, headers: { ...headers, ...(token && { authorization: `Bearer ${token}` }) } });
  return { perSecond: Math.round(result.requests.average), p99: result.latency.p99, failed: result.non2xx + result.errors };
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-load-'));
  const mock = await startMockOpenAI({ scenario: 'slow', delayMs: 5, reply: () => '读模型从事件日志重建，每个角色都可以独立扩展。'.repeat(8) });
  // The sign-in figures are the product's: its default hash cost, not the tests' lighter one.
  const env = { LLM_BASE_URL: mock.url, LLM_MODEL: 'slow', REGISTER_MAX_PER_ADDRESS: '1000', LOGIN_MAX_FAILURES: '1000', ...passwordCostEnv(DEFAULT_PASSWORD_COST) };
  let product: Product | null = null;
  try {
    await historyReads(dataDir, env);
    const running = (product = await startProduct(dataDir, env));
    const rssStart = rssMb(product);
    const reader = await signUp(product.url, `reader${randomUUID().slice(0, 6)}`);
    const sessionId = (await reader.request('POST', '/backend/conversation/api/v2/research/create_session', { mode: 0 })).body.session_id as string;
    await reader.request('POST', '/backend/api/v2/chat/poe/start', { session_id: sessionId, text: '历史读取基准：介绍一下读模型。' });
    await until(async () => !(await reader.request('GET', `/backend/conversation/research/${sessionId}/status`)).body.processing, REPLY_TIMEOUT_MS);
    const history = `${product.url}/backend/conversation/sessions/${sessionId}/messages`;

    // Fifty users, one reply each, all started at once.
    const names = Array.from({ length: CONCURRENT_REPLIES }, (_, index) => `load${index}${randomUUID().slice(0, 4)}`);
    const users: Array<Client & { userId: string }> = [];
    // argon2id takes a thread-pool thread per hash: a few registrations at a time is all that helps.
    for (let index = 0; index < names.length; index += 4) users.push(...(await Promise.all(names.slice(index, index + 4).map((name) => signUp(running.url, name)))));
    const sessions = await Promise.all(users.map(async (user) => ({ user, id: (await user.request('POST', '/backend/conversation/api/v2/research/create_session', { mode: 0 })).body.session_id as string })));
    const started = performance.now();
    await Promise.all(sessions.map(({ user, id }) => user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: id, text: '并发基准：用两句话介绍事件溯源。' })));
    await until(async () => {
      const statuses = await Promise.all(sessions.map(({ user, id }) => user.request('GET', `/backend/conversation/research/${id}/status`)));
      return statuses.every((status) => status.status === 200 && !status.body.processing);
    }, REPLY_TIMEOUT_MS);
    const repliesSeconds = (performance.now() - started) / 1000;
    const outcomes = await Promise.all(
      sessions.map(async ({ user, id }) => ((await user.request('GET', `/backend/conversation/sessions/${id}/messages`)).body.messages as Array<{ role: string; status: string }>).find((message) => message.role !== 'user')?.status),
    );
    const failed = outcomes.filter((status) => status !== 'completed').length;
    console.log(`${CONCURRENT_REPLIES} concurrent replies on the mock model: all ended after ${repliesSeconds.toFixed(1)} s, ${failed} not completed (target 0)`);
    if (failed > 0) throw new Error(`${failed} of ${CONCURRENT_REPLIES} replies did not complete: ${outcomes.join(', ')}`);

    // Sign-ins hash with argon2id on the thread pool; reads must keep their pace meanwhile.
    const quiet = await hammer(history, reader.token, sized(4, 1));
    const anonymous = client(product.url);
    const burst = Promise.all(
      Array.from({ length: PARALLEL_SIGN_INS }, (_, index) => anonymous.request('POST', '/backend/auth/login', { username: names[index % names.length]!, password: 'correct horse battery' }, { form: true })),
    );
    const during = await hammer(history, reader.token, sized(4, 1));
    const signIns = await burst;
    // Past its bound the hashing queue turns a sign-in away at once (503 auth.busy, Retry-After): that
    // is the designed answer to a burst; anything else is a failure.
    const busy = signIns.filter((answer) => answer.status === 503 && answer.body?.code === 'auth.busy').length;
    if (signIns.some((answer) => answer.status !== 200 && !(answer.status === 503 && answer.body?.code === 'auth.busy'))) {
      throw new Error(`sign-ins failed: ${signIns.map((answer) => `${answer.status} ${answer.body?.code ?? ''}`).join(', ')}`);
    }
    console.log(
      `history reads while ${PARALLEL_SIGN_INS} sign-ins run (${PARALLEL_SIGN_INS - busy} signed in, ${busy} turned away with 503 auth.busy): p99 ${during.p99} ms, ${during.perSecond}/s; before: p99 ${quiet.p99} ms, ${quiet.perSecond}/s (ratio of rates ${(during.perSecond / quiet.perSecond).toFixed(2)}×)`,
    );
    if (during.failed > 0) throw new Error(`${during.failed} reads failed during the sign-ins`);

    console.log(`server RSS: ${rssStart} MB at start, ${rssMb(product)} MB at the end`);
  } finally {
    product?.child.kill('SIGTERM');
    await product?.exited;
    await mock.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await run();

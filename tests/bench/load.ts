/**
 * Load on loopback against the product as `npm start` runs it (its own process, embedded adapters,
 * a mock OpenAI-compatible model), each figure beside a baseline taken in the same run:
 * - history reads/s and their p99 (autocannon, `GET …/sessions/:id/messages` with a token), beside
 *   `/healthz` (no store, no auth) at the same concurrency (targets: 500 reads/s, p99 ≤ 50 ms);
 * - 50 research replies started at once on the mock model: how long until all end, and how many did
 *   not complete (target: none);
 * - 60 sign-ins at once (argon2id each) while history reads go on: the reads' p99 during the burst
 *   beside their p99 before it (sign-ins must not starve other requests);
 * - the server's resident memory before and after.
 * It asserts only correctness (every reply completed, every read answered 200).
 * Run: npx tsx tests/bench/load.ts
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { client, signUp, type Client } from '../support/app.ts';
import { startMockOpenAI } from '../support/mockOpenAI.ts';
import { passwordCostEnv, startProduct, type Product } from '../support/product.ts';
import { DEFAULT_PASSWORD_COST } from '@scriptorium/infra/auth/passwordCost';

const READ_CONNECTIONS = 20;
const READ_SECONDS = 8;
const CONCURRENT_REPLIES = 50;
const PARALLEL_SIGN_INS = 60;
const REPLY_TIMEOUT_MS = 180_000;

const rssMb = (product: Product): number => {
  const status = readFileSync(`/proc/${product.child.pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
};

async function hammer(url: string, token: string | undefined, seconds = READ_SECONDS): Promise<{ perSecond: number; p99: number; failed: number }> {
  const result = await autocannon({ url, connections: READ_CONNECTIONS, duration: seconds, headers: token ? { authorization: `Bearer ${token}` } : {} });
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
  const product = await startProduct(dataDir, { LLM_BASE_URL: mock.url, LLM_MODEL: 'slow', REGISTER_MAX_PER_ADDRESS: '1000', LOGIN_MAX_FAILURES: '1000', ...passwordCostEnv(DEFAULT_PASSWORD_COST) });
  try {
    const rssStart = rssMb(product);
    const reader = await signUp(product.url, `reader${randomUUID().slice(0, 6)}`);
    const sessionId = (await reader.request('POST', '/backend/conversation/api/v2/research/create_session', { mode: 0 })).body.session_id as string;
    await reader.request('POST', '/backend/api/v2/chat/poe/start', { session_id: sessionId, text: '历史读取基准：介绍一下读模型。' });
    await until(async () => !(await reader.request('GET', `/backend/conversation/research/${sessionId}/status`)).body.processing, REPLY_TIMEOUT_MS);

    const history = `${product.url}/backend/conversation/sessions/${sessionId}/messages`;
    const bare = await hammer(`${product.url}/healthz`, undefined);
    const reads = await hammer(history, reader.token);
    console.log(`history reads: ${reads.perSecond}/s, p99 ${reads.p99} ms (target 500/s, p99 ≤ 50 ms); /healthz ${bare.perSecond}/s, p99 ${bare.p99} ms; ratio ${(reads.perSecond / bare.perSecond).toFixed(2)}×`);
    if (reads.failed > 0) throw new Error(`${reads.failed} history reads failed`);

    // Fifty users, one reply each, all started at once.
    const names = Array.from({ length: CONCURRENT_REPLIES }, (_, index) => `load${index}${randomUUID().slice(0, 4)}`);
    const users: Array<Client & { userId: string }> = [];
    // argon2id takes a thread-pool thread per hash: a few registrations at a time is all that helps.
    for (let index = 0; index < names.length; index += 4) users.push(...(await Promise.all(names.slice(index, index + 4).map((name) => signUp(product.url, name)))));
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
    const quiet = await hammer(history, reader.token, 4);
    const anonymous = client(product.url);
    const burst = Promise.all(
      Array.from({ length: PARALLEL_SIGN_INS }, (_, index) => anonymous.request('POST', '/backend/auth/login', { username: names[index % names.length]!, password: 'correct horse battery' }, { form: true })),
    );
    const during = await hammer(history, reader.token, 4);
    const signIns = await burst;
    if (signIns.some((answer) => answer.status !== 200)) throw new Error(`sign-ins refused: ${signIns.map((answer) => answer.status).join(' ')}`);
    console.log(`history reads while ${PARALLEL_SIGN_INS} sign-ins run: p99 ${during.p99} ms, ${during.perSecond}/s; before: p99 ${quiet.p99} ms, ${quiet.perSecond}/s (ratio of rates ${(during.perSecond / quiet.perSecond).toFixed(2)}×)`);
    if (during.failed > 0) throw new Error(`${during.failed} reads failed during the sign-ins`);

    console.log(`server RSS: ${rssStart} MB at start, ${rssMb(product)} MB at the end`);
  } finally {
    product.child.kill('SIGTERM');
    await product.exited;
    await mock.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await run();

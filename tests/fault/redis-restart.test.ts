/**
 * Redis restarted under a running product (BullMQ queue): a private redis-server with AOF is killed
 * with SIGKILL while a reply streams, a message is posted while it is down, and it comes back on the
 * same port and directory. The running reply ends (taken over or interrupted, never stuck), the
 * message posted during the outage gets its reply once Redis is back (the event is the job's outbox),
 * and nothing is written twice.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { signUp } from '../support/app.ts';
import { startMockOpenAI } from '../support/mockOpenAI.ts';
import { startProduct } from '../support/product.ts';
import { freePort, haveRedisServer, startRedis as startRedisServer } from '../support/redisServer.ts';
import { until } from '../support/readModels.ts';

/** A throwaway Redis as production runs it (AOF on, no eviction), resolved once it accepts connections. */
const startRedis = (port: number, dir: string) =>
  startRedisServer(port, ['--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--maxmemory-policy', 'noeviction']);

if (!haveRedisServer) {
  console.log('redis-restart fault test skipped: no redis-server binary on this machine');
  test.skip('Redis restarted mid-job (no redis-server binary)', () => {});
} else {
  test('Redis killed mid-reply and restarted: the running reply ends, a message posted meanwhile is answered, nothing doubles', async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-redis-restart-'));
    const redisDir = mkdtempSync(join(tmpdir(), 'scriptorium-redis-'));
    const port = await freePort();
    let redis = await startRedis(port, redisDir);
    const answer = '每个事件都先写入日志，再由各个角色读取。'.repeat(40);
    const mock = await startMockOpenAI({ scenario: 'slow', delayMs: 40, reply: () => answer });
    const product = await startProduct(dataDir, { REDIS_URL: `redis://127.0.0.1:${port}`, QUEUE_LOCK_SECONDS: '4', LLM_BASE_URL: mock.url, LLM_MODEL: 'slow' });
    try {
      const user = await signUp(product.url, 'redisrestart');
      const create = async () => (await user.request('POST', '/backend/conversation/api/v2/research/create_session', { mode: 0 })).body.session_id as string;
      const replies = async (sessionId: string) => {
        const history = await user.request('GET', `/backend/conversation/sessions/${sessionId}/messages`);
        return (history.body.messages as Array<{ role: string; status: string; contents: Array<{ content_type: string; content?: string }> }>).filter((message) => message.role !== 'user');
      };
      const processing = async (sessionId: string) => (await user.request('GET', `/backend/conversation/research/${sessionId}/status`)).body.processing as boolean;

      const running = await create();
      t.is((await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: running, text: '介绍一下事件溯源。' })).status, 200);
      await until('the reply streams', 30_000, async () => (await replies(running)).some((reply) => reply.contents.some((item) => item.content_type === 'chat_chunk')));

      redis.kill('SIGKILL');
      await once(redis, 'exit');
      const during = await create();
      const posted = await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: during, text: 'Redis 停机时发出的问题。' });
      t.is(posted.status, 200, 'the message is recorded while the queue is down');
      await new Promise((resolve) => setTimeout(resolve, 2000));
      redis = await startRedis(port, redisDir);

      await until('both replies have ended', 180_000, async () => !(await processing(running)) && !(await processing(during)) && (await replies(during)).length > 0);
      for (const sessionId of [running, during]) {
        const [reply, ...more] = await replies(sessionId);
        t.is(more.length, 0, 'one reply per question');
        t.true(['completed', 'interrupted'].includes(reply!.status), `reply status ${reply!.status}`);
        const text = reply!.contents.filter((item) => item.content_type === 'chat_chunk').map((item) => item.content).join('');
        t.true(text.length > 0 && answer.startsWith(text), `the text is the model's, once, in order (${text.length} of ${answer.length} characters)`);
      }
      const [answered] = await replies(during);
      t.is(answered!.status, 'completed', 'the message posted during the outage was answered after it');
      t.is(product.child.exitCode, null, 'the product stayed up');
    } finally {
      product.child.kill('SIGTERM');
      await product.exited;
      redis.kill('SIGTERM');
      await mock.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(redisDir, { recursive: true, force: true });
    }
  });
}

/**
 * kill -9 of the product (api, projector and worker in one process, embedded SQLite) at a seeded random
 * point of a research run: before the agent writes, after some streamed chunks, or just after the
 * report ends. After a restart the reply ends, and: no event twice, the reply written and ended once,
 * the canvas text equals what the log streamed, and the live read models equal a rebuild from the log.
 * Seeds are few (KILL_SEEDS=… for more) and printed, so a failing point replays.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import fc from 'fast-check';
import { SqliteEventStore } from '@scriptorium/infra/eventstore/sqlite';
import { createLogger } from '@scriptorium/infra/log';
import { SqliteReadStore } from '@scriptorium/infra/readstore/sqlite';
import { ProjectionRunner } from '@scriptorium/projections/runner';
import { client, signUp } from '../support/app.ts';
import { startMockOpenAI } from '../support/mockOpenAI.ts';
import { straightResearch } from '../support/researchModel.ts';
import { startProduct } from '../support/product.ts';
import { dump, projections, until } from '../support/readModels.ts';
import { openSocket } from '../support/socket.ts';

const PROSE = '事件日志是唯一的事实来源，读模型可以随时从日志重建。'.repeat(60);
const SEEDS = (process.env.KILL_SEEDS ?? `${Date.now() % 100_000},${(Date.now() + 7919) % 100_000}`).split(',').map(Number);

type KillPoint = { at: 'started' } | { at: 'writing'; chunks: number } | { at: 'ended' };
const killPoint = (seed: number): KillPoint =>
  fc.sample(fc.oneof(fc.constant({ at: 'started' as const }), fc.integer({ min: 1, max: 40 }).map((chunks) => ({ at: 'writing' as const, chunks })), fc.constant({ at: 'ended' as const })), { seed, numRuns: 1 })[0]!;

const replyOf = async (user: ReturnType<typeof client>, sessionId: string, replyId: string) =>
  (await user.request('GET', `/backend/conversation/sessions/${sessionId}/messages`)).body.messages.find((message: any) => message.message_id === replyId);

for (const seed of SEEDS) {
  const point = killPoint(seed);
  test.serial(`kill -9 at ${JSON.stringify(point)} (KILL_SEEDS=${seed}): nothing torn or doubled, canvas equals the log, read models equal a rebuild`, async (t) => {
    const mock = await startMockOpenAI({
      scenario: 'slow',
      delayMs: 3,
      reply: straightResearch({ description: '重建', queries: ['事件溯源 重建'] }, PROSE),
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-kill-points-'));
    const env = { LLM_BASE_URL: mock.url, LLM_MODEL: 'slow', JWT_SECRET: `kill-points-secret-${seed}-0123456789abcdef0123456789` };
    let product = await startProduct(dataDir, env);
    try {
      const user = await signUp(product.url, 'killed');
      const sessionId = (await user.request('POST', '/backend/conversation/sessions', { client_id: 'kill' })).body.session_id as string;
      const socket = await openSocket(product.url, 'kill', user.token);
      socket.send({ session_id: sessionId, agent: 'none', payload: { content_type: 'subscribe' } });
      await socket.next((m) => m.type === 'subscribed');
      const started = await user.request('POST', '/backend/conversation/research/start', { session_id: sessionId, message: '说明事件溯源系统如何从日志重建读模型，写一份报告' });
      t.is(started.status, 200);
      const replyId = started.body.reply_id as string;
      const isItem = (type: string) => (m: any) => m.type === 'message' && m.content.message_id === replyId && m.content.content_type === type;
      if (point.at === 'writing') await socket.next(() => socket.received.filter(isItem('writing_content')).length >= point.chunks, 120_000);
      if (point.at === 'ended') await socket.next(isItem('writing_end'), 120_000);
      product.child.kill('SIGKILL');
      await product.exited;
      socket.close();

      product = await startProduct(dataDir, env);
      const login = await client(product.url).request('POST', '/backend/auth/login', { username: 'killed', password: 'correct horse battery' }, { form: true });
      const again = client(product.url, login.body.access_token);
      await until('the reply has ended after the restart', 120_000, async () => !(await again.request('GET', `/backend/conversation/research/${sessionId}/status`)).body.processing);

      // No job runs: the reply has ended, or (killed after the report) it asks for the user's feedback and waits.
      const reply = await replyOf(again, sessionId, replyId);
      const session = (await again.request('GET', `/backend/conversation/research/${sessionId}/status`)).body;
      const waiting = session.status === 'waiting' && reply.contents.at(-1)?.content_type === 'feedback_request';
      t.true(['interrupted', 'completed'].includes(reply.status) || waiting, `reply ${reply.status}, session ${session.status}`);
      const contents = reply.contents as any[];
      const starts = contents.filter((item) => item.content_type === 'writing_start').length;
      t.true(starts <= 1, 'written at most once');
      t.is(contents.filter((item) => item.content_type === 'writing_end').length, starts, 'a writing that began ended once');
      const written = contents.filter((item) => item.content_type === 'writing_content').map((item) => item.content).join('');
      const canvas = await again.request('GET', `/backend/conversation/research/${sessionId}/canvas`);
      t.is(canvas.body.versions.length, starts, 'one version per writing, none from a replayed job');
      if (starts === 1) t.is(canvas.body.versions[0].content, written, 'the canvas holds what the log streamed');

      // The projector inside the product catches up to the head before it stops, then the log is read alone.
      const events = new SqliteEventStore(join(dataDir, 'events.sqlite3'));
      const live = new SqliteReadStore(join(dataDir, 'read.sqlite3'));
      const rebuiltDir = mkdtempSync(join(tmpdir(), 'scriptorium-kill-rebuild-'));
      const rebuilt = new SqliteReadStore(join(rebuiltDir, 'read.sqlite3'));
      try {
        const head = await events.headPosition();
        await until('the projector has caught up', 60_000, async () => (await Promise.all(projections().map((projection) => live.getCheckpoint(projection.name)))).every((checkpoint) => checkpoint >= head));
        product.child.kill('SIGTERM');
        await product.exited;
        const log = await events.readAll();
        t.is(new Set(log.map((event) => event.id)).size, log.length, 'no event id twice');
        t.is(new Set(log.map((event) => `${event.streamId}@${event.revision}`)).size, log.length, 'no stream revision twice');
        t.deepEqual(log.map((event) => event.position), [...log.map((event) => event.position)].sort((a, b) => a - b), 'positions in order');
        await new ProjectionRunner(events, rebuilt, projections(), createLogger('silent', 'test')).catchUp();
        t.deepEqual(await dump(live), await dump(rebuilt), 'the live read models equal a rebuild from the log');
      } finally {
        await Promise.allSettled([events.close(), live.close(), rebuilt.close()]);
        rmSync(rebuiltDir, { recursive: true, force: true });
      }
    } finally {
      if (product.child.exitCode === null && product.child.signalCode === null) product.child.kill('SIGKILL');
      await product.exited;
      await mock.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}

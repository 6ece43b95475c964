import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { client, signUp } from '../support/app.ts';
import { startMockOpenAI } from '../support/mockOpenAI.ts';
import { straightResearch } from '../support/researchModel.ts';
import { startProduct } from '../support/product.ts';
import { openSocket } from '../support/socket.ts';

const PROSE = '固态电池的能量密度更高，但制造成本仍然偏高。'.repeat(80);

test('kill -9 while the report is being written: after the restart the partial version is saved as interrupted and nothing is written twice', async (t) => {
  t.timeout(180_000);
  const mock = await startMockOpenAI({
    scenario: 'slow',
    delayMs: 3,
    reply: straightResearch({ description: '技术路线', queries: ['固态电池 技术'] }, PROSE),
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-research-crash-'));
  const env = { LLM_BASE_URL: mock.url, LLM_MODEL: 'slow' };
  try {
    const first = await startProduct(dataDir, env);
    const user = await signUp(first.url, 'crasher');
    const { body } = await user.request('POST', '/backend/conversation/sessions', { client_id: 'client-crash' });
    const sessionId = body.session_id as string;
    const socket = await openSocket(first.url, 'client-crash', user.token);
    socket.send({ session_id: sessionId, agent: 'none', payload: { content_type: 'subscribe' } });
    await socket.next((m) => m.type === 'subscribed');
    const started = await user.request('POST', '/backend/conversation/research/start', { session_id: sessionId, message: '对比2020年以来中国固态电池的技术路线，写一份报告' });
    const replyId = started.body.reply_id as string;
    await socket.next((m) => m.type === 'message' && m.content.message_id === replyId && m.content.content_type === 'writing_content');
    first.child.kill('SIGKILL');
    await first.exited;
    const requestsBeforeRestart = mock.requests.length;

    const second = await startProduct(dataDir, env);
    const login = await client(second.url).request('POST', '/backend/auth/login', { username: 'crasher', password: 'correct horse battery' }, { form: true });
    const again = client(second.url, login.body.access_token);
    let status: any;
    for (let tries = 0; tries < 300; tries++) {
      status = (await again.request('GET', `/backend/conversation/research/${sessionId}/status`)).body;
      if (!status.processing) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    t.false(status.processing, 'the reply ended after the restart');
    const history = await again.request('GET', `/backend/conversation/sessions/${sessionId}/messages`);
    const reply = history.body.messages.find((message: any) => message.message_id === replyId);
    t.is(reply.status, 'interrupted');
    const contents = reply.contents as any[];
    t.is(contents.filter((item) => item.content_type === 'writing_start').length, 1, 'written once');
    t.like(contents.find((item) => item.content_type === 'writing_end'), { message: '写作过程中断，已保存部分内容', level: 'warning', interrupted: true, saved: true });
    const written = contents.filter((item) => item.content_type === 'writing_content').map((item) => item.content).join('');
    const canvas = await again.request('GET', `/backend/conversation/research/${sessionId}/canvas`);
    t.is(canvas.body.versions.length, 1);
    t.like(canvas.body.versions[0], { version: 1, interrupted: true, content: written });
    t.true(written.length > 0 && !written.includes(PROSE));
    t.is(mock.requests.length, requestsBeforeRestart, 'the restarted worker asked the model nothing');
    second.child.kill('SIGTERM');
    await second.exited;
  } finally {
    await mock.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

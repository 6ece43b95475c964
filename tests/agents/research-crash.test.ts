import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { client, signUp } from '../support/app.ts';
import { startMockOpenAI } from '../support/mockOpenAI.ts';
import { straightResearch } from '../support/researchModel.ts';
import { startProduct } from '../support/product.ts';
import { openSocket, streamedText } from '../support/socket.ts';
import { ANALYSE_PROMPT, PLAN_PROMPT } from '@scriptorium/workers/agents/deep_cognition/prompts';

const PROSE = '固态电池的能量密度更高，但制造成本仍然偏高。'.repeat(80);

test('kill -9 while the report is being written: after the restart the job continues the section from what was written and completes the report, planning and searching nothing again', async (t) => {
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
    // Killed once the section's own text streams, past the report's head.
    await socket.next(() => streamedText(socket.received, replyId, 'writing_content').includes(PROSE.slice(0, 30)), 60_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const before = streamedText(socket.received, replyId, 'writing_content');
    const requestsBeforeRestart = mock.requests.length;

    const second = await startProduct(dataDir, env);
    t.teardown(async () => {
      if (second.child.exitCode === null && second.child.signalCode === null) second.child.kill('SIGKILL');
      await second.exited;
    });
    const login = await client(second.url).request('POST', '/backend/auth/login', { username: 'crasher', password: 'correct horse battery' }, { form: true });
    const again = client(second.url, login.body.access_token);
    let status: any;
    for (let tries = 0; tries < 900; tries++) {
      status = (await again.request('GET', `/backend/conversation/research/${sessionId}/status`)).body;
      if (!status.processing) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    t.false(status.processing, 'the report was finished after the restart');
    const history = await again.request('GET', `/backend/conversation/sessions/${sessionId}/messages`);
    const reply = history.body.messages.find((message: any) => message.message_id === replyId);
    t.not(reply.status, 'interrupted');
    const contents = reply.contents as any[];
    t.is(contents.filter((item) => item.content_type === 'writing_start').length, 1, 'one version, continued');
    t.like(contents.find((item) => item.content_type === 'writing_end'), { message: '写作完成', interrupted: false, saved: true });
    t.true(contents.some((item) => item.content_type === 'feedback_request'));
    let written = '';
    for (const item of contents) {
      if (item.content_type === 'writing_content') written += item.content;
      if (item.content_type === 'writing_rollback') written = written.slice(0, item.length);
    }
    const canvas = await again.request('GET', `/backend/conversation/research/${sessionId}/canvas`);
    t.is(canvas.body.versions.length, 1);
    t.like(canvas.body.versions[0], { version: 1, interrupted: false, content: written });
    t.true(written.startsWith(before), 'what was written before the kill stays where it was');
    const later = mock.requests.slice(requestsBeforeRestart).map((request) => request.body as { messages: Array<{ role: string; content: string }> });
    t.false(later.some((body) => [ANALYSE_PROMPT, PLAN_PROMPT].includes(body.messages[0]!.content)), 'no analysis and no planning again');
    t.is(later.length, 2, 'the section that was cut and the one after it');
    t.true(later[0]!.messages.some((message) => message.role === 'assistant' && message.content.length > 0), 'the cut section is continued from its text');
    second.child.kill('SIGTERM');
    await second.exited;
  } finally {
    await mock.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

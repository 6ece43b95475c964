/**
 * The demo's aggregate bounds (issue 30 item 4): demos wait in a lane of their own, so however many
 * run, a chat reply is not queued behind them; a user runs at most DEMOS_PER_USER at once, so another
 * user's demo starts beside theirs; and workspaces past their retention are removed. The sandbox
 * holds each command until the test lets it go, so "running" lasts exactly as long as the test needs.
 */
import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { DEMOS_PER_USER, LONG_LANE_SLOTS } from '@scriptorium/domain/engineer/demo';
import { DEMO_WORKSPACE_RETENTION_MS, DEMO_WORKSPACES } from '@scriptorium/workers/agents/engineer_demo/agent';
import { signUp, startTestApp, type TestApp } from '../support/app.ts';
import { HeldSandbox } from '../support/heldSandbox.ts';
import { eventually } from '../support/poll.ts';
import { watchedSession } from '../support/research.ts';

const sandbox = new HeldSandbox();
let app: TestApp;
test.before(async () => {
  app = await startTestApp({}, { agents: { sandbox } });
});
test.after.always(async () => {
  sandbox.release();
  await app?.stop();
});

const base = '/backend/api/ai-engineer';
const startDemo = (user: Awaited<ReturnType<typeof signUp>>, task: string) => user.request('POST', `${base}/start-demo`, { task_description: task });
/** Demos whose first command the sandbox holds now. */
const held = (ids: string[]) => ids.filter((id) => sandbox.running.has(join(DEMO_WORKSPACES, id)));

test.serial('a user runs at most DEMOS_PER_USER demos at once; another user’s demo starts beside them, and a chat reply is never queued behind demos', async (t) => {
  const first = await signUp(app.url, 'demolane1');
  const ids: string[] = [];
  for (let index = 0; index < DEMOS_PER_USER; index++) ids.push((await startDemo(first, `任务 ${index}`)).body.execution_id);
  const refused = await startDemo(first, '再来一个');
  t.is(refused.status, 429);
  t.like(refused.body, { code: 'engineer.demo_limit', detail: `你已有 ${DEMOS_PER_USER} 个演示在运行，请等其结束或停止一个后再开始` });
  t.is((await first.request('GET', `${base}/sessions`)).body.total, DEMOS_PER_USER, 'the refused start made no session');
  await eventually(() => (held(ids).length === DEMOS_PER_USER ? true : undefined));

  // Fairness: the lane has room for another user beside the first one's demos.
  const second = await signUp(app.url, 'demolane2');
  const theirs = (await startDemo(second, 'another user')).body.execution_id as string;
  await eventually(() => (held([theirs]).length === 1 ? true : undefined), 30_000, "the second user's demo to reach its sandbox");

  // Enough demos from more users to fill every slot the agents have, and more.
  const crowd: string[] = [];
  for (let index = 0; index < 4; index++) {
    const user = await signUp(app.url, `demolanecrowd${index}`);
    for (let demo = 0; demo < DEMOS_PER_USER; demo++) crowd.push((await startDemo(user, `crowd ${index}.${demo}`)).body.execution_id);
  }
  await eventually(() => (held([...ids, theirs, ...crowd]).length >= LONG_LANE_SLOTS ? true : undefined), 30_000, 'the lane to be full');

  const chatter = await signUp(app.url, 'demolanechat');
  const { sessionId, socket } = await watchedSession(app.url, chatter, 'lane-chat');
  socket.send({ session_id: sessionId, agent: 'poe_llm', payload: { content_type: 'user_input', content: '你好' } });
  const end = await socket.next((m) => m.type === 'message' && m.content.content_type === 'message_end', 30_000);
  t.is(end.content.outcome, 'completed');
  t.is(held([...ids, theirs, ...crowd]).length, LONG_LANE_SLOTS, 'answered while every demo slot was still held');
  socket.close();

  // A stopped demo makes room under the user's bound.
  await first.request('POST', `${base}/executions/${ids[0]}/stop`);
  t.is((await startDemo(first, '又一个')).status, 201);
  sandbox.release();
});

test.serial('a demo starting removes the workspaces unused past their retention and keeps the recent ones', async (t) => {
  const old = join(DEMO_WORKSPACES, 'retention-test-old');
  const recent = join(DEMO_WORKSPACES, 'retention-test-recent');
  t.teardown(() => rmSync(recent, { recursive: true, force: true }));
  for (const dir of [old, recent]) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'left.txt'), 'x'.repeat(100_000));
  }
  const past = new Date(Date.now() - DEMO_WORKSPACE_RETENTION_MS - 60_000);
  utimesSync(old, past, past);
  const user = await signUp(app.url, 'demoretention');
  const id = (await startDemo(user, '清理')).body.execution_id as string;
  await eventually(async () => ((await user.request('GET', `${base}/sessions/${id}`)).body.status === 'completed' ? true : undefined), 30_000, 'the demo to end');
  t.false(existsSync(old), 'the workspace past its retention is gone');
  t.true(existsSync(recent));
  t.true(existsSync(join(DEMO_WORKSPACES, id)), 'the demo’s own workspace is kept for its retention');
});

import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { LONG_QUEUE } from '@scriptorium/domain/conversation/jobs';
import { demoJobId } from '@scriptorium/domain/jobs/dispatch';
import { defaultSandbox, Sandbox } from '@scriptorium/infra/sandbox/bwrap';
import { signUp, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { startMockOpenAI } from '../support/mockOpenAI.ts';
import { eventually } from '../support/poll.ts';

const problem = await defaultSandbox.problem();
const sandboxed = problem === null ? test.serial : test.serial.skip;
if (problem !== null) console.log(`demo tests skipped: ${problem.message}`);

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.stop();
});

const base = '/backend/api/ai-engineer';

/** The demo's execution once it is no longer running. */
const ended = (user: Client, id: string) =>
  eventually(async () => {
    const execution = (await user.request('GET', `${base}/demo/executions/${id}`)).body;
    return execution.status === 'running' ? undefined : execution;
  });

sandboxed('the offline demo works on a task in a sandboxed workspace and records files, terminals and actions', async (t) => {
  const user = await signUp(app.url, 'demouser');
  const started = await user.request('POST', `${base}/start-demo`, { task_description: "统计这段任务描述的字数，别忘了 'quotes'" });
  t.is(started.status, 201);
  const id = started.body.execution_id;
  t.like(started.body, { session_id: id, status: 'running' });

  const done = await ended(user, id);
  t.like(done, { status: 'completed', source: 'demo', offline: true, steps: 6 });

  const terminals = (await user.request('GET', `${base}/demo/executions/${id}/terminals`)).body.terminals;
  t.is(terminals.length, 6);
  t.true(terminals.every((terminal: any) => terminal.exit_code === 0 && terminal.cwd === '/workspace'));
  t.regex(terminals[0].output, /'quotes'/, 'the task reaches the file intact, quotes and all');
  t.regex(terminals[4].output, /ℹ pass 4\nℹ fail 0/, 'the function’s tests run and pass inside the sandbox');
  t.is(terminals[5].output.trim(), 'lo', 'no network but loopback inside the sandbox');

  const files = (await user.request('GET', `${base}/demo/executions/${id}/files`)).body.files;
  t.deepEqual(files.map((file: any) => [file.path, file.change]).sort(), [['TASK.md', 'create'], ['package.json', 'create'], ['src/count.js', 'create'], ['test/count.test.js', 'create']]);
  const actions = (await user.request('GET', `${base}/demo/executions/${id}/actions`)).body.actions;
  t.deepEqual(actions.slice(0, 3).map((action: any) => action.type), ['message', 'tool_call', 'thought']);
  const nodes = (await user.request('GET', `${base}/demo/executions/${id}/nodes`)).body.nodes;
  t.like(nodes.find((node: any) => node.id === 'plan'), { title: '离线演示模板' });
  t.is((await user.request('GET', `${base}/sessions/${id}/nodes/stats`)).body.by_type.command, 6);
});

sandboxed('an English task gets the offline template in English', async (t) => {
  const user = await signUp(app.url, 'demoenglish');
  const id = (await user.request('POST', `${base}/start-demo`, { task_description: 'write a function and test it' })).body.execution_id;
  await ended(user, id);
  const nodes = (await user.request('GET', `${base}/demo/executions/${id}/nodes`)).body.nodes;
  t.like(nodes.find((node: any) => node.id === 'plan'), { title: 'Offline demo template' });
  t.regex(nodes.find((node: any) => node.id === 'step-0-thought').payload.text, /^Offline demo template \(no model configured\)/);
  t.like(nodes.find((node: any) => node.id === 'step-4-out'), { status: 'completed', payload: { exit_code: 0 } });
});

sandboxed("a stopped demo stays stopped; another user's demo and a session that is not a demo are not found", async (t) => {
  const user = await signUp(app.url, 'demostop');
  const id = (await user.request('POST', `${base}/start-demo`, { task_description: '停止我' })).body.execution_id;
  t.like((await user.request('POST', `${base}/executions/${id}/stop`)).body, { status: 'stopped' });
  await app.settle();
  await new Promise((resolve) => setTimeout(resolve, 500));
  t.is((await user.request('GET', `${base}/demo/executions/${id}`)).body.status, 'stopped');

  const other = await signUp(app.url, 'demoother');
  t.is((await other.request('GET', `${base}/demo/executions/${id}/files`)).status, 404);
  const plain = (await user.request('POST', `${base}/sessions`, { title: '普通会话' })).body.id;
  t.is((await user.request('GET', `${base}/demo/executions/${plain}`)).status, 404);
  t.is((await user.request('POST', `${base}/start-demo`, { task_description: '  ' })).status, 422);
  // The demo writes the task into its first command, which no NUL can pass: it used to start and never end.
  const sessionsBefore = (await user.request('GET', `${base}/sessions`)).body.sessions.length;
  const nul = await user.request('POST', `${base}/start-demo`, { task_description: '统计\u0000字数' });
  t.is(nul.status, 422);
  t.like(nul.body.detail[0], { loc: ['body', 'task_description'], code: 'engineer.task_forbidden_characters' });
  t.is((await user.request('GET', `${base}/sessions`)).body.sessions.length, sessionsBefore, 'no session was started');
  t.is((await user.request('POST', `${base}/start-demo`, { task_description: '第一行\n\t第二行' })).status, 201, 'line breaks and tabs are text');
});

test.serial('where bwrap is missing the demo says so in a coded error node, fails, and runs nothing unsandboxed', async (t) => {
  const missing = join(tmpdir(), 'no-such-dir', 'bwrap');
  const bare = await startTestApp({}, { agents: { sandbox: new Sandbox({ bwrapPath: missing }) } });
  try {
    const user = await signUp(bare.url, 'nobwrap');
    const id = (await user.request('POST', `${base}/start-demo`, { task_description: '写一个文件' })).body.execution_id;
    const done = await ended(user, id);
    t.is(done.status, 'failed');
    const error = (await user.request('GET', `${base}/sessions/${id}/nodes/step-0-out`)).body;
    t.like(error, { node_type: 'error', status: 'failed', payload: { code: 'engineer.sandbox_missing' } });
    t.is(error.payload.message, `沙箱不可用：没有找到 bubblewrap（${missing}），命令没有运行`);
    const terminals = (await user.request('GET', `${base}/demo/executions/${id}/terminals`)).body.terminals;
    t.like(terminals, [{ status: 'failed', exit_code: null }]);
    t.is(terminals.length, 1, 'no step after the refused one');
    t.false(existsSync(join(tmpdir(), 'scriptorium-demo', id, 'TASK.md')), 'the first step did not run outside a sandbox');
  } finally {
    await bare.stop();
  }
});

/** A model that plans the given shell steps, so a demo can be steered into each limit. */
const planning = (commands: string[]) => startMockOpenAI({ reply: JSON.stringify({ steps: commands.map((command, index) => ({ thought: `步骤 ${index + 1}`, command })) }) });

sandboxed('a step past a sandbox limit is stopped with a coded error under its command, and the demo goes on', async (t) => {
  const model = await planning(['yes', 'echo begun; sleep 30', 'python3 -c "bytearray(600*1024*1024)"', 'i=0; while [ $i -lt 100 ]; do sleep 20 & i=$((i+1)); done; wait', 'head -c 50000000 /dev/zero > big', 'echo after']);
  const limited = await startTestApp({ LLM_BASE_URL: model.url, LLM_MODEL: 'planner' }, { agents: { sandbox: new Sandbox({ limits: { timeoutMs: 1500, maxOutputBytes: 2048, processes: 16, diskBytes: 4 * 1024 * 1024 } }) } });
  try {
    const user = await signUp(limited.url, 'limits');
    const id = (await user.request('POST', `${base}/start-demo`, { task_description: '把每个限制都碰一下' })).body.execution_id;
    const done = await ended(user, id);
    t.like(done, { status: 'completed', offline: false, steps: 6 });
    const node = async (nodeId: string) => (await user.request('GET', `${base}/sessions/${id}/nodes/${nodeId}`)).body;
    t.like(await node('step-0-limit'), { node_type: 'error', parent_id: 'step-0-cmd', payload: { code: 'engineer.sandbox_output', message: '命令输出超过限制（2 KB），已停止' } });
    t.is((await node('step-0-out')).payload.text.length, 2048);
    t.like(await node('step-1-limit'), { payload: { code: 'engineer.sandbox_time', message: '命令超过时间限制（1.5 秒），已停止' } });
    t.is((await node('step-1-out')).payload.text, 'begun\n');
    t.like(await node('step-2-limit'), { payload: { code: 'engineer.sandbox_memory', message: '命令超过内存限制（512 MB），已停止' } });
    t.like(await node('step-3-limit'), { payload: { code: 'engineer.sandbox_processes', message: '命令超过进程数限制（16 个），已停止' } });
    t.like(await node('step-4-limit'), { payload: { code: 'engineer.sandbox_disk', message: '命令超过磁盘限制（工作区 4 MB、10000 个文件，/tmp 64 MB），已停止' } });
    t.like(await node('step-5-out'), { status: 'completed', payload: { text: 'after\n', exit_code: 0 } });
    t.is((await user.request('GET', `${base}/sessions/${id}/nodes/step-5-limit`)).status, 404, 'a step within every limit has no limit node');
  } finally {
    await limited.stop();
    await model.close();
  }
});

sandboxed('a planned command holding a NUL is a failed step with a coded error, and the demo goes on', async (t) => {
  const model = await planning(['echo one', 'echo "two\u0000"', 'echo three']);
  const planned = await startTestApp({ LLM_BASE_URL: model.url, LLM_MODEL: 'planner' });
  try {
    const user = await signUp(planned.url, 'nulplan');
    const id = (await user.request('POST', `${base}/start-demo`, { task_description: '三步' })).body.execution_id;
    const done = await ended(user, id);
    t.like(done, { status: 'completed', offline: false, steps: 3 });
    const node = async (nodeId: string) => (await user.request('GET', `${base}/sessions/${id}/nodes/${nodeId}`)).body;
    t.like(await node('step-1-out'), { node_type: 'error', parent_id: 'step-1-cmd', status: 'failed', payload: { code: 'engineer.command_unrunnable', message: '命令中含有空字符（NUL），无法执行，已跳过' } });
    t.like(await node('step-2-out'), { status: 'completed', payload: { text: 'three\n', exit_code: 0 } });
  } finally {
    await planned.stop();
    await model.close();
  }
});

test.serial('a demo whose work fails unexpectedly ends as failed with a coded error, not running for good', async (t) => {
  class BrokenSandbox extends Sandbox {
    override run(): Promise<never> {
      return Promise.reject(new Error('the workspace disk is gone'));
    }
  }
  const broken = await startTestApp({}, { agents: { sandbox: new BrokenSandbox() } });
  try {
    const user = await signUp(broken.url, 'brokendemo');
    const id = (await user.request('POST', `${base}/start-demo`, { task_description: '写一个文件' })).body.execution_id;
    const done = await ended(user, id);
    t.is(done.status, 'failed');
    t.like((await user.request('GET', `${base}/sessions/${id}/nodes/demo-failed`)).body, {
      node_type: 'error',
      status: 'failed',
      payload: { code: 'engineer.demo_failed', message: '演示因内部错误中止，请重新开始' },
    });
  } finally {
    await broken.stop();
  }
});

sandboxed('stopping a demo aborts its job and kills the command it is running', async (t) => {
  const model = await planning(['sleep 60', 'echo never']);
  const patient = await startTestApp({ LLM_BASE_URL: model.url, LLM_MODEL: 'planner' }, { agents: { sandbox: new Sandbox({ limits: { timeoutMs: 120_000 } }) } });
  try {
    const user = await signUp(patient.url, 'stopper');
    const id = (await user.request('POST', `${base}/start-demo`, { task_description: '等很久' })).body.execution_id;
    await eventually(async () => ((await user.request('GET', `${base}/sessions/${id}/nodes/step-0-cmd`)).status === 200 ? true : undefined));
    const stoppedAt = Date.now();
    t.like((await user.request('POST', `${base}/executions/${id}/stop`)).body, { status: 'stopped' });
    const job = await eventually(async () => {
      const info = await patient.services.queue.getJob(LONG_QUEUE, demoJobId(id));
      return info && info.state !== 'active' ? info : undefined;
    }, 10_000);
    t.is(job.state, 'cancelled');
    t.true(Date.now() - stoppedAt < 10_000, 'the sleep was killed, not waited for');
    const nodes = (await user.request('GET', `${base}/demo/executions/${id}/nodes`)).body.nodes.map((node: { id: string }) => node.id);
    t.false(nodes.includes('step-0-out'), 'a stopped session takes no more nodes');
    t.false(nodes.includes('step-1-cmd'));
  } finally {
    await patient.stop();
    await model.close();
  }
});

import test from 'ava';
import { sandboxProblem } from '@scriptorium/infra/sandbox/bwrap';
import { signUp, startTestApp, type TestApp } from '../support/app.ts';

const problem = await sandboxProblem();
const sandboxed = problem === null ? test.serial : test.serial.skip;
if (problem !== null) console.log(`demo tests skipped: ${problem}`);

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.stop();
});

const base = '/backend/api/ai-engineer';

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

sandboxed('the offline demo works on a task in a sandboxed workspace and records files, terminals and actions', async (t) => {
  const user = await signUp(app.url, 'demouser');
  const started = await user.request('POST', `${base}/start-demo`, { task_description: "统计这段任务描述的字数，别忘了 'quotes'" });
  t.is(started.status, 201);
  const id = started.body.execution_id;
  t.like(started.body, { session_id: id, status: 'running' });

  const done = await until(async () => {
    const execution = (await user.request('GET', `${base}/demo/executions/${id}`)).body;
    return execution.status === 'running' ? undefined : execution;
  });
  t.like(done, { status: 'completed', source: 'demo', offline: true, steps: 4 });

  const terminals = (await user.request('GET', `${base}/demo/executions/${id}/terminals`)).body.terminals;
  t.is(terminals.length, 4);
  t.true(terminals.every((terminal: any) => terminal.exit_code === 0 && terminal.cwd === '/workspace'));
  t.regex(terminals[0].output, /'quotes'/, 'the task reaches the file intact, quotes and all');
  t.is(terminals[3].output.trim(), 'lo', 'no network but loopback inside the sandbox');

  const files = (await user.request('GET', `${base}/demo/executions/${id}/files`)).body.files;
  t.deepEqual(files.map((file: any) => [file.path, file.change]).sort(), [['TASK.md', 'create'], ['count.sh', 'create']]);
  const actions = (await user.request('GET', `${base}/demo/executions/${id}/actions`)).body.actions;
  t.deepEqual(actions.slice(0, 3).map((action: any) => action.type), ['message', 'tool_call', 'thought']);
  const nodes = (await user.request('GET', `${base}/demo/executions/${id}/nodes`)).body.nodes;
  t.like(nodes.find((node: any) => node.id === 'plan'), { title: '离线演示模板' });
  t.is((await user.request('GET', `${base}/sessions/${id}/nodes/stats`)).body.by_type.command, 4);
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
});

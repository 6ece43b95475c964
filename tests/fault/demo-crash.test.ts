import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { defaultSandbox } from '@scriptorium/infra/sandbox/bwrap';
import { client, signUp } from '../support/app.ts';
import { startMockOpenAI } from '../support/mockOpenAI.ts';
import { startProduct } from '../support/product.ts';
import { eventually } from '../support/poll.ts';

const problem = await defaultSandbox.problem();
const sandboxed = problem === null ? test : test.skip;
if (problem !== null) console.log(`demo crash test skipped: ${problem.message}`);

const base = '/backend/api/ai-engineer';

sandboxed('kill -9 while a demo runs a command: after restart recovery re-queues it and it finishes every step once', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-demo-crash-'));
  // The model plans a slow middle step, so the kill lands while its command runs.
  const model = await startMockOpenAI({
    reply: JSON.stringify({
      steps: [
        { thought: '先写第一个文件', command: 'echo one > one.txt' },
        { thought: '慢慢写第二个文件', command: 'sleep 3; echo two > two.txt; cat one.txt two.txt' },
        { thought: '最后列出文件', command: 'ls' },
      ],
    }),
  });
  const env = { LLM_BASE_URL: model.url, LLM_MODEL: 'planner' };
  let workspace = '';
  try {
    const first = await startProduct(dataDir, env);
    const user = await signUp(first.url, 'democrash');
    const id = (await user.request('POST', `${base}/start-demo`, { task_description: '写两个文件' })).body.execution_id as string;
    workspace = join(tmpdir(), 'scriptorium-demo', id);
    await eventually(async () => ((await user.request('GET', `${base}/sessions/${id}/nodes/step-1-cmd`)).status === 200 ? true : undefined), 30_000);
    // Into the command's sleep: the first milliseconds of a spawn, before setpriv ties the command to its worker, are not what this is about.
    await new Promise((resolve) => setTimeout(resolve, 500));
    first.child.kill('SIGKILL');
    await first.exited;
    await new Promise((resolve) => setTimeout(resolve, 3000));
    t.false(existsSync(join(workspace, 'two.txt')), 'the command died with its worker instead of finishing unwatched');

    const second = await startProduct(dataDir, env);
    const login = await client(second.url).request('POST', '/backend/auth/login', { username: 'democrash', password: 'correct horse battery' }, { form: true });
    const again = client(second.url, login.body.access_token);
    const done = await eventually(async () => {
      const execution = (await again.request('GET', `${base}/demo/executions/${id}`)).body;
      return execution.status === 'running' ? undefined : execution;
    }, 60_000);
    t.like(done, { status: 'completed', offline: false, steps: 3 });

    const nodes = (await again.request('GET', `${base}/demo/executions/${id}/nodes`)).body.nodes as Array<{ id: string }>;
    const ids = nodes.map((node) => node.id);
    t.is(new Set(ids).size, ids.length, 'no node twice');
    t.is((await again.request('GET', `${base}/sessions/${id}`)).body.node_count, ids.length);
    for (const step of [0, 1, 2]) t.true(ids.includes(`step-${step}-out`), `step ${step} has its output`);
    const terminals = (await again.request('GET', `${base}/demo/executions/${id}/terminals`)).body.terminals;
    t.is(terminals[1].output, 'one\ntwo\n', 'the interrupted step ran again in the same workspace');
    t.regex(terminals[2].output, /one\.txt\ntwo\.txt/);
    t.is(readFileSync(join(workspace, 'two.txt'), 'utf8'), 'two\n');
    t.is(model.requests.length, 1, 'the plan recorded before the crash is reused, not asked for again');
    second.child.kill('SIGTERM');
    await second.exited;
  } finally {
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  }
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { runSandboxed, sandboxProblem } from './bwrap.ts';

const problem = await sandboxProblem();
const sandboxed = problem === null ? test : test.skip;
if (problem !== null) console.log(`sandbox tests skipped: ${problem}`);

const workspace = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-test-'));
  return { dir, [Symbol.dispose]: () => rmSync(dir, { recursive: true, force: true }) };
};
const limits = { timeoutMs: 5000, memoryBytes: 256 * 1024 * 1024, maxOutputBytes: 1000 };

sandboxed('the workspace is the only writable path, and it is where the command starts', async (t) => {
  using ws = workspace();
  const result = await runSandboxed(ws.dir, 'pwd; echo hi > made.txt; touch /usr/x || echo refused; touch /etc/x || echo refused', limits);
  t.is(result.exitCode, 0);
  t.regex(result.output, /^\/workspace\n/);
  t.is(result.output.match(/refused/g)?.length, 2);
  t.is(readFileSync(join(ws.dir, 'made.txt'), 'utf8'), 'hi\n');
});

sandboxed('there is no network', async (t) => {
  using ws = workspace();
  const result = await runSandboxed(ws.dir, "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '", limits);
  t.is(result.output, 'lo\n', 'only the loopback interface of a namespace of its own');
});

sandboxed('time, memory and output are bounded', async (t) => {
  using ws = workspace();
  t.true((await runSandboxed(ws.dir, 'sleep 30', { ...limits, timeoutMs: 300 })).timedOut);
  const flood = await runSandboxed(ws.dir, 'yes | head -c 100000', limits);
  t.true(flood.truncated);
  t.is(flood.output.length, 1000);
  const hungry = await runSandboxed(ws.dir, 'python3 -c "x = bytearray(600*1024*1024)" 2>&1 || echo no-memory', limits);
  t.regex(hungry.output, /MemoryError|no-memory|Cannot allocate/);
});

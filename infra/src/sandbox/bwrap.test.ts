import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { Sandbox, SANDBOX_LIMITS, SandboxUnavailable, UnrunnableCommand } from './bwrap.ts';

const problem = await new Sandbox().problem();
const sandboxed = problem === null ? test : test.skip;
if (problem !== null) console.log(`sandbox tests skipped: ${problem.message}`);

const workspace = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-test-'));
  return { dir, [Symbol.dispose]: () => rmSync(dir, { recursive: true, force: true }) };
};
const sandbox = new Sandbox({ limits: { timeoutMs: 5000, memoryBytes: 256 * 1024 * 1024, maxOutputBytes: 1000, processes: 16 } });

sandboxed('the workspace is the only writable path, and it is where the command starts', async (t) => {
  using ws = workspace();
  const result = await sandbox.run(ws.dir, 'pwd; echo hi > made.txt; touch /usr/x || echo refused; touch /etc/x || echo refused', {});
  t.is(result.exitCode, 0);
  t.is(result.limit, null);
  t.regex(result.output, /^\/workspace\n/);
  t.is(result.output.match(/refused/g)?.length, 2);
  t.is(readFileSync(join(ws.dir, 'made.txt'), 'utf8'), 'hi\n');
});

sandboxed('there is no network', async (t) => {
  using ws = workspace();
  const result = await sandbox.run(ws.dir, "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '");
  t.is(result.output, 'lo\n', `only the loopback interface of a namespace of its own: ${JSON.stringify(result)}`);
});

test('a command with a NUL is refused before anything runs, even where bwrap is missing', async (t) => {
  using ws = workspace();
  for (const candidate of [sandbox, new Sandbox({ bwrapPath: join(ws.dir, 'no-bwrap') })]) {
    await t.throwsAsync(candidate.run(ws.dir, 'echo made > made.txt\0; echo more'), { instanceOf: UnrunnableCommand });
  }
  t.throws(() => readFileSync(join(ws.dir, 'made.txt')), { code: 'ENOENT' });
});

test('the limits are the named constants unless a caller narrows them', (t) => {
  t.deepEqual(new Sandbox().limits, { timeoutMs: 10_000, maxOutputBytes: 65_536, memoryBytes: 536_870_912, processes: 64, diskBytes: 67_108_864, entries: 10_000, tmpBytes: 67_108_864 });
  t.deepEqual(SANDBOX_LIMITS, new Sandbox().limits);
});

sandboxed('a command past the time limit is killed, with what it printed before', async (t) => {
  using ws = workspace();
  const started = Date.now();
  const result = await new Sandbox({ limits: { timeoutMs: 300 } }).run(ws.dir, 'echo begun; sleep 30; echo never');
  t.is(result.limit, 'time');
  t.is(result.output, 'begun\n');
  t.true(Date.now() - started < 5000, 'stopped at the limit, not when the command would have ended');
});

sandboxed('a command past the output limit is killed and keeps exactly the limit', async (t) => {
  using ws = workspace();
  const started = Date.now();
  const result = await sandbox.run(ws.dir, 'yes');
  t.is(result.limit, 'output');
  t.is(result.output.length, 1000);
  t.true(Date.now() - started < 5000, 'an endless writer is stopped at once, not at the time limit');
});

sandboxed('a command past the memory limit is refused its allocation and stopped', async (t) => {
  using ws = workspace();
  const result = await sandbox.run(ws.dir, 'python3 -c "x = bytearray(600*1024*1024); print(\'allocated\')"');
  t.is(result.limit, 'memory', JSON.stringify(result));
  t.notRegex(result.output, /allocated/);
  t.not(result.exitCode, 0);
});

sandboxed('node runs inside the memory bound (it reserves far more address space than it uses), and node past it is stopped', async (t) => {
  using ws = workspace();
  const roomy = new Sandbox();
  const ran = await roomy.run(ws.dir, `node -e "console.log(require('node:os').platform())"`);
  t.is(ran.output, 'linux\n', JSON.stringify(ran));
  t.is(ran.limit, null);
  const greedy = await roomy.run(ws.dir, 'node -e "const kept = []; for (;;) kept.push(Buffer.alloc(64 * 1024 * 1024, 1))"');
  t.is(greedy.limit, 'memory', JSON.stringify(greedy).slice(0, 400));
  t.not(greedy.exitCode, 0);
});

sandboxed('a command past the process limit cannot fork and is stopped', async (t) => {
  using ws = workspace();
  const started = Date.now();
  const result = await sandbox.run(ws.dir, 'i=0; while [ $i -lt 100 ]; do sleep 20 & i=$((i+1)); done; wait');
  t.is(result.limit, 'processes');
  t.regex(result.output, /fork/i);
  t.true(Date.now() - started < 5000, 'stopped when a fork was refused, not at the time limit');
});

sandboxed('an abort stops a running command', async (t) => {
  using ws = workspace();
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 200);
  const result = await sandbox.run(ws.dir, 'sleep 30', { signal: controller.signal });
  t.is(result.limit, 'stopped');
});

test('a missing bwrap is a coded problem and the command is not run at all', async (t) => {
  using ws = workspace();
  const missing = new Sandbox({ bwrapPath: join(ws.dir, 'no-such-bwrap') });
  const found = await missing.problem();
  t.true(found instanceof SandboxUnavailable);
  t.is(found?.kind, 'missing');
  t.regex(found!.reason, /not installed/);
  const error = await t.throwsAsync(missing.run(ws.dir, 'touch ran'), { instanceOf: SandboxUnavailable });
  t.is(error?.kind, 'missing');
  t.throws(() => readFileSync(join(ws.dir, 'ran')), undefined, 'nothing ran unsandboxed');
});

sandboxed('a bwrap that cannot create user namespaces is refused, and the command is not run', async (t) => {
  using ws = workspace();
  // A real bwrap inside a user namespace that forbids further ones (`--disable-userns`), as
  // on a kernel with unprivileged user namespaces turned off: the kernel refuses, not a stub.
  const wrapper = join(ws.dir, 'bwrap-without-userns');
  writeFileSync(wrapper, '#!/bin/sh\nexec /usr/bin/bwrap --unshare-user --uid 65534 --gid 65534 --disable-userns --dev-bind / / -- /usr/bin/bwrap "$@"\n');
  chmodSync(wrapper, 0o755);
  chmodSync(ws.dir, 0o755);
  const refused = new Sandbox({ bwrapPath: wrapper });
  const found = await refused.problem();
  t.is(found?.kind, 'refused');
  t.regex(found!.reason, /namespace/i);
  const error = await t.throwsAsync(refused.run(ws.dir, 'touch ran'), { instanceOf: SandboxUnavailable });
  t.is(error?.kind, 'refused');
  t.throws(() => readFileSync(join(ws.dir, 'ran')), undefined, 'nothing ran unsandboxed');
});

const small = new Sandbox({ limits: { diskBytes: 8 * 1024 * 1024, entries: 500, tmpBytes: 4 * 1024 * 1024, timeoutMs: 8000 } });

sandboxed('one file past the disk limit is stopped at the limit, and the workspace holds no more than it', async (t) => {
  using ws = workspace();
  const result = await small.run(ws.dir, 'head -c 100000000 /dev/zero > big; echo after');
  t.is(result.limit, 'disk', JSON.stringify(result));
  t.true(readFileSync(join(ws.dir, 'big')).length <= 8 * 1024 * 1024);
});

sandboxed('many files past the disk limit together are stopped, and so are too many empty ones', async (t) => {
  using ws = workspace();
  const bytes = await small.run(ws.dir, 'i=0; while true; do head -c 1000000 /dev/zero > f$i; i=$((i+1)); done');
  t.is(bytes.limit, 'disk', JSON.stringify(bytes));
  using other = workspace();
  const entries = await small.run(other.dir, 'i=0; while true; do : > e$i; i=$((i+1)); done');
  t.is(entries.limit, 'disk', JSON.stringify(entries));
});

sandboxed('the private /tmp is bounded: a command that fills it is stopped', async (t) => {
  using ws = workspace();
  const result = await small.run(ws.dir, 'for i in 1 2 3 4 5 6; do head -c 1000000 /dev/zero > /tmp/t$i || exit 1; done; echo fitted');
  t.is(result.limit, 'disk', JSON.stringify(result));
  t.notRegex(result.output, /fitted/);
});

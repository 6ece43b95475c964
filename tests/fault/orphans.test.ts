import test from 'ava';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { owned } from '../support/children.ts';
import { until } from '../support/readModels.ts';

/** Running, not a zombie: a re-parented process that exits may wait for a reaper that never comes. */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

// A test process killed outright (SIGKILL: no handler of its own runs) must not leave its server behind.
test('a product server stops when the test process that started it is killed', async (t) => {
  const parent = owned(spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./orphan-parent.ts', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] }));
  const [line] = (await once(createInterface({ input: parent.stdout! }), 'line')) as [string];
  const server = Number(line);
  t.true(alive(server));
  parent.kill('SIGKILL');
  await once(parent, 'exit');
  await until('the orphaned server to stop', 60_000, async () => !alive(server));
  t.false(alive(server));
});

// AVA ends a file's process with a signal when it times out: what the file started goes with it.
test('a test process ended by SIGTERM kills the children it owns and runs the cleanups it registered', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-cleanup-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const marker = join(dir, 'cleaned');
  const parent = owned(spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./cleanup-parent.ts', import.meta.url)), marker], { stdio: ['ignore', 'pipe', 'inherit'] }));
  const [line] = (await once(createInterface({ input: parent.stdout! }), 'line')) as [string];
  const child = Number(line);
  t.true(alive(child));
  parent.kill('SIGTERM');
  await once(parent, 'exit');
  t.true(existsSync(marker), 'the cleanup ran');
  await until('the owned child to stop', 60_000, async () => !alive(child));
  t.false(alive(child));
});


import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { sweepWorkspaces, useWorkspace } from './workspaces.ts';

const HOUR = 3_600_000;

test('workspaces unused past the retention are removed with their files; one used within it stays, and using one renews it', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'workspaces-test-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const now = new Date('2026-11-29T12:00:00Z');
  const old = useWorkspace(root, 'old', now);
  writeFileSync(join(old, 'big'), 'x'.repeat(1000));
  useWorkspace(root, 'old', new Date(now.getTime() - 2 * HOUR));
  useWorkspace(root, 'recent', new Date(now.getTime() - HOUR / 2));
  const renewed = useWorkspace(root, 'renewed', new Date(now.getTime() - 3 * HOUR));
  useWorkspace(root, 'renewed', now);
  t.deepEqual(sweepWorkspaces(root, HOUR, now), ['old']);
  t.false(existsSync(old));
  t.true(existsSync(join(root, 'recent')));
  t.true(existsSync(renewed));
  t.deepEqual(sweepWorkspaces(join(root, 'absent'), HOUR, now), [], 'no root yet is nothing to sweep');
  utimesSync(renewed, new Date(0), new Date(0));
  t.deepEqual(sweepWorkspaces(root, HOUR, now), ['renewed']);
});

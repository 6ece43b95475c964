import { mkdirSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Sandbox workspaces kept for a while after their last use, then removed: each is a directory under
 * one root whose modification time `useWorkspace` renews whenever a command is about to run in it.
 */
export function useWorkspace(root: string, name: string, now: Date): string {
  const workspace = join(root, name);
  mkdirSync(workspace, { recursive: true });
  utimesSync(workspace, now, now);
  return workspace;
}

/** Removes the workspaces under `root` not used for `retentionMs`; answers the names removed. One that cannot be removed now is tried again next time. */
export function sweepWorkspaces(root: string, retentionMs: number, now: Date): string[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names.filter((name) => {
    const path = join(root, name);
    try {
      if (now.getTime() - statSync(path).mtimeMs <= retentionMs) return false;
      rmSync(path, { recursive: true, force: true });
      return true;
    } catch {
      return false;
    }
  });
}

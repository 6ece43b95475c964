import type { ChildProcess } from 'node:child_process';

/**
 * Every process a test file starts, so none outlives it: killed when the test process exits, is
 * terminated (AVA's timeout) or interrupted. A process killed with SIGKILL runs none of this, so
 * the product also watches its parent (`EXIT_WITH_PARENT_PID`, see `withParentWatch`).
 */
const children = new Set<ChildProcess>();
/** Ends what a test started that is no child of this process (a daemon, such as a tmux server). */
const cleanups = new Set<() => void>();

function killAll(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const cleanup of cleanups) cleanup();
}

process.once('exit', killAll);
for (const [signal, number] of [['SIGTERM', 15], ['SIGINT', 2], ['SIGHUP', 1]] as const) {
  process.once(signal, () => {
    killAll();
    process.exit(128 + number);
  });
}

/** Registers a child to be killed with this process; returns it. */
export function owned<C extends ChildProcess>(child: C): C {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/**
 * Registers a synchronous `cleanup` to run when this process ends, however it ends (short of
 * SIGKILL); returns it wrapped to run once, for the test's teardown to call first.
 */
export function ownedCleanup(cleanup: () => void): () => void {
  const once = () => {
    if (cleanups.delete(once)) cleanup();
  };
  cleanups.add(once);
  return once;
}

/** The environment that makes a product process stop when this one is gone, however it ends. */
export const withParentWatch = (): Record<string, string> => ({ EXIT_WITH_PARENT_PID: String(process.pid) });

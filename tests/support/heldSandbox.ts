import { Sandbox, type SandboxResult } from '@scriptorium/infra/sandbox/bwrap';

/** Runs nothing: each command waits until `release` (from then on none waits), or its job is aborted. */
export class HeldSandbox extends Sandbox {
  readonly running = new Set<string>();
  private readonly waiting: Array<() => void> = [];
  private released = false;

  override run(workspace: string, _command: string, options: { signal?: AbortSignal } = {}): Promise<SandboxResult> {
    if (this.released) return Promise.resolve({ exitCode: 0, output: '', limit: null });
    this.running.add(workspace);
    return new Promise((resolve) => {
      const done = (limit: SandboxResult['limit']) => {
        this.running.delete(workspace);
        resolve({ exitCode: 0, output: '', limit });
      };
      options.signal?.addEventListener('abort', () => done('stopped'), { once: true });
      this.waiting.push(() => done(null));
    });
  }

  release(): void {
    this.released = true;
    for (const go of this.waiting.splice(0)) go();
  }
}

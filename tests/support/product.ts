import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Product {
  child: ChildProcess;
  url: string;
  /** Resolves when the process has exited (attached at start, so an early exit is not missed). */
  exited: Promise<number | null>;
}

/** `npm start`'s server as a separate process (all roles, embedded adapters) on a free port. */
export function startProduct(dataDir: string, env: Record<string, string> = {}): Promise<Product> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'backend/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', LLM_BASE_URL: '', REDIS_URL: '', TIME_ZONE: 'UTC', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const match = /listening on http:\/\/localhost:(\d+)/.exec(buffer);
      if (match) {
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve({ child, url: `http://127.0.0.1:${match[1]}`, exited });
      }
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => reject(new Error(`product exited with ${code} before listening`)));
  });
}

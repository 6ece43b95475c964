import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { owned, withParentWatch } from './children.ts';
import { MINIMUM_PASSWORD_COST, type PasswordCost } from '@scriptorium/infra/auth/passwordCost';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The configuration variables that set a password hash cost. */
export const passwordCostEnv = (cost: PasswordCost) => ({ PASSWORD_HASH_MEMORY_KIB: String(cost.memoryKib), PASSWORD_HASH_PASSES: String(cost.passes) });

/**
 * The suites register and sign in hundreds of accounts: at OWASP's floor for argon2id (the lowest
 * cost the configuration takes) a hash costs a fifth of the default's. The default cost has its own
 * test (infra/src/auth/passwords.test.ts) and the load bench signs in at it.
 */
export const TEST_PASSWORD_COST = passwordCostEnv(MINIMUM_PASSWORD_COST);

/**
 * What a product process under test runs with besides: the cheap hash, and plans that start at once
 * (the countdown is the reader's time to edit; the plan suites set one where they test it).
 */
const TEST_DEFAULTS = { ...TEST_PASSWORD_COST, PLAN_COUNTDOWN_SECONDS: '0' };

export interface Product {
  child: ChildProcess;
  url: string;
  /** Resolves when the process has exited (attached at start, so an early exit is not missed). */
  exited: Promise<number | null>;
}

/**
 * `npm start`'s server as a separate process (all roles, embedded adapters) on a free port. The
 * external services CI exports for the suites that want them are cleared, so this process keeps its
 * log and read models in `dataDir` and shares nothing with the processes of other tests.
 */
export function startProduct(dataDir: string, env: Record<string, string> = {}, options: { wrap?: (argv: string[]) => string[] } = {}): Promise<Product> {
  // `wrap` runs the server under another command (a private mount namespace, say) that execs it.
  const [command, ...args] = (options.wrap ?? ((argv) => argv))([process.execPath, '--import', 'tsx', 'backend/src/main.ts']);
  const child = owned(spawn(command!, args, {
    cwd: ROOT,
    env: { ...process.env, ...withParentWatch(), DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', LLM_BASE_URL: '', REDIS_URL: '', DATABASE_URL: '', EVENTSTORE_URL: '', MONGO_URL: '', SMTP_URL: '', SEARCH_URL: '', TIME_ZONE: 'UTC', ...TEST_DEFAULTS, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  }));
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

/**
 * The environment of the roles run as separate processes on PostgreSQL and BullMQ/Redis, as the
 * scale-out deployment runs them: one scratch database, queue prefix and data directory shared by
 * every role, the model at `modelUrl`, and no EventStoreDB or MongoDB whatever CI exports.
 */
export const scaleOutEnv = (options: { databaseUrl: string; redisUrl: string; queuePrefix: string; dataDir: string; modelUrl: string; model: string }) => ({
  DATABASE_URL: options.databaseUrl,
  REDIS_URL: options.redisUrl,
  QUEUE_PREFIX: options.queuePrefix,
  DATA_DIR: options.dataDir,
  JWT_SECRET: randomUUID() + randomUUID(),
  LLM_BASE_URL: options.modelUrl,
  LLM_MODEL: options.model,
  EVENTSTORE_URL: '',
  MONGO_URL: '',
});

export interface RoleProcess {
  child: ChildProcess;
  /** Set for the api role. */
  url?: string;
  /** Everything the process printed on stdout so far (pino JSON lines). */
  output(): string;
  exited: Promise<number | null>;
}

/**
 * One role (`--role api|projector|worker`) as its own process. An api resolves once it listens; the
 * other roles at once, since they have nothing to listen on.
 */
export function startRole(role: 'api' | 'projector' | 'worker', env: Record<string, string>): Promise<RoleProcess> {
  const child = owned(spawn(process.execPath, ['--import', 'tsx', 'backend/src/main.ts', '--role', role], {
    cwd: ROOT,
    env: { ...process.env, ...withParentWatch(), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', TIME_ZONE: 'UTC', ...TEST_DEFAULTS, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  }));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => (buffer += chunk.toString()));
  const process_: RoleProcess = { child, output: () => buffer, exited };
  if (role !== 'api') return Promise.resolve(process_);
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = /listening on http:\/\/localhost:(\d+)/.exec(buffer);
      if (!match) return;
      child.stdout!.off('data', check);
      resolve({ ...process_, url: `http://127.0.0.1:${match[1]}` });
    };
    child.stdout!.on('data', check);
    void exited.then((code) => reject(new Error(`${role} exited with ${code} before listening`)));
  });
}

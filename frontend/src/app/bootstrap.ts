import { createActor } from 'xstate';
import { socketClient } from '../api/socket.ts';
import { bootstrapMachine, type BootstrapTask } from '../machines/bootstrap.ts';
import { auth, verify } from './auth/index.ts';
import { authStatus } from './auth/machine.ts';

/** Spec §4: paths where the real-time connection is never opened at startup. */
const REALTIME_EXCLUDED: ReadonlySet<string> = new Set(['/login', '/register', '/welcome', '/auth', '/error', '/']);

export const realtimeApplies = (path: string): boolean => !REALTIME_EXCLUDED.has(path) && (path === '/research' || path.startsWith('/research/'));

const tasks: BootstrapTask[] = [
  {
    id: 'auth',
    timeoutMs: 10_000,
    retries: 2,
    // Only a stored token needs checking; a 401 is an answer, not a failure to retry.
    run: async () => {
      if (authStatus(auth.getSnapshot()) !== 'pending') return;
      await verify().catch(() => undefined);
    },
  },
  {
    id: 'realtime',
    dependsOn: ['auth'],
    appliesTo: realtimeApplies,
    timeoutMs: 15_000,
    retries: 2,
    // The connection requires authentication; a visitor without an account simply has none. Asking
    // anyway failed at once and was retried with backoff, holding a signed-out /research for seconds.
    optional: true,
    run: async () => {
      if (authStatus(auth.getSnapshot()) === 'authenticated') await socketClient.connect();
    },
  },
];

export const bootstrap = createActor(bootstrapMachine, { input: { tasks } }).start();

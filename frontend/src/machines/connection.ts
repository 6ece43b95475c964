import { assign, fromCallback, sendTo, setup, type SnapshotFrom } from 'xstate';
import { CLOSE_ACCOUNT_INACTIVE, CLOSE_UNAUTHORIZED } from '@scriptorium/domain/protocol/socketCodes';

/** Spec §4 and §9: reconnect 2 s × 1.5ⁿ capped at 30 s, at most 10 attempts. */
export const RECONNECT_BASE_MS = 2_000;
export const RECONNECT_FACTOR = 1.5;
export const RECONNECT_CAP_MS = 30_000;
export const MAX_RECONNECT_ATTEMPTS = 10;
/** A connecting socket not open within this is abandoned and retried. */
export const CONNECT_TIMEOUT_MS = 5_000;
/** Heartbeats arrive every 3 s; 8 s of grace on top before the socket is presumed dead. */
export const HEARTBEAT_WATCHDOG_MS = 3_000 + 8_000;
/** Normal closure and going away are deliberate ends: reconnecting would fight the server. */
export const FINAL_CLOSE_CODES: ReadonlySet<number> = new Set([1000, 1001]);

export const reconnectDelay = (attempt: number): number => Math.min(RECONNECT_BASE_MS * RECONNECT_FACTOR ** attempt, RECONNECT_CAP_MS);

export type ConnectionEvent =
  | { type: 'connection.connect' }
  | { type: 'connection.disconnect' }
  | { type: 'socket.opened' }
  | { type: 'socket.closed'; code: number; tokenReplaced?: boolean }
  | { type: 'socket.error' }
  | { type: 'socket.message'; data: unknown }
  | { type: 'socket.send'; data: unknown };

export interface ConnectionContext {
  /** Reconnect attempts made since the last successful open. */
  attempts: number;
  /** Set by a manual disconnect or a final close code; cleared by an explicit connect. */
  stopped: boolean;
}

/**
 * The socket itself lives in an invoked callback actor so leaving the live states closes it. The
 * default does nothing; the socket client provides the real WebSocket, tests a fake.
 */
const socketLogic = fromCallback<{ type: 'socket.send'; data: unknown }>(() => undefined);

export const connectionMachine = setup({
  types: {
    context: {} as ConnectionContext,
    events: {} as ConnectionEvent,
  },
  actors: { socket: socketLogic },
  delays: {
    reconnectDelay: ({ context }) => reconnectDelay(context.attempts),
    connectTimeout: CONNECT_TIMEOUT_MS,
    heartbeatWatchdog: HEARTBEAT_WATCHDOG_MS,
  },
  guards: {
    isFinalClose: ({ event }) => event.type === 'socket.closed' && FINAL_CLOSE_CODES.has(event.code),
    // The server refused the sign-in (at connect, or later: logout, deactivation, password change,
    // expiry): the same token would be refused again, so the user signs in instead of a retry loop.
    // A sign-in this browser has already replaced (a password change) ends without signing out: the
    // reconnect carries the new token.
    isSignedOut: ({ event }) => event.type === 'socket.closed' && event.code === CLOSE_UNAUTHORIZED && event.tokenReplaced !== true,
    // Deactivated: the sign-in holds, but a retry would be closed again until an administrator acts.
    isAccountInactive: ({ event }) => event.type === 'socket.closed' && event.code === CLOSE_ACCOUNT_INACTIVE,
    isStopped: ({ context }) => context.stopped,
    attemptsExhausted: ({ context }) => context.attempts >= MAX_RECONNECT_ATTEMPTS,
  },
  actions: {
    start: assign({ attempts: 0, stopped: false }),
    stop: assign({ stopped: true }),
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1 }),
    resetAttempts: assign({ attempts: 0 }),
    forward: sendTo('socket', ({ event }) => event as { type: 'socket.send'; data: unknown }),
    // Effects the socket client provides: they talk to sessions, not to the state of the connection.
    resubscribe: () => undefined,
    deliver: (_, _params: { data: unknown }) => undefined,
    connectionLost: () => undefined,
    signedOut: () => undefined,
    accountInactive: () => undefined,
  },
}).createMachine({
  id: 'connection',
  // Stopped until someone asks to connect: a fresh machine must not dial on its own.
  context: { attempts: 0, stopped: true },
  initial: 'disconnected',
  states: {
    disconnected: {
      initial: 'deciding',
      on: { 'connection.connect': { target: 'live', actions: 'start' } },
      states: {
        deciding: {
          always: [
            { guard: 'isStopped', target: 'idle' },
            { guard: 'attemptsExhausted', target: '#connection.failed' },
            { target: 'waiting' },
          ],
        },
        idle: {},
        waiting: {
          after: { reconnectDelay: { target: '#connection.live', actions: 'countAttempt' } },
          on: { 'connection.disconnect': { target: 'idle', actions: 'stop' } },
        },
      },
    },
    live: {
      invoke: { id: 'socket', src: 'socket' },
      initial: 'connecting',
      on: {
        'connection.disconnect': { target: 'disconnected', actions: ['stop', 'connectionLost'] },
        'socket.closed': [
          { guard: 'isSignedOut', target: 'disconnected', actions: ['stop', 'connectionLost', 'signedOut'] },
          { guard: 'isAccountInactive', target: 'disconnected', actions: ['stop', 'connectionLost', 'accountInactive'] },
          { guard: 'isFinalClose', target: 'disconnected', actions: ['stop', 'connectionLost'] },
          { target: 'disconnected', actions: 'connectionLost' },
        ],
        'socket.error': { target: 'disconnected', actions: 'connectionLost' },
      },
      states: {
        connecting: {
          after: { connectTimeout: '#connection.disconnected' },
          on: { 'socket.opened': 'connected' },
        },
        connected: {
          entry: ['resetAttempts', 'resubscribe'],
          initial: 'watching',
          on: { 'socket.send': { actions: 'forward' } },
          states: {
            watching: {
              after: { heartbeatWatchdog: { target: '#connection.disconnected', actions: 'connectionLost' } },
              // Any message proves the socket alive; re-entering restarts the watchdog.
              on: { 'socket.message': { target: 'watching', reenter: true, actions: { type: 'deliver', params: ({ event }) => ({ data: event.data }) } } },
            },
          },
        },
      },
    },
    failed: {
      on: { 'connection.connect': { target: 'live', actions: 'start' } },
    },
  },
});

export type ConnectionStatus = 'disconnected' | 'connecting' | 'connected' | 'failed';

/** The spec's four connection states, read from the machine's nested ones. */
export function connectionStatus(snapshot: SnapshotFrom<typeof connectionMachine>): ConnectionStatus {
  if (snapshot.matches({ live: 'connected' })) return 'connected';
  if (snapshot.matches({ live: 'connecting' })) return 'connecting';
  if (snapshot.matches('failed')) return 'failed';
  return 'disconnected';
}

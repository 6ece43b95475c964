import { assign, fromCallback, sendTo, setup, type SnapshotFrom } from 'xstate';
import { COLLAB_PING_MS, COLLAB_PRESENCE_THROTTLE_MS, type CollabAccess, type CollabPeer, type CollabSelection } from '@scriptorium/domain/protocol/collab';
import { CLOSE_ACCOUNT_INACTIVE, CLOSE_NOT_FOUND, CLOSE_REMOVED, CLOSE_UNAUTHORIZED } from '@scriptorium/domain/protocol/ws';
import { CONNECT_TIMEOUT_MS, HEARTBEAT_WATCHDOG_MS, MAX_RECONNECT_ATTEMPTS, reconnectDelay } from './connection.ts';

/** A refusal shown beside the editor, by its catalogue code. */
export interface CollabRefusal {
  code: string;
  params?: Record<string, string | number>;
}

export type CollabEvent =
  | { type: 'collab.open' }
  | { type: 'collab.ready'; version: number; access: CollabAccess; session: string }
  | { type: 'collab.steps'; version: number; steps: unknown[]; clientId: string }
  | { type: 'collab.accepted'; version: number }
  | { type: 'collab.rejected'; version: number; code: string; params?: Record<string, string | number> }
  | { type: 'collab.presence'; peers: CollabPeer[] }
  /** The owner renamed the document. */
  | { type: 'collab.renamed'; title: string }
  /** Our role changed while connected (an edit link, or the owner's change). */
  | { type: 'collab.access'; access: CollabAccess }
  | { type: 'collab.heartbeat' }
  | { type: 'collab.closed'; code: number }
  /** The editor holds steps not yet confirmed (prosemirror-collab's `sendableSteps`): the batch to submit. */
  | { type: 'collab.changed'; version: number; steps: unknown[]; clientId: string }
  | { type: 'collab.select'; version: number; selection: CollabSelection | null }
  | { type: 'collab.offline' }
  | { type: 'collab.online' }
  | { type: 'collab.retry' };

export interface CollabContext {
  attempts: number;
  /** Nothing is submitted until the editor reaches this version: what the last answer said the server stands on. */
  waitFor: number;
  access: CollabAccess | null;
  /** Our own presence entry, so the editor does not draw its own cursor. */
  session: string | null;
  peers: CollabPeer[];
  /** Our selection as last said by the editor, sent once the presence throttle lets it go. */
  selection: { version: number; selection: CollabSelection | null } | null;
  refusal: CollabRefusal | null;
  /** The title as last renamed while connected; null until then. */
  title: string | null;
  /** Why the socket is closed for good: the document is gone for this user, the owner removed them (or they left), or the sign-in is gone. */
  closedBy: 'not_found' | 'removed' | 'unauthorized' | null;
}

export type CollabSend = { type: 'collab.send'; data: unknown };

/**
 * One shared document's connection (prosemirror-collab's central-authority protocol): connecting,
 * live (idle, or one batch in flight until it is answered), offline (reconnecting 2 s × 1.5ⁿ), and
 * closed. The editor owns the ProseMirror state; the machine decides when a batch may go out: one at
 * a time, and only once the editor has caught up with the version the last answer named, so a
 * refused batch is resent after it was rebased on the steps it missed, never before.
 * A reconnect resumes from the editor's version (the socket actor reads it), so nothing is lost,
 * and the editor's own accepted steps come back by its client id, so nothing is doubled.
 */
export const collabMachine = setup({
  types: {
    context: {} as CollabContext,
    events: {} as CollabEvent,
  },
  actors: {
    // The live wiring opens the real WebSocket at the editor's version; tests use a fake.
    socket: fromCallback<CollabSend>(() => undefined),
  },
  delays: {
    connectTimeout: CONNECT_TIMEOUT_MS,
    heartbeatWatchdog: HEARTBEAT_WATCHDOG_MS,
    ping: COLLAB_PING_MS,
    presenceThrottle: COLLAB_PRESENCE_THROTTLE_MS,
    reconnectDelay: ({ context }) => reconnectDelay(context.attempts),
  },
  guards: {
    canSubmit: ({ context, event }) => event.type === 'collab.changed' && context.access !== 'read' && context.access !== null && event.version >= context.waitFor,
    notFound: ({ event }) => event.type === 'collab.closed' && event.code === CLOSE_NOT_FOUND,
    removed: ({ event }) => event.type === 'collab.closed' && event.code === CLOSE_REMOVED,
    unauthorized: ({ event }) => event.type === 'collab.closed' && (event.code === CLOSE_UNAUTHORIZED || event.code === CLOSE_ACCOUNT_INACTIVE),
    attemptsExhausted: ({ context }) => context.attempts >= MAX_RECONNECT_ATTEMPTS,
    readOnlyRefusal: ({ event }) => event.type === 'collab.rejected' && event.code === 'collab.read_only',
    /** The server failed on its side: reconnecting (with its backoff) resends the batch, rather than hammering it at once. */
    serverFailed: ({ event }) => event.type === 'collab.rejected' && event.code === 'socket.failed',
  },
  actions: {
    ready: assign(({ event }) => (event.type === 'collab.ready' ? { access: event.access, session: event.session, attempts: 0, waitFor: 0 } : {})),
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1 }),
    resetAttempts: assign({ attempts: 0 }),
    acceptedAt: assign({ waitFor: ({ context, event }) => (event.type === 'collab.accepted' ? event.version : context.waitFor) }),
    rejectedAt: assign(({ context, event }) => {
      if (event.type !== 'collab.rejected') return {};
      // Behind: wait for the missed steps. Anything else would be refused again as it is: keep it local.
      const waitFor = event.code === 'collab.version_behind' ? event.version : Number.POSITIVE_INFINITY;
      return { waitFor: Math.max(context.waitFor, waitFor), refusal: event.code === 'collab.version_behind' ? context.refusal : { code: event.code, ...(event.params && { params: event.params }) } };
    }),
    becomeReader: assign({ access: 'read' as const }),
    setPeers: assign({ peers: ({ context, event }) => (event.type === 'collab.presence' ? event.peers : context.peers) }),
    clearPeers: assign({ peers: [] as CollabPeer[] }),
    closedNotFound: assign({ closedBy: 'not_found' as const }),
    closedRemoved: assign({ closedBy: 'removed' as const }),
    rename: assign({ title: ({ context, event }) => (event.type === 'collab.renamed' ? event.title : context.title) }),
    // An editor made a reader stops at once; a reader made an editor may submit again, whatever was refused as read-only before.
    changeAccess: assign(({ context, event }) =>
      event.type === 'collab.access' && event.access !== 'read' ? { access: event.access, waitFor: Number.isFinite(context.waitFor) ? context.waitFor : 0, refusal: null } : event.type === 'collab.access' ? { access: event.access } : {},
    ),
    closedUnauthorized: assign({ closedBy: 'unauthorized' as const }),
    ping: sendTo('socket', { type: 'collab.send', data: { type: 'ping' } } satisfies CollabSend),
    keepSelection: assign({ selection: ({ context, event }) => (event.type === 'collab.select' ? { version: event.version, selection: event.selection } : context.selection) }),
    presence: sendTo('socket', ({ context }) => ({ type: 'collab.send', data: { type: 'collab.presence', version: context.selection?.version ?? 0, selection: context.selection?.selection ?? null } }) satisfies CollabSend),
    submit: sendTo('socket', ({ event }) => ({
      type: 'collab.send',
      data: event.type === 'collab.changed' ? { type: 'collab.steps', version: event.version, steps: event.steps, client_id: event.clientId } : { type: 'ping' },
    }) satisfies CollabSend),
    // Effects on the editor, provided by the live wiring.
    applySteps: (_, _params: { version: number; steps: unknown[]; clientId: string }) => undefined,
    /** Asks the editor to say again whether it holds sendable steps (it answers with `collab.changed`). */
    recheck: () => undefined,
  },
}).createMachine({
  id: 'collab',
  context: { attempts: 0, waitFor: 0, access: null, session: null, peers: [], selection: null, refusal: null, title: null, closedBy: null },
  initial: 'open',
  states: {
    // One socket for the whole stay: it opens in `connecting` and lives on through `live`.
    open: {
      invoke: { id: 'socket', src: 'socket' },
      initial: 'connecting',
      on: {
        'collab.closed': [
          { guard: 'notFound', target: 'closed', actions: 'closedNotFound' },
          { guard: 'removed', target: 'closed', actions: 'closedRemoved' },
          { guard: 'unauthorized', target: 'closed', actions: 'closedUnauthorized' },
          { target: 'offline' },
        ],
        'collab.offline': 'offline',
        'collab.select': { actions: 'keepSelection' },
      },
      states: {
        connecting: {
          after: { connectTimeout: '#collab.offline' },
          on: {
            'collab.ready': { target: 'live', actions: 'ready' },
            // What the socket missed comes before it is ready: the editor rebases on it straight away.
            'collab.steps': { actions: { type: 'applySteps', params: ({ event }) => ({ version: event.version, steps: event.steps, clientId: event.clientId }) } },
          },
        },
        live: {
          // Pending steps go out at once, and our selection is said (then at most every `COLLAB_PRESENCE_THROTTLE_MS` while it moves).
          entry: ['recheck', 'presence'],
          exit: 'clearPeers',
          type: 'parallel',
          states: {
            flow: {
              initial: 'idle',
              states: {
                idle: {
                  after: { ping: { target: 'idle', reenter: true, actions: 'ping' } },
                  on: { 'collab.changed': { guard: 'canSubmit', target: 'sending', actions: 'submit' } },
                },
                sending: {
                  on: {
                    'collab.accepted': { target: 'idle', actions: ['acceptedAt', 'recheck'] },
                    'collab.rejected': [
                      { guard: 'serverFailed', target: '#collab.offline' },
                      { guard: 'readOnlyRefusal', target: 'idle', actions: ['rejectedAt', 'becomeReader'] },
                      { target: 'idle', actions: ['rejectedAt', 'recheck'] },
                    ],
                  },
                },
              },
            },
            presence: {
              initial: 'quiet',
              states: {
                quiet: { on: { 'collab.select': { target: 'holding', actions: 'keepSelection' } } },
                holding: {
                  on: { 'collab.select': { actions: 'keepSelection' } },
                  after: { presenceThrottle: { target: 'quiet', actions: 'presence' } },
                },
              },
            },
            // Heartbeats come every 3 s: a socket silent past the watchdog is presumed dead, as in
            // `connection`. Every message restarts it; this region also applies what they carry.
            watch: {
              initial: 'watching',
              states: {
                watching: {
                  after: { heartbeatWatchdog: '#collab.offline' },
                  on: {
                    'collab.heartbeat': { target: 'watching', reenter: true },
                    'collab.steps': { target: 'watching', reenter: true, actions: { type: 'applySteps', params: ({ event }) => ({ version: event.version, steps: event.steps, clientId: event.clientId }) } },
                    'collab.presence': { target: 'watching', reenter: true, actions: 'setPeers' },
                    'collab.renamed': { target: 'watching', reenter: true, actions: 'rename' },
                    'collab.access': { target: 'watching', reenter: true, actions: ['changeAccess', 'recheck'] },
                    'collab.accepted': { target: 'watching', reenter: true },
                    'collab.rejected': { target: 'watching', reenter: true },
                  },
                },
              },
            },
          },
        },
      },
    },
    offline: {
      entry: 'countAttempt',
      always: { guard: 'attemptsExhausted', target: 'failed' },
      after: { reconnectDelay: 'open' },
      on: { 'collab.online': { target: 'open', actions: 'resetAttempts' }, 'collab.retry': { target: 'open', actions: 'resetAttempts' } },
    },
    failed: {
      on: { 'collab.retry': { target: 'open', actions: 'resetAttempts' }, 'collab.online': { target: 'open', actions: 'resetAttempts' } },
    },
    closed: { type: 'final' },
  },
});

export type CollabConnection = 'connecting' | 'live' | 'offline' | 'failed' | 'closed';

export function collabConnection(snapshot: SnapshotFrom<typeof collabMachine>): CollabConnection {
  if (snapshot.matches({ open: 'live' })) return 'live';
  if (snapshot.matches({ open: 'connecting' })) return 'connecting';
  if (snapshot.matches('failed')) return 'failed';
  if (snapshot.matches('closed')) return 'closed';
  return 'offline';
}

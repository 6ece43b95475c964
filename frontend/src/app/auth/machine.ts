import { assign, fromPromise, setup, waitFor, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { toClientUser, type ClientUser, type MeDto } from '../../api/user.ts';

/** How long `/auth/me` is trusted before a verification asks the server again. */
export const USER_CACHE_MS = 10_000;

/**
 * What the guard and the screens see:
 * - `pending`: a token is stored but its user is not loaded (the spec's "marked authenticated but
 *   has no id"); the guard verifies it before deciding.
 * - `expired`: verification just failed; token and user are gone and the guard sends the user to
 *   login once, then acknowledges it back to `anonymous`.
 */
export type AuthStatus = 'anonymous' | 'pending' | 'authenticated' | 'expired';

export interface AuthView {
  status: AuthStatus;
  user: ClientUser | null;
}

export interface AuthContext {
  user: ClientUser | null;
  /** Why the last sign-in or verification failed, handed to whoever awaited it. */
  error: unknown;
}

export type AuthEvent =
  | { type: 'auth.login'; username: string; password: string }
  | { type: 'auth.verify' }
  | { type: 'auth.logout' }
  /** The API client already removed the token after a 401 (or the socket's 4401). */
  | { type: 'auth.tokenRevoked' }
  /** The server says the account was deactivated (a 403, or the socket's 4423): the user is read again, and the guard takes them to the draft page. */
  | { type: 'auth.accountInactive' }
  | { type: 'auth.expiryAcknowledged' };

/**
 * The signed-in user. One actor per page (app/auth/index.ts): the API client (a 401 anywhere signs
 * the user out), the bootstrap task and the guard reach it outside React, screens through
 * `useSelector`. It has no retries or timeouts of its own: the bootstrap machine owns those and
 * asks it to verify.
 */
// Logging out and a token the server no longer accepts end the same way.
const signOut = { target: '#auth.anonymous', actions: ['clearToken', 'forgetUser'] } as const;

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
  },
  actors: {
    // The live wiring (app/auth/index.ts) provides the server calls.
    signIn: fromPromise<string, { username: string; password: string }>(() => Promise.reject(new Error('signing in is not available here'))),
    fetchUser: fromPromise<MeDto, void>(() => Promise.reject(new Error('no user here'))),
  },
  delays: {
    userCache: USER_CACHE_MS,
  },
  guards: {
    // The token lives in local storage (the live wiring), so a reload keeps the user signed in.
    hasToken: () => false,
  },
  actions: {
    storeToken: (_, _params: { token: string }) => undefined,
    clearToken: () => undefined,
    forgetUser: assign({ user: null }),
    forgetError: assign({ error: null }),
    takeUser: assign((_, me: MeDto) => ({ user: toClientUser(me) })),
    noteError: assign((_, params: { error: unknown }) => ({ error: params.error })),
  },
}).createMachine({
  id: 'auth',
  context: { user: null, error: null },
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'hasToken', target: 'pending' }, { target: 'anonymous' }],
    },
    anonymous: {
      on: {
        'auth.login': 'signingIn',
        'auth.verify': [{ guard: 'hasToken', target: 'verifying' }, { target: 'anonymous', actions: assign({ error: () => new Error('no stored token') }) }],
      },
    },
    expired: {
      on: {
        'auth.login': 'signingIn',
        'auth.expiryAcknowledged': 'anonymous',
        'auth.verify': { target: 'anonymous', actions: assign({ error: () => new Error('no stored token') }) },
      },
    },
    signingIn: {
      tags: 'busy',
      entry: 'forgetError',
      initial: 'credentials',
      states: {
        credentials: {
          invoke: {
            src: 'signIn',
            input: ({ event }) => (event.type === 'auth.login' ? { username: event.username, password: event.password } : { username: '', password: '' }),
            onDone: { target: 'user', actions: { type: 'storeToken', params: ({ event }) => ({ token: event.output }) } },
            // A refused sign-in stores nothing.
            onError: { target: '#auth.anonymous', actions: { type: 'noteError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        user: {
          invoke: {
            src: 'fetchUser',
            onDone: { target: '#auth.authenticated', actions: { type: 'takeUser', params: ({ event }) => event.output } },
            onError: { target: '#auth.anonymous', actions: ['clearToken', 'forgetUser', { type: 'noteError', params: ({ event }) => ({ error: event.error }) }] },
          },
        },
      },
    },
    pending: {
      on: {
        'auth.login': 'signingIn',
        'auth.verify': 'verifying',
        'auth.logout': signOut,
        'auth.tokenRevoked': signOut,
      },
    },
    verifying: {
      tags: 'busy',
      entry: 'forgetError',
      invoke: {
        src: 'fetchUser',
        onDone: { target: 'authenticated', actions: { type: 'takeUser', params: ({ event }) => event.output } },
        onError: { target: 'expired', actions: ['clearToken', 'forgetUser', { type: 'noteError', params: ({ event }) => ({ error: event.error }) }] },
      },
      // The failing call itself reports the 401 first; its failure decides (expired), not the echo.
      on: { 'auth.tokenRevoked': {} },
    },
    authenticated: {
      initial: 'fresh',
      on: {
        'auth.login': 'signingIn',
        'auth.logout': signOut,
        'auth.tokenRevoked': signOut,
        'auth.accountInactive': '.verifying',
      },
      states: {
        fresh: {
          after: { userCache: 'stale' },
        },
        stale: {
          on: { 'auth.verify': 'verifying' },
        },
        verifying: {
          tags: 'busy',
          entry: 'forgetError',
          invoke: {
            src: 'fetchUser',
            onDone: { target: 'fresh', actions: { type: 'takeUser', params: ({ event }) => event.output } },
            onError: { target: '#auth.expired', actions: ['clearToken', 'forgetUser', { type: 'noteError', params: ({ event }) => ({ error: event.error }) }] },
          },
          on: { 'auth.tokenRevoked': {} },
        },
      },
    },
  },
});

export type AuthRef = ActorRefFrom<typeof authMachine>;
export type AuthSnapshot = SnapshotFrom<typeof authMachine>;

export function authStatus(snapshot: AuthSnapshot): AuthStatus {
  if (snapshot.matches('authenticated')) return 'authenticated';
  if (snapshot.matches('pending') || snapshot.matches('verifying')) return 'pending';
  if (snapshot.matches('expired')) return 'expired';
  return 'anonymous';
}

export const authView = (snapshot: AuthSnapshot): AuthView => ({ status: authStatus(snapshot), user: snapshot.context.user });

export const sameView = (a: AuthView, b: AuthView): boolean => a.status === b.status && a.user === b.user;

/** The user once the actor settles, or why there is none. */
async function settled(auth: AuthRef): Promise<ClientUser> {
  const snapshot = await waitFor(auth, (candidate) => !candidate.hasTag('busy'));
  if (snapshot.matches('authenticated') && snapshot.context.user) return snapshot.context.user;
  throw snapshot.context.error ?? new Error('not signed in');
}

/** Signs in; the login and register pages await it to show why it failed. */
export function logIn(auth: AuthRef, username: string, password: string): Promise<ClientUser> {
  auth.send({ type: 'auth.login', username, password });
  return settled(auth);
}

/** Loads the user behind the stored token; concurrent callers share one request. */
export function verifyUser(auth: AuthRef): Promise<ClientUser> {
  auth.send({ type: 'auth.verify' });
  return settled(auth);
}

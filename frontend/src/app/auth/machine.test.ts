import test from 'ava';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import type { MeDto } from '../../api/user.ts';
import { authMachine, authStatus, logIn, USER_CACHE_MS, verifyUser, type AuthStatus } from './machine.ts';

const me: MeDto = {
  _id: 'u-1',
  id: 'u-1',
  username: 'lin',
  email: 'lin@example.com',
  nickname: '林',
  created_at: '2025-01-02T03:04:05Z',
  updated_at: '2025-01-02T03:04:05Z',
  is_active: true,
  is_admin: false,
  is_auditor: false,
  email_verified: false,
};

/** An auth actor over an in-memory token and counted server calls, on a simulated clock. */
function start(options: { token?: string; fetchMe?: () => Promise<MeDto>; login?: () => Promise<string> } = {}) {
  let token: string | null = options.token ?? null;
  let meCalls = 0;
  const clock = new SimulatedClock();
  const machine = authMachine.provide({
    actors: {
      signIn: fromPromise<string, { username: string; password: string }>(() => (options.login ? options.login() : Promise.resolve('tok-1'))),
      fetchUser: fromPromise<MeDto, void>(() => {
        meCalls += 1;
        return options.fetchMe ? options.fetchMe() : Promise.resolve(me);
      }),
    },
    guards: { hasToken: () => token !== null },
    actions: {
      storeToken: (_, params: { token: string }) => void (token = params.token),
      clearToken: () => void (token = null),
    },
  });
  const actor = createActor(machine, { clock }).start();
  return { actor, clock, token: () => token, meCalls: () => meCalls, status: () => authStatus(actor.getSnapshot()) };
}

test('starts anonymous without a token and pending with one', (t) => {
  t.true(start().actor.getSnapshot().matches('anonymous'));
  const stored = start({ token: 'stored' });
  t.true(stored.actor.getSnapshot().matches('pending'));
  t.is(stored.status(), 'pending');
});

test('login stores the token, then loads the client user', async (t) => {
  const { actor, token } = start();
  const user = await logIn(actor, 'lin', 'secret-pass');
  t.is(token(), 'tok-1');
  t.deepEqual(user, {
    id: 'u-1',
    username: 'lin',
    name: 'lin',
    nickname: '林',
    email: 'lin@example.com',
    created_at: '2025-01-02T03:04:05Z',
    updated_at: '2025-01-02T03:04:05Z',
    is_active: true,
    is_admin: false,
    is_auditor: false,
    email_verified: false,
  });
  t.true(actor.getSnapshot().matches('authenticated'));
  t.is(actor.getSnapshot().context.user, user);
});

test('while signing in the status stays anonymous, so the guard keeps the login form', (t) => {
  const { actor, status } = start({ login: () => new Promise<string>(() => undefined) });
  actor.send({ type: 'auth.login', username: 'lin', password: 'secret-pass' });
  t.true(actor.getSnapshot().matches({ signingIn: 'credentials' }));
  t.is(status(), 'anonymous');
});

test('a login whose user cannot be loaded clears token and user', async (t) => {
  const { actor, token } = start({ fetchMe: async () => Promise.reject(new Error('down')) });
  await t.throwsAsync(logIn(actor, 'lin', 'secret-pass'), { message: 'down' });
  t.is(token(), null);
  t.true(actor.getSnapshot().matches('anonymous'));
  t.is(actor.getSnapshot().context.user, null);
});

test('a refused login stores nothing', async (t) => {
  const { actor, token } = start({ login: async () => Promise.reject(new Error('401')) });
  await t.throwsAsync(logIn(actor, 'lin', 'wrong'), { message: '401' });
  t.is(token(), null);
  t.true(actor.getSnapshot().matches('anonymous'));
});

test('verify loads the user behind a stored token, sharing concurrent calls', async (t) => {
  const { actor, meCalls, status } = start({ token: 'stored' });
  const verifying = [verifyUser(actor), verifyUser(actor)];
  t.true(actor.getSnapshot().matches('verifying'));
  t.is(status(), 'pending');
  const [a, b] = await Promise.all(verifying);
  t.is(a, b);
  t.is(meCalls(), 1);
  t.true(actor.getSnapshot().matches('authenticated'));
});

test('a failed verification clears everything and is reported once as expired', async (t) => {
  const { actor, token } = start({ token: 'stale', fetchMe: async () => Promise.reject(new Error('401')) });
  await t.throwsAsync(verifyUser(actor), { message: '401' });
  t.is(token(), null);
  t.true(actor.getSnapshot().matches('expired'));
  t.is(actor.getSnapshot().context.user, null);
  actor.send({ type: 'auth.expiryAcknowledged' });
  t.true(actor.getSnapshot().matches('anonymous'));
});

test('the 401 the failing verification reports first does not hide the expiry', async (t) => {
  let reject: (error: Error) => void = () => undefined;
  const { actor } = start({ token: 'stale', fetchMe: () => new Promise<MeDto>((_, no) => (reject = no)) });
  const verifying = verifyUser(actor);
  actor.send({ type: 'auth.tokenRevoked' });
  reject(new Error('401'));
  await t.throwsAsync(verifying);
  t.true(actor.getSnapshot().matches('expired'));
});

test('the current user is cached for 10 s', async (t) => {
  const { actor, clock, meCalls } = start({ token: 'stored' });
  await verifyUser(actor);
  clock.increment(USER_CACHE_MS - 1);
  await verifyUser(actor);
  t.is(meCalls(), 1);
  t.true(actor.getSnapshot().matches({ authenticated: 'fresh' }));
  clock.increment(1);
  t.true(actor.getSnapshot().matches({ authenticated: 'stale' }));
  await verifyUser(actor);
  t.is(meCalls(), 2);
  t.true(actor.getSnapshot().matches({ authenticated: 'fresh' }));
});

test('logout and a revoked token sign out and tell subscribers', async (t) => {
  const { actor, token, status } = start();
  const seen: AuthStatus[] = [];
  actor.subscribe(() => {
    if (seen.at(-1) !== status()) seen.push(status());
  });
  await logIn(actor, 'lin', 'secret-pass');
  actor.send({ type: 'auth.logout' });
  t.is(token(), null);
  t.true(actor.getSnapshot().matches('anonymous'));
  t.is(actor.getSnapshot().context.user, null);
  await logIn(actor, 'lin', 'secret-pass');
  actor.send({ type: 'auth.tokenRevoked' });
  t.true(actor.getSnapshot().matches('anonymous'));
  t.deepEqual(seen, ['anonymous', 'authenticated', 'anonymous', 'authenticated', 'anonymous']);
});

test('login after logout does not reuse the cached user', async (t) => {
  const { actor, meCalls } = start();
  await logIn(actor, 'lin', 'secret-pass');
  actor.send({ type: 'auth.logout' });
  await logIn(actor, 'lin', 'secret-pass');
  t.is(meCalls(), 2);
});

test('an account deactivated while signed in is read again and kept signed in, so the guard can take it to the draft page', async (t) => {
  let active = true;
  const { actor, token, meCalls } = start({ fetchMe: async () => ({ ...me, is_active: active }) });
  await logIn(actor, 'lin', 'secret-pass');
  active = false;
  actor.send({ type: 'auth.accountInactive' });
  t.true(actor.getSnapshot().matches({ authenticated: 'verifying' }));
  await new Promise((resolve) => setTimeout(resolve, 0));
  t.true(actor.getSnapshot().matches({ authenticated: 'fresh' }));
  t.false(actor.getSnapshot().context.user?.is_active);
  t.is(token(), 'tok-1');
  t.is(meCalls(), 2);
});

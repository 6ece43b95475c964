import test from 'ava';
import type { TokenStore } from '../../api/token.ts';
import type { MeDto } from '../../api/user.ts';
import { AuthStore, USER_CACHE_MS, type AuthDeps } from './store.ts';

const me: MeDto = {
  _id: 'u-1',
  username: 'lin',
  email: 'lin@example.com',
  created_at: '2025-01-02T03:04:05Z',
  is_active: true,
  is_admin: false,
  email_verified: false,
};

function setup(options: { token?: string; fetchMe?: () => Promise<MeDto>; login?: () => Promise<string> } = {}) {
  let token: string | null = options.token ?? null;
  let clock = 1_000;
  let meCalls = 0;
  const tokens: TokenStore = { get: () => token, set: (value) => (token = value), clear: () => (token = null) };
  const deps: AuthDeps = {
    tokens,
    login: options.login ?? (async () => 'tok-1'),
    fetchMe: async () => {
      meCalls += 1;
      return options.fetchMe ? options.fetchMe() : me;
    },
    now: () => clock,
  };
  return {
    store: new AuthStore(deps),
    token: () => token,
    meCalls: () => meCalls,
    advance: (ms: number) => (clock += ms),
  };
}

test('starts anonymous without a token and pending with one', (t) => {
  t.is(setup().store.getSnapshot().status, 'anonymous');
  t.is(setup({ token: 'stored' }).store.getSnapshot().status, 'pending');
});

test('login stores the token, then loads the client user', async (t) => {
  const { store, token } = setup();
  const user = await store.login('lin', 'secret-pass');
  t.is(token(), 'tok-1');
  t.deepEqual(user, {
    id: 'u-1',
    username: 'lin',
    name: 'lin',
    email: 'lin@example.com',
    created_at: '2025-01-02T03:04:05Z',
    updated_at: '2025-01-02T03:04:05Z',
    is_active: true,
    is_admin: false,
    is_auditor: false,
    email_verified: false,
  });
  t.deepEqual(store.getSnapshot(), { status: 'authenticated', user });
});

test('a login whose user cannot be loaded clears token and user', async (t) => {
  const { store, token } = setup({ fetchMe: async () => Promise.reject(new Error('down')) });
  await t.throwsAsync(store.login('lin', 'secret-pass'), { message: 'down' });
  t.is(token(), null);
  t.deepEqual(store.getSnapshot(), { status: 'anonymous', user: null });
});

test('a refused login stores nothing', async (t) => {
  const { store, token } = setup({ login: async () => Promise.reject(new Error('401')) });
  await t.throwsAsync(store.login('lin', 'wrong'));
  t.is(token(), null);
  t.is(store.getSnapshot().status, 'anonymous');
});

test('verify loads the user behind a stored token, sharing concurrent calls', async (t) => {
  const { store, meCalls } = setup({ token: 'stored' });
  const [a, b] = await Promise.all([store.verify(), store.verify()]);
  t.is(a, b);
  t.is(meCalls(), 1);
  t.is(store.getSnapshot().status, 'authenticated');
});

test('a failed verification clears everything and is reported once as expired', async (t) => {
  const { store, token } = setup({ token: 'stale', fetchMe: async () => Promise.reject(new Error('401')) });
  await t.throwsAsync(store.verify());
  t.is(token(), null);
  t.deepEqual(store.getSnapshot(), { status: 'expired', user: null });
  store.acknowledgeExpiry();
  t.is(store.getSnapshot().status, 'anonymous');
});

test('the current user is cached for 10 s per token', async (t) => {
  const { store, meCalls, advance } = setup({ token: 'stored' });
  await store.verify();
  advance(USER_CACHE_MS - 1);
  await store.verify();
  t.is(meCalls(), 1);
  advance(1);
  await store.verify();
  t.is(meCalls(), 2);
});

test('logout and a revoked token sign out and notify subscribers', async (t) => {
  const { store, token } = setup();
  let notified = 0;
  store.subscribe(() => (notified += 1));
  await store.login('lin', 'secret-pass');
  store.logout();
  t.is(token(), null);
  t.deepEqual(store.getSnapshot(), { status: 'anonymous', user: null });
  await store.login('lin', 'secret-pass');
  store.tokenRevoked();
  t.is(store.getSnapshot().status, 'anonymous');
  t.is(notified, 4);
});

test('login after logout does not reuse the cached user', async (t) => {
  const { store, meCalls } = setup();
  await store.login('lin', 'secret-pass');
  store.logout();
  await store.login('lin', 'secret-pass');
  t.is(meCalls(), 2);
});

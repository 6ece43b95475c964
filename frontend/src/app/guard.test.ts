import test from 'ava';
import { afterLoginPath, guardNavigation, isFullScreenPath, type AuthView, type RouteAccess, type Target } from './guard.ts';

const at = (pathname: string, search = '', hash = ''): Target => ({ pathname, search, hash });
const anonymous: AuthView = { status: 'anonymous', isActive: false, isAdmin: false };
const member: AuthView = { status: 'authenticated', isActive: true, isAdmin: false };
const admin: AuthView = { status: 'authenticated', isActive: true, isAdmin: true };
const inactive: AuthView = { status: 'authenticated', isActive: false, isAdmin: false };

const route = (name: string, extra: Partial<RouteAccess> = {}): RouteAccess => ({ name, ...extra });

test('open pages need no login', (t) => {
  for (const name of ['index', 'login', 'register', 'welcome', 'shared-note', 'shared-folder', 'shared-cognition', 'cognition']) {
    t.deepEqual(guardNavigation(route(name), at('/x'), anonymous, false), { kind: 'allow' }, name);
  }
  t.deepEqual(guardNavigation(route('research', { requiresAuth: false }), at('/research'), anonymous, false), { kind: 'allow' });
});

test('any other page sends an anonymous user to login carrying the full path', (t) => {
  t.deepEqual(guardNavigation(route('cli-trajectories', { requiresAuth: true }), at('/cli/trajectories', '?file_id=7', '#top'), anonymous, false), {
    kind: 'redirect',
    to: '/login?redirect=%2Fcli%2Ftrajectories%3Ffile_id%3D7%23top',
  });
  // A route that does not say requiresAuth: false is not open.
  t.is(guardNavigation(route('note'), at('/note'), anonymous, false).kind, 'redirect');
});

test('the draft page is open only with share=true', (t) => {
  t.deepEqual(guardNavigation(route('draft'), at('/draft', '?share=true'), anonymous, false), { kind: 'allow' });
  t.deepEqual(guardNavigation(route('draft'), at('/draft'), anonymous, false), { kind: 'redirect', to: '/login?redirect=%2Fdraft' });
});

test('a stored token without a user is verified first', (t) => {
  t.deepEqual(guardNavigation(route('research', { requiresAuth: false }), at('/research'), { ...anonymous, status: 'pending' }, true), { kind: 'verify' });
});

test('a failed verification goes to login with the redirect, even from an open page', (t) => {
  const expired: AuthView = { ...anonymous, status: 'expired' };
  t.deepEqual(guardNavigation(route('research', { requiresAuth: false }), at('/research', '?conversation_id=c1'), expired, true), {
    kind: 'redirect',
    to: '/login?redirect=%2Fresearch%3Fconversation_id%3Dc1',
  });
  t.deepEqual(guardNavigation(route('login'), at('/login'), expired, true), { kind: 'allow' });
});

test('an inactive account is confined to the draft page', (t) => {
  t.deepEqual(guardNavigation(route('research', { requiresAuth: false }), at('/research'), inactive, true), { kind: 'redirect', to: '/draft' });
  t.deepEqual(guardNavigation(route('cognition'), at('/cognition'), inactive, true), { kind: 'redirect', to: '/draft' });
  t.deepEqual(guardNavigation(route('draft'), at('/draft'), inactive, true), { kind: 'allow' });
});

test('a signed-in user opening login or register is sent to the draft page', (t) => {
  t.deepEqual(guardNavigation(route('login'), at('/login'), member, true), { kind: 'redirect', to: '/draft' });
  t.deepEqual(guardNavigation(route('register'), at('/register'), member, true), { kind: 'redirect', to: '/draft' });
});

test('signing in on the login page does not bounce to the draft page', (t) => {
  t.deepEqual(guardNavigation(route('login'), at('/login', '?redirect=%2Fnote'), member, false), { kind: 'allow' });
});

test('admin routes are refused to members and allowed to administrators', (t) => {
  const manage = route('manage', { requiresAuth: true, requiresAdmin: true });
  t.deepEqual(guardNavigation(manage, at('/manage'), member, true), { kind: 'forbidden' });
  t.deepEqual(guardNavigation(manage, at('/manage'), admin, true), { kind: 'allow' });
  t.is(guardNavigation(manage, at('/manage'), anonymous, false).kind, 'redirect');
});

test('signed-in users reach protected pages', (t) => {
  t.deepEqual(guardNavigation(route('remote', { requiresAuth: true }), at('/remote'), member, true), { kind: 'allow' });
});

test('after login: only same-app paths, never login or register again', (t) => {
  t.is(afterLoginPath(null), '/research');
  t.is(afterLoginPath('/cli/trajectories?file_id=7'), '/cli/trajectories?file_id=7');
  t.is(afterLoginPath('https://evil.example/'), '/research');
  t.is(afterLoginPath('//evil.example/'), '/research');
  t.is(afterLoginPath('/\\evil.example'), '/research');
  t.is(afterLoginPath('/login?redirect=%2Fnote'), '/research');
  t.is(afterLoginPath('/register'), '/research');
});

test('share paths are full-screen', (t) => {
  t.true(isFullScreenPath('/share/abc'));
  t.true(isFullScreenPath('/share/conversation/s1'));
  t.true(isFullScreenPath('/shared/trajectory/tok'));
  t.false(isFullScreenPath('/research'));
  t.false(isFullScreenPath('/cli'));
});

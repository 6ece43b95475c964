import test from 'ava';
import { userDecider, userStream } from '@scriptorium/domain/user/decide';
import { CLOSE_ACCOUNT_INACTIVE, CLOSE_UNAUTHORIZED } from '@scriptorium/domain/protocol/ws';
import { client, signInAdmin, signUp, startTestApp, type TestApp } from '../support/app.ts';
import { openSocket, type TestSocket } from '../support/socket.ts';
import { until } from '../support/readModels.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password' });
});
test.after.always(() => app?.stop());

/** The close the server sends, or a failure if the socket is still open after a while. */
const closeOf = (socket: TestSocket) =>
  Promise.race([socket.closed, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the socket stayed open')), 10_000))]);

async function signedInSocket(name: string) {
  const user = await signUp(app.url, name);
  const socket = await openSocket(app.url, `client-${name}`, user.token);
  await socket.next((m) => m.type === 'heartbeat');
  return { user, socket };
}

test('logging out closes the sockets opened with that token, and only those', async (t) => {
  const { user, socket } = await signedInSocket('sockout');
  const other = await client(app.url).request('POST', '/backend/auth/login', { username: 'sockout', password: 'correct horse battery' }, { form: true });
  const otherSocket = await openSocket(app.url, 'client-sockout-2', other.body.access_token);
  t.teardown(() => otherSocket.close());
  t.is((await user.request('POST', '/backend/auth/logout')).status, 200);
  t.like(await closeOf(socket), { code: CLOSE_UNAUTHORIZED, reason: 'signed out' });
  otherSocket.send({ type: 'ping' });
  await otherSocket.next((m) => m.type === 'heartbeat' && otherSocket.received.filter((x) => x.type === 'heartbeat').length > 1);
  t.pass('the other sign-in keeps its socket');
});

test('an administrator deactivating the account closes its sockets, saying the account is inactive rather than signed out', async (t) => {
  const { user, socket } = await signedInSocket('sockoff');
  const admin = await signInAdmin(app.url);
  t.is((await admin.request('PUT', `/backend/auth/admin/users/${user.userId}/active`, { is_active: false })).status, 200);
  t.like(await closeOf(socket), { code: CLOSE_ACCOUNT_INACTIVE, reason: 'account deactivated' });
  // The sign-in itself still holds (GET /auth/me answers, so the client shows the inactive account's page); a new socket is closed the same way.
  t.is((await user.request('GET', '/backend/auth/me')).status, 200);
  t.like(await closeOf(await openSocket(app.url, 'client-sockoff-again', user.token)), { code: CLOSE_ACCOUNT_INACTIVE });
});

test('a password change closes the sockets opened before it and ends the old sign-ins; the new password signs in', async (t) => {
  const { user, socket } = await signedInSocket('sockpass');
  const passwordHash = await app.services.passwords.hash('a brand new passphrase');
  await app.services.commands.handle(userDecider, userStream(user.userId), { type: 'ChangePassword', data: { passwordHash }, metadata: { now: new Date(), userId: user.userId } });
  t.like(await closeOf(socket), { code: CLOSE_UNAUTHORIZED, reason: 'password changed' });
  await until('the old token is refused', 10_000, async () => (await user.request('GET', '/backend/auth/me')).status === 401);
  const login = await client(app.url).request('POST', '/backend/auth/login', { username: 'sockpass', password: 'a brand new passphrase' }, { form: true });
  t.is(login.status, 200);
  t.is((await client(app.url, login.body.access_token).request('GET', '/backend/auth/me')).status, 200, 'a sign-in after the change is kept');
});

test('a socket closes when its token expires', async (t) => {
  const short = await startTestApp({ JWT_TTL_SECONDS: '2' });
  t.teardown(() => short.stop());
  const user = await signUp(short.url, 'sockexpiry');
  const socket = await openSocket(short.url, 'client-expiry', user.token);
  t.like(await closeOf(socket), { code: CLOSE_UNAUTHORIZED });
});

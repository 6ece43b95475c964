import test from 'ava';
import { createHash, randomBytes } from 'node:crypto';
import { REVOKED_TOKENS, type RevokedTokenDoc } from '@scriptorium/projections/users';
import { userDecider, userStream } from '@scriptorium/domain/user/decide';
import { CLOSE_ACCOUNT_INACTIVE, CLOSE_UNAUTHORIZED } from '@scriptorium/domain/protocol/ws';
import { client, signInAdmin, signUp, startTestApp, type TestApp } from '../support/app.ts';
import { openSocket, openSocketAt, type TestSocket } from '../support/socket.ts';
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
  await app.services.commands.handle(userDecider, userStream(user.userId), { type: 'ChangePassword', data: { passwordHash, reason: 'changed' }, metadata: { now: new Date(), userId: user.userId } });
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

/** An OAuth app's access token for `user`, through consent and a PKCE code exchange as the CLI does it. */
async function oauthToken(user: Awaited<ReturnType<typeof signUp>>, scope?: string): Promise<{ token: string; grantId: string }> {
  const verifier = randomBytes(32).toString('base64url');
  const params = {
    response_type: 'code',
    client_id: 'scriptorium-cli',
    redirect_uri: 'http://127.0.0.1:53682/callback',
    ...(scope !== undefined && { scope }),
    state: 'state',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  };
  const answered = await user.request('POST', '/backend/oauth/authorize', { ...params, decision: 'approve' });
  const code = new URL(answered.body.redirect_to).searchParams.get('code')!;
  const exchanged = await client(app.url).request('POST', '/backend/oauth/token', { grant_type: 'authorization_code', client_id: 'scriptorium-cli', code, redirect_uri: params.redirect_uri, code_verifier: verifier }, { form: true });
  return { token: exchanged.body.access_token, grantId: code.split('.')[0]! };
}

test('revoking an OAuth app closes its conversation and engineer sockets, and input sent after it is not stored', async (t) => {
  const user = await signUp(app.url, 'sockgrant');
  const { token, grantId } = await oauthToken(user);
  const { body: chat } = await user.request('POST', '/backend/conversation/sessions', { client_id: 'client-sockgrant' });
  const { body: session } = await user.request('POST', '/backend/api/ai-engineer/sessions', { title: 'cli' });
  const conversation = await openSocket(app.url, 'client-sockgrant-app', token);
  await conversation.next((m) => m.type === 'heartbeat');
  const engineer = await openSocketAt(app.url, `/backend/api/ai-engineer/ws/sessions/${session.id}`, token);
  await engineer.next((m) => m.type === 'subscribed');
  const browser = await openSocket(app.url, 'client-sockgrant-browser', user.token);
  t.teardown(() => browser.close());

  t.is((await user.request('DELETE', `/backend/oauth/grants/${grantId}`)).status, 200);
  conversation.send({ session_id: chat.session_id, agent: 'none', payload: { content_type: 'user_input', content: 'after the revocation' } });
  engineer.send({ type: 'user_input', text: 'after the revocation' });
  t.like(await closeOf(conversation), { code: CLOSE_UNAUTHORIZED });
  t.like(await closeOf(engineer), { code: CLOSE_UNAUTHORIZED });
  t.is((await client(app.url, token).request('GET', '/backend/auth/me')).status, 401);

  // A socket refuses input before it closes, so once closed nothing of it is still on its way to the log.
  const stored = [...(await app.services.events.readStream(`conversation-${chat.session_id}`)), ...(await app.services.events.readStream(`engineer-${session.id}`))];
  t.false(JSON.stringify(stored.map((event) => event.data)).includes('after the revocation'));
  browser.send({ type: 'ping' });
  await browser.next((m) => m.type === 'heartbeat' && browser.received.filter((x) => x.type === 'heartbeat').length > 1);
});

test('a socket re-checks its sign-in before acting on a message: input from a token revoked behind its back is refused', async (t) => {
  const user = await signUp(app.url, 'sockrecheck');
  const { body: session } = await user.request('POST', '/backend/api/ai-engineer/sessions', { title: 'cli' });
  const engineer = await openSocketAt(app.url, `/backend/api/ai-engineer/ws/sessions/${session.id}`, user.token);
  await engineer.next((m) => m.type === 'subscribed');
  // The read model says signed out, as another api process would after the event, while this process has not yet seen the event.
  await app.services.readStore.collection<RevokedTokenDoc>(REVOKED_TOKENS).put({ _id: createHash('sha256').update(user.token!).digest('hex'), user_id: user.userId, expires_at: new Date(Date.now() + 3_600_000).toISOString() });
  engineer.send({ type: 'user_input', text: 'behind its back' });
  t.like(await closeOf(engineer), { code: CLOSE_UNAUTHORIZED });
  const stored = await app.services.events.readStream(`engineer-${session.id}`);
  t.false(JSON.stringify(stored.map((event) => event.data)).includes('behind its back'));
});

import test from 'ava';
import { CLOSE_FORBIDDEN, CLOSE_UNAUTHORIZED } from '@scriptorium/domain/protocol/ws';
import type { AppSignIn } from '@scriptorium/domain/protocol/http/oauth';
import { client, signUp, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { eventually } from '../support/poll.ts';
import { openSocket, openSocketAt } from '../support/socket.ts';

/**
 * A password sign-in an app makes (the command line's `login --password` names itself and its device)
 * is listed under "Authorised apps" beside the OAuth grants, and ends as a revoked grant does: by the
 * user there, or by the app's own logout; its token is then refused and its sockets close.
 */

const PASSWORD = 'correct horse battery';
let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(() => app?.stop());

const listed = async (user: Client): Promise<AppSignIn[]> => {
  const response = await user.request('GET', '/backend/auth/app-sign-ins');
  if (response.status !== 200) throw new Error(`app sign-ins: ${response.status}`);
  return response.body.sign_ins;
};

async function cliSignIn(username: string, device = 'devbox'): Promise<{ token: string; id: string }> {
  const login = await client(app.url).request('POST', '/backend/auth/login', { username, password: PASSWORD, client_id: 'scriptorium-cli', device_name: device }, { form: true });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
  const token = login.body.access_token as string;
  return { token, id: JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid };
}

test('a password sign-in of the command line is listed with its device; revoking it ends its token and closes its sockets', async (t) => {
  const user = await signUp(app.url, 'pwapp', PASSWORD);
  t.deepEqual(await listed(user), [], 'the browser’s own sign-in is not an app');
  const before = Date.now();
  const cli = await cliSignIn('pwapp');
  const rows = await listed(user);
  t.is(rows.length, 1);
  t.like(rows[0], { id: cli.id, client_id: 'scriptorium-cli', client_name: 'Scriptorium 命令行助手', client_name_en: 'Scriptorium command-line assistant', device_name: 'devbox' });
  t.true(Date.parse(rows[0]!.signed_in_at) >= before - 1000);
  t.is(rows[0]!.last_used_at, rows[0]!.signed_in_at);
  t.true(Date.parse(rows[0]!.expires_at) > Date.parse(rows[0]!.signed_in_at));

  const cliUser = client(app.url, cli.token);
  t.is((await cliUser.request('GET', '/backend/auth/me')).status, 200);
  const { body: session } = await cliUser.request('POST', '/backend/api/ai-engineer/sessions', { title: 'cli' });
  const engineer = await openSocketAt(app.url, `/backend/api/ai-engineer/ws/sessions/${session.id}`, cli.token);
  await engineer.next((m) => m.type === 'subscribed');
  const conversation = await openSocket(app.url, 'client-pwapp-cli', cli.token);
  await conversation.next((m) => m.type === 'heartbeat');
  const browser = await openSocket(app.url, 'client-pwapp-browser', user.token);
  await browser.next((m) => m.type === 'heartbeat');
  t.teardown(() => browser.close());

  const bob = await signUp(app.url, 'pwappbob', PASSWORD);
  t.is((await bob.request('DELETE', `/backend/auth/app-sign-ins/${cli.id}`)).status, 404, 'nobody else finds it');
  const revoked = await user.request('DELETE', `/backend/auth/app-sign-ins/${cli.id}`);
  t.is(revoked.status, 200);
  t.deepEqual(revoked.body, { id: cli.id, status: 'revoked' });
  t.like(await engineer.closed, { code: CLOSE_UNAUTHORIZED, reason: 'app sign-in revoked' });
  t.like(await conversation.closed, { code: CLOSE_UNAUTHORIZED, reason: 'app sign-in revoked' });
  t.is((await cliUser.request('GET', '/backend/auth/me')).status, 401);
  t.deepEqual(await listed(user), []);
  t.is((await user.request('DELETE', `/backend/auth/app-sign-ins/${cli.id}`)).status, 200, 'revoking again changes nothing');

  browser.send({ type: 'ping' });
  await browser.next((m) => m.type === 'heartbeat' && browser.received.filter((x) => x.type === 'heartbeat').length > 1);
  t.is((await user.request('GET', '/backend/auth/me')).status, 200, 'the browser’s sign-in keeps its token and socket');
});

test('the app’s own logout ends its sign-in, which leaves the list; another device’s sign-in stays', async (t) => {
  const user = await signUp(app.url, 'pwlogout', PASSWORD);
  const laptop = await cliSignIn('pwlogout', 'laptop');
  const server = await cliSignIn('pwlogout', 'build-server');
  t.deepEqual((await listed(user)).map((row) => row.device_name).sort(), ['build-server', 'laptop']);
  const socket = await openSocket(app.url, 'client-pwlogout', laptop.token);
  await socket.next((m) => m.type === 'heartbeat');
  t.is((await client(app.url, laptop.token).request('POST', '/backend/auth/logout')).status, 200);
  t.like(await socket.closed, { code: CLOSE_UNAUTHORIZED, reason: 'app sign-in revoked' });
  t.is((await client(app.url, laptop.token).request('GET', '/backend/auth/me')).status, 401);
  t.deepEqual((await listed(user)).map((row) => row.id), [server.id]);
  const ended = (await app.services.events.readStream(`appsignin-${laptop.id}`)).find((event) => event.type === 'AppSignInRevoked');
  t.like(ended?.data, { reason: 'client' });
});

test('an app’s password sign-in asks for scopes as an OAuth client does: its token is held to them, and a bad request records nothing', async (t) => {
  const user = await signUp(app.url, 'pwscope', PASSWORD);
  const login = (fields: Record<string, string>) => client(app.url).request('POST', '/backend/auth/login', { username: 'pwscope', password: PASSWORD, ...fields }, { form: true });
  const narrow = await login({ client_id: 'scriptorium-cli', device_name: 'devbox', scope: 'audit:read engineer' });
  t.is(narrow.status, 200);
  const cli = client(app.url, narrow.body.access_token);
  t.is((await cli.request('GET', '/backend/auth/me')).status, 200);
  const session = await cli.request('POST', '/backend/api/ai-engineer/sessions', { title: 'cli' });
  t.is(session.status, 201);
  const refused = await cli.request('PATCH', `/backend/users/${user.userId}`, { nickname: 'taken over' });
  t.is(refused.status, 403);
  t.is(refused.body.code, 'auth.scope_insufficient');
  t.is((await cli.request('GET', '/backend/oauth/grants')).status, 403);
  t.is((await (await openSocket(app.url, 'client-pwscope-cli', narrow.body.access_token)).closed).code, CLOSE_FORBIDDEN);
  t.like(await listed(user), [{ device_name: 'devbox', scope: 'engineer audit:read' }]);

  const requests: Array<Record<string, string>> = [{ client_id: 'scriptorium-cli', scope: 'engineer admin' }, { scope: 'engineer' }];
  for (const fields of requests) {
    const bad = await login(fields);
    t.is(bad.status, 422, JSON.stringify(fields));
    t.like(bad.body, { code: 'oauth.invalid_scope' });
  }
  t.is((await listed(user)).length, 1, 'no sign-in recorded for a refused one');
  t.is((await cli.request('POST', '/backend/auth/logout')).status, 200, 'a narrow token may still end itself');
  t.deepEqual(await listed(user), []);
});

test('an unregistered app is refused; a device name loses its control characters', async (t) => {
  await signUp(app.url, 'pwunknown', PASSWORD);
  const unknown = await client(app.url).request('POST', '/backend/auth/login', { username: 'pwunknown', password: PASSWORD, client_id: 'not-an-app' }, { form: true });
  t.is(unknown.status, 422);
  t.like(unknown.body, { code: 'auth.unknown_client' });
  const user = await signUp(app.url, 'pwdevice', PASSWORD);
  await cliSignIn('pwdevice', ' host\u202Ename\u0007 ');
  t.is((await listed(user))[0]!.device_name, 'hostname');
});

test('the admin console’s sign-in lists nothing, even when it names an app and is refused', async (t) => {
  const user = await signUp(app.url, 'pwadmin', PASSWORD);
  const refused = await client(app.url).request('POST', '/backend/auth/admin/login', { username: 'pwadmin', password: PASSWORD, client_id: 'scriptorium-cli', device_name: 'console' }, { form: true });
  t.is(refused.status, 403);
  t.deepEqual(await listed(user), []);
});

test.serial('"last used" follows the app’s calls, recorded at most every five minutes', async (t) => {
  const user = await signUp(app.url, 'pwused', PASSWORD);
  const cli = await cliSignIn('pwused');
  const [row] = await listed(user);
  const realClock = app.services.clock;
  const later = new Date(Date.parse(row!.signed_in_at) + 6 * 60_000);
  app.services.clock = () => later;
  try {
    t.is((await client(app.url, cli.token).request('GET', '/backend/auth/me')).status, 200);
    await eventually(async () => ((await listed(user))[0]?.last_used_at === later.toISOString() ? true : undefined), undefined, 'the new "last used"');
    t.is((await client(app.url, cli.token).request('GET', '/backend/auth/me')).status, 200);
    await app.settle();
  } finally {
    app.services.clock = realClock;
  }
  const uses = (await app.services.events.readStream(`appsignin-${cli.id}`)).filter((event) => event.type === 'AppSignInUsed');
  t.is(uses.length, 1, 'the second call within five minutes records nothing');
});

test('a password change ends the app’s sign-in and takes it off the list', async (t) => {
  const user = await signUp(app.url, 'pwchange', PASSWORD);
  const cli = await cliSignIn('pwchange');
  const changed = await user.request('POST', '/backend/auth/password', { current_password: PASSWORD, new_password: 'another long passphrase' });
  t.is(changed.status, 200, JSON.stringify(changed.body));
  t.is((await client(app.url, cli.token).request('GET', '/backend/auth/me')).status, 401);
  t.deepEqual(await listed(client(app.url, changed.body.access_token)), []);
});

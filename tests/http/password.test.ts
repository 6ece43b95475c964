/**
 * Passwords users can change and reset (ASVS 2.1.5, 2.5): with the current one, with a mailed code,
 * or by an administrator. Each ends every other sign-in and closes its sockets; each is rate limited.
 */
import test from 'ava';
import { CLOSE_UNAUTHORIZED } from '@scriptorium/domain/protocol/ws';
import { client, signInAdmin, signUp, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { openSocket } from '../support/socket.ts';

let app: TestApp;
let admin: Client;

test.before(async () => {
  app = await startTestApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password', SMTP_URL: '', LOGIN_MAX_FAILURES: '3' });
  admin = await signInAdmin(app.url);
});
test.after.always(async () => {
  await app?.stop();
});

const OLD = 'correct horse battery';
const login = (username: string, password: string) => client(app.url).request('POST', '/backend/auth/login', { username, password }, { form: true });

/** A second sign-in of the same user, with a socket open on it. */
async function otherSession(username: string) {
  const other = client(app.url, (await login(username, OLD)).body.access_token);
  const socket = await openSocket(app.url, `client-${username}-other`, other.token);
  await socket.next((m) => m.type === 'heartbeat');
  return { other, socket };
}

async function mailedCodes(email: string): Promise<string[]> {
  await app.settle();
  const { body } = await admin.request('GET', '/backend/auth/admin/outbox?limit=100');
  return (body.mails as Array<{ to: string[]; subject: string }>)
    .filter((mail) => mail.to.includes(email))
    .map((mail) => /(\d{6})/.exec(mail.subject)?.[1] ?? '')
    .reverse();
}

test('a user changes their password with the current one: other sign-ins end and their sockets close, this one carries on with the new token', async (t) => {
  const user = await signUp(app.url, 'changer');
  const { other, socket } = await otherSession('changer');
  const wrong = await user.request('POST', '/backend/auth/password', { current_password: 'not it at all', new_password: 'a new passphrase' });
  t.is(wrong.status, 400);
  t.is(wrong.body.code, 'auth.current_password_wrong');
  const short = await user.request('POST', '/backend/auth/password', { current_password: OLD, new_password: 'short' });
  t.is(short.status, 422);
  t.is(short.body.detail[0].code, 'auth.password_too_short');

  const changed = await user.request('POST', '/backend/auth/password', { current_password: OLD, new_password: 'a new passphrase' });
  t.is(changed.status, 200);
  t.truthy(changed.body.access_token);
  t.like(await socket.closed, { code: CLOSE_UNAUTHORIZED });
  t.is((await other.request('GET', '/backend/auth/me')).status, 401, 'the other sign-in ended');
  t.is((await client(app.url, changed.body.access_token).request('GET', '/backend/auth/me')).status, 200, 'this browser carries on');
  t.is((await login('changer', OLD)).status, 401);
  t.is((await login('changer', 'a new passphrase')).status, 200);
  const [event] = (await app.services.events.readStream(`user-${user.userId}`)).filter((e) => e.type === 'UserPasswordChanged');
  t.like(event?.data, { reason: 'changed' });
});

test('guessing the current password is rate limited', async (t) => {
  const user = await signUp(app.url, 'guesser');
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await user.request('POST', '/backend/auth/password', { current_password: `guess number ${i}`, new_password: 'a new passphrase' })).status);
  t.deepEqual(statuses, [400, 400, 400, 429]);
  t.is((await user.request('POST', '/backend/auth/password', { current_password: OLD, new_password: 'a new passphrase' })).status, 429, 'even the right one waits out the window');
});

test('a forgotten password is reset with a code mailed to the address; unknown addresses are answered alike and mailed nothing', async (t) => {
  const user = await signUp(app.url, 'forgetful');
  const { other, socket } = await otherSession('forgetful');
  const anonymous = client(app.url);
  const asked = await anonymous.request('POST', '/backend/auth/password-reset/request', { email: 'forgetful@example.com' });
  const unknown = await anonymous.request('POST', '/backend/auth/password-reset/request', { email: 'nobody-here@example.com' });
  t.is(asked.status, 200);
  t.deepEqual(unknown.body, asked.body);
  t.deepEqual(await mailedCodes('nobody-here@example.com'), []);
  const [code] = await mailedCodes('forgetful@example.com');
  t.truthy(code);

  const wrong = await anonymous.request('POST', '/backend/auth/password-reset', { email: 'forgetful@example.com', code: code === '000000' ? '111111' : '000000', new_password: 'reset passphrase' });
  t.is(wrong.status, 400);
  t.is(wrong.body.code, 'auth.code_wrong');
  // A code for verifying the address is not a reset code.
  await anonymous.request('POST', '/backend/auth/send-verification-email', { email: 'forgetful@example.com' });
  const verifyCode = (await mailedCodes('forgetful@example.com')).at(-1)!;
  t.is((await anonymous.request('POST', '/backend/auth/password-reset', { email: 'forgetful@example.com', code: verifyCode, new_password: 'reset passphrase' })).status, 400);

  const reset = await anonymous.request('POST', '/backend/auth/password-reset', { email: 'forgetful@example.com', code, new_password: 'reset passphrase' });
  t.is(reset.status, 200);
  t.like(await socket.closed, { code: CLOSE_UNAUTHORIZED });
  t.is((await other.request('GET', '/backend/auth/me')).status, 401);
  t.is((await user.request('GET', '/backend/auth/me')).status, 401, 'every sign-in before the reset ended');
  t.is((await login('forgetful', 'reset passphrase')).status, 200);
  t.is((await anonymous.request('POST', '/backend/auth/password-reset', { email: 'forgetful@example.com', code, new_password: 'another passphrase' })).status, 400, 'a code resets once');
});

test('an administrator resets a password from the user editor; a user cannot reset another', async (t) => {
  const user = await signUp(app.url, 'locked-out');
  const { socket } = await otherSession('locked-out');
  const stranger = await signUp(app.url, 'stranger');
  t.is((await stranger.request('PUT', `/backend/auth/admin/users/${user.userId}/password`, { new_password: 'stolen passphrase' })).status, 403);
  const reset = await admin.request('PUT', `/backend/auth/admin/users/${user.userId}/password`, { new_password: 'admin set passphrase' });
  t.is(reset.status, 200);
  t.like(await socket.closed, { code: CLOSE_UNAUTHORIZED });
  t.is((await user.request('GET', '/backend/auth/me')).status, 401);
  t.is((await login('locked-out', 'admin set passphrase')).status, 200);
  const [event] = (await app.services.events.readStream(`user-${user.userId}`)).filter((e) => e.type === 'UserPasswordChanged');
  t.like(event?.data, { reason: 'reset_by_admin' });
  t.truthy((event?.data as { by?: string }).by);
});

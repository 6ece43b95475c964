import test from 'ava';
import jwt from 'jsonwebtoken';
import { client, signUp, startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password' });
});
test.after.always(async () => {
  await app?.stop();
});

const eventCount = () => app.services.events.headPosition();

test.serial('register, log in with the form, and read yourself back', async (t) => {
  const anonymous = client(app.url);
  const registered = await anonymous.request('POST', '/backend/auth/register', {
    username: '林小明',
    email: 'Lin@Example.com',
    nickname: '小明',
    password: 'secret-password',
  });
  t.is(registered.status, 200);
  t.is(registered.body.username, '林小明');
  t.is(registered.body.email, 'lin@example.com');
  const login = await anonymous.request('POST', '/backend/auth/login', { username: '林小明', password: 'secret-password' }, { form: true });
  t.is(login.status, 200);
  t.is(login.body.token_type, 'bearer');
  const me = await client(app.url, login.body.access_token).request('GET', '/backend/auth/me');
  t.is(me.status, 200);
  t.like(me.body, { _id: registered.body.id, username: '林小明', email: 'lin@example.com', is_active: true, is_admin: false, email_verified: false });
  t.truthy(me.body.created_at);
});

test.serial('user names are unique regardless of case, and nothing is written for the refusal', async (t) => {
  await signUp(app.url, 'casey');
  const before = await eventCount();
  const again = await client(app.url).request('POST', '/backend/auth/register', { username: 'CASEY', email: 'other@example.com', password: 'secret-password' });
  t.is(again.status, 409);
  t.is(again.body.detail, '用户名已被注册');
  t.is(await eventCount(), before, 'the refusal is decided before anything is written');
  const login = await client(app.url).request('POST', '/backend/auth/login', { username: 'other', password: 'secret-password' }, { form: true });
  t.is(login.status, 401);
});

test.serial('an e-mail address belongs to one account', async (t) => {
  await signUp(app.url, 'first');
  const before = await eventCount();
  const clash = await client(app.url).request('POST', '/backend/auth/register', { username: 'second', email: 'FIRST@example.com', password: 'secret-password' });
  t.is(clash.status, 409);
  t.is(clash.body.detail, '该邮箱已被注册');
  t.is(await eventCount(), before);
});

test.serial('validation failures are 422 with a location per field and change nothing', async (t) => {
  const before = await eventCount();
  const response = await client(app.url).request('POST', '/backend/auth/register', { username: 'x', email: 'not-an-email', password: 'short', nickname: 7 });
  t.is(response.status, 422);
  const locations = (response.body.detail as Array<{ loc: string[] }>).map((issue) => issue.loc.join('.'));
  t.true(locations.includes('body.username'));
  t.true(locations.includes('body.email'));
  t.true(locations.includes('body.password'));
  t.true(locations.includes('body.nickname'));
  t.is(await eventCount(), before);
});

test.serial('malformed JSON is a 400 and oversized bodies a 413', async (t) => {
  const malformed = await client(app.url).request('POST', '/backend/auth/register', undefined, { raw: '{"username": ', headers: { 'content-type': 'application/json' } });
  t.is(malformed.status, 400);
  t.is(typeof malformed.body.detail, 'string');
  const huge = await client(app.url).request('POST', '/backend/auth/register', { username: 'big', email: 'big@example.com', password: 'x'.repeat(2 * 1024 * 1024) });
  t.is(huge.status, 413);
});

test.serial('a wrong password and an unknown user get the same 401', async (t) => {
  await signUp(app.url, 'wanda');
  const wrong = await client(app.url).request('POST', '/backend/auth/login', { username: 'wanda', password: 'wrong-password' }, { form: true });
  const unknown = await client(app.url).request('POST', '/backend/auth/login', { username: 'nobody', password: 'wrong-password' }, { form: true });
  t.is(wrong.status, 401);
  t.is(unknown.status, 401);
  t.deepEqual(wrong.body, unknown.body);
});

test.serial('forged, expired and unsigned tokens are refused', async (t) => {
  const user = await signUp(app.url, 'tokenuser');
  const forged = jwt.sign({ typ: 'access', username: 'tokenuser' }, 'some-other-secret-that-is-long-enough', { algorithm: 'HS256', subject: user.userId });
  const expired = jwt.sign({ typ: 'access', exp: Math.floor(Date.now() / 1000) - 5 }, app.services.config.JWT_SECRET, { algorithm: 'HS256', subject: user.userId });
  const unsigned = jwt.sign({ typ: 'access', sub: user.userId }, '', { algorithm: 'none' });
  for (const token of [forged, expired, unsigned, 'garbage']) {
    const response = await client(app.url, token).request('GET', '/backend/auth/me');
    t.is(response.status, 401);
    t.is(response.body.detail, '认证失败，请重新登录');
  }
  t.is((await client(app.url).request('GET', '/backend/auth/me')).status, 401);
});

test.serial('a user edits their own profile and nobody else’s', async (t) => {
  const alice = await signUp(app.url, 'alice');
  const bob = await signUp(app.url, 'bob');
  const own = await alice.request('PATCH', `/backend/users/${alice.userId}`, { nickname: '爱丽丝', email: 'alice.new@example.com' });
  t.is(own.status, 200);
  t.like(own.body, { nickname: '爱丽丝', email: 'alice.new@example.com', email_verified: false });
  const before = await eventCount();
  const other = await alice.request('PATCH', `/backend/users/${bob.userId}`, { nickname: 'hacked' });
  t.is(other.status, 403);
  const unknown = await alice.request('PATCH', '/backend/users/nope', { nickname: 'x' });
  t.is(unknown.status, 403);
  t.is(await eventCount(), before);
  const freed = await client(app.url).request('POST', '/backend/auth/register', { username: 'carol', email: 'alice@example.com', password: 'secret-password' });
  t.is(freed.status, 200, 'the old address is free again');
});

test.serial('the seeded administrator can log in and edit any profile', async (t) => {
  const login = await client(app.url).request('POST', '/backend/auth/login', { username: 'root', password: 'root-password' }, { form: true });
  t.is(login.status, 200);
  const admin = client(app.url, login.body.access_token);
  t.true((await admin.request('GET', '/backend/auth/me')).body.is_admin);
  const dave = await signUp(app.url, 'dave');
  const edited = await admin.request('PATCH', `/backend/users/${dave.userId}`, { nickname: 'David' });
  t.is(edited.status, 200);
  t.is(edited.body.nickname, 'David');
});

test.serial('unknown API paths are a JSON 404, health and metrics answer', async (t) => {
  const missing = await client(app.url).request('GET', '/backend/nothing-here');
  t.is(missing.status, 404);
  t.is(missing.body.detail, '资源未找到');
  const health = await client(app.url).request('GET', '/healthz');
  t.is(health.status, 200);
  t.is(health.body.status, 'ok');
  const metrics = await client(app.url).request('GET', '/metrics');
  t.regex(metrics.body, /eventstore_head_position \d+/);
  t.regex(metrics.body, /http_request_duration_seconds_bucket/);
});

test.serial('the seeded administrator is in the admin group', async (t) => {
  const login = await client(app.url).request('POST', '/backend/auth/login', { username: 'root', password: 'root-password' }, { form: true });
  await app.settle();
  const info = await client(app.url, login.body.access_token).request('GET', '/backend/auth/user/token-info');
  t.is(info.status, 200);
  t.is(info.body.user_level, 'admin');
});

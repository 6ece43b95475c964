import test from 'ava';
import { once } from 'node:events';
import { client, signUp, startTestApp } from '../support/app.ts';
import { until } from '../support/readModels.ts';
import { freePort, haveRedisServer, startRedis } from '../support/redisServer.ts';

const PASSWORD = 'correct horse battery';

/** A Redis that keeps nothing: the outage is all this suite needs of it. */
const NO_PERSISTENCE = ['--save', '', '--appendonly', 'no'];

const signIn = (url: string, username: string, password: string, forwardedFor?: string, cookie?: string) =>
  client(url).request('POST', '/backend/auth/login', { username, password }, { form: true, headers: { ...(forwardedFor && { 'x-forwarded-for': forwardedFor }), ...(cookie && { cookie }) } });

/** The `name=value` pairs a response set, as a browser would send them back. */
const cookiesOf = (headers: Headers): string =>
  headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');

test('without TRUST_PROXY a forged X-Forwarded-For does not make a new address', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  await signUp(app.url, 'forgedfor');
  const statuses = [];
  for (let i = 0; i < 6; i++) statuses.push((await signIn(app.url, 'forgedfor', 'wrong password', `203.0.113.${i}`)).status);
  t.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
});

test('guesses from many addresses cannot lock the owner out: a fresh client with the right password gets in', async (t) => {
  const app = await startTestApp({ TRUST_PROXY: 'true', LOGIN_MAX_DELAY_SECONDS: '0' });
  t.teardown(() => app.stop());
  await signUp(app.url, 'victim');
  for (let i = 0; i < 30; i++) t.is((await signIn(app.url, 'victim', 'wrong password', `198.51.100.${i}`)).status, 401);
  t.is((await signIn(app.url, 'victim', PASSWORD, '192.0.2.1')).status, 200);
  // Behind the proxy only the entry it appended counts: what the client put before it is ignored.
  for (let i = 0; i < 5; i++) await signIn(app.url, 'victim', 'wrong password', `10.9.9.${i}, 192.0.2.77`);
  const locked = await signIn(app.url, 'victim', PASSWORD, '10.9.9.99, 192.0.2.77');
  t.is(locked.status, 429);
  t.like(locked.body, { code: 'auth.too_many_attempts' });
});

test('a browser that signed in before is exempt from the delay guesses put on the account', async (t) => {
  // The delay is capped far past the test's timeout: a sign-in that waited for it would never answer in time.
  const app = await startTestApp({ TRUST_PROXY: 'true', LOGIN_MAX_FAILURES: '2', LOGIN_MAX_DELAY_SECONDS: '3600' });
  t.teardown(() => app.stop());
  await signUp(app.url, 'deviceowner');
  const first = await signIn(app.url, 'deviceowner', PASSWORD, '192.0.2.10');
  t.is(first.status, 200);
  const setCookie = first.headers.getSetCookie().join('\n');
  t.regex(setCookie, /HttpOnly/i);
  t.regex(setCookie, /SameSite=Strict/i);
  const device = cookiesOf(first.headers);
  t.regex(device, /scriptorium_device=/);

  for (let i = 0; i < 4; i++) t.is((await signIn(app.url, 'deviceowner', 'wrong password', `198.51.100.${i}`)).status, 401);
  const owner = await signIn(app.url, 'deviceowner', PASSWORD, '203.0.113.50', device);
  t.is(owner.status, 200, 'the device signed in at once despite the delay on the account');

});

// Serial (ava runs those first, alone): the hashing queue is the process's, and other tests' sign-ins would fill it.
test.serial('past the bound on waiting password hashes a sign-in is answered 503 with a code at once, not queued', async (t) => {
  const app = await startTestApp({ TRUST_PROXY: 'true', PASSWORD_HASH_MAX_WAITING: '1', LOGIN_MAX_DELAY_SECONDS: '0' });
  t.teardown(() => app.stop());
  await signUp(app.url, 'hashflood');
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn(app.url, 'hashflood', 'wrong password', `198.51.100.${i}`)));
  const busy = answers.filter((answer) => answer.status === 503);
  t.true(busy.length > 0, `some guesses were turned away (${answers.map((a) => a.status).join(' ')})`);
  t.like(busy[0]!.body, { code: 'auth.busy' });
  t.truthy(busy[0]!.headers.get('retry-after'));
  t.true(answers.every((answer) => answer.status === 401 || answer.status === 503));
  t.is((await signIn(app.url, 'hashflood', PASSWORD, '192.0.2.1')).status, 200, 'once the burst is over the owner signs in');
});

(haveRedisServer ? test : test.skip)('with Redis down sign-in answers 503 with a code, not 500, and signs in again once it is back', async (t) => {
  const port = await freePort();
  let redis = await startRedis(port, NO_PERSISTENCE);
  const app = await startTestApp({ REDIS_URL: `redis://127.0.0.1:${port}`, QUEUE_PREFIX: `signin-${port}` });
  t.teardown(async () => {
    await app.stop();
    redis.kill('SIGTERM');
  });
  await signUp(app.url, 'redisdown');
  redis.kill('SIGKILL');
  await once(redis, 'exit');
  const down = await signIn(app.url, 'redisdown', PASSWORD);
  t.is(down.status, 503);
  t.like(down.body, { code: 'auth.throttle_unavailable' });
  redis = await startRedis(port, NO_PERSISTENCE);
  await until('sign-in works again once Redis is back', 30_000, async () => (await signIn(app.url, 'redisdown', PASSWORD)).status === 200);
  t.pass();
});

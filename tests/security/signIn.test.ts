import test from 'ava';
import { client, signUp, startTestApp } from '../support/app.ts';

const PASSWORD = 'correct horse battery';
const signIn = (url: string, username: string, password: string, forwardedFor?: string) =>
  client(url).request('POST', '/backend/auth/login', { username, password }, { form: true, ...(forwardedFor && { headers: { 'x-forwarded-for': forwardedFor } }) });

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

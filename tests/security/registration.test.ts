import test from 'ava';
import { client, startTestApp } from '../support/app.ts';

const account = (username: string, n: number) => ({ username, email: `r${n}@example.com`, password: 'correct horse battery' });

test('one address may register only a few accounts within the window', async (t) => {
  const app = await startTestApp({ REGISTER_MAX_PER_ADDRESS: '3' });
  t.teardown(() => app.stop());
  const anonymous = client(app.url);
  for (let i = 0; i < 3; i++) t.is((await anonymous.request('POST', '/backend/auth/register', account(`flood${i}`, i))).status, 200);
  const refused = await anonymous.request('POST', '/backend/auth/register', account('flood3', 3));
  t.is(refused.status, 429);
  t.like(refused.body, { code: 'auth.too_many_registrations' });
  t.true(Number(refused.headers.get('retry-after')) > 0);
  t.is((await anonymous.request('POST', '/backend/auth/login', { username: 'flood3', password: 'correct horse battery' }, { form: true })).status, 401, 'nothing was created');
});

test('user names are normalised; control, bidi and broken characters are refused; look-alikes of a taken name are taken', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const anonymous = client(app.url);
  t.is((await anonymous.request('POST', '/backend/auth/register', account('admin', 0))).status, 200);
  t.is((await anonymous.request('POST', '/backend/auth/register', account('paypal', 1))).status, 200);
  let n = 10;
  for (const lookalike of ['ａｄｍｉｎ', 'ADMIN', 'аdmin', 'pаypal', 'paypa1', 'ádmin']) {
    const refused = await anonymous.request('POST', '/backend/auth/register', account(lookalike, n++));
    t.is(refused.status, 409, lookalike);
    t.is(refused.body.detail, '用户名已被注册', lookalike);
  }
  for (const broken of ['adm\u202Ein', 'adm\u0000in', 'adm\uD800in', 'adm\u200Bin', 'ad\u0007min']) {
    const refused = await anonymous.request('POST', '/backend/auth/register', account(broken, n++));
    t.is(refused.status, 422, JSON.stringify(broken));
  }
  const fullWidth = await anonymous.request('POST', '/backend/auth/register', account('ｍａｒｙ', n++));
  t.is(fullWidth.status, 200);
  t.is(fullWidth.body.username, 'mary', 'stored in its normal form');
  t.is((await anonymous.request('POST', '/backend/auth/login', { username: 'mary', password: 'correct horse battery' }, { form: true })).status, 200);
  t.is((await anonymous.request('POST', '/backend/auth/register', account('иван', n++))).status, 200, 'other scripts are welcome');
});

test('look-alike names registering at the same moment: exactly one gets the name, the other is refused and leaves its address free', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const anonymous = client(app.url);
  const names = ['racer', 'rаcer', 'rácer', 'ｒａｃｅr', 'rac\u0435r'];
  const answers = await Promise.all(names.map((name, i) => anonymous.request('POST', '/backend/auth/register', account(name, 100 + i))));
  t.is(answers.filter((answer) => answer.status === 200).length, 1, answers.map((answer) => answer.status).join(' '));
  for (const refused of answers.filter((answer) => answer.status !== 200)) t.like(refused.body, { code: 'auth.username_taken' });
  const loser = answers.findIndex((answer) => answer.status !== 200);
  t.is((await anonymous.request('POST', '/backend/auth/register', account('someone-else', 100 + loser))).status, 200, 'the refused registration gave its address back');
});

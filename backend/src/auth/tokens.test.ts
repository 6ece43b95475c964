import test from 'ava';
import jwt from 'jsonwebtoken';
import { TokenService } from './tokens.ts';

const secret = 'a-test-secret-that-is-long-enough-for-hs256';
const tokens = new TokenService(secret, 60);

test('an issued token verifies to its claims, the millisecond it was issued and when it expires', (t) => {
  const issuedAt = Date.UTC(2026, 10, 24, 8, 0, 0, 123);
  const clocked = new TokenService(secret, 60, () => issuedAt);
  t.deepEqual(clocked.verify(clocked.issue({ sub: 'u1', username: 'lin' })), { sub: 'u1', username: 'lin', issuedAt, expiresAt: Math.floor(issuedAt / 1000) * 1000 + 60_000 });
});

test('expiry is judged by the service clock: a token is good until its lifetime has passed on that clock', (t) => {
  let now = Date.UTC(2020, 0, 1);
  const clocked = new TokenService(secret, 60, () => now);
  const token = clocked.issue({ sub: 'u1', username: 'lin' });
  now += 59_000;
  t.truthy(clocked.verify(token));
  now += 2_000;
  t.is(clocked.verify(token), null);
});

test('a token without the millisecond claim dates from its whole-second iat', (t) => {
  const iat = Math.floor(Date.now() / 1000);
  const older = jwt.sign({ typ: 'access', username: 'lin', iat }, secret, { algorithm: 'HS256', subject: 'u1', expiresIn: 60 });
  t.is(tokens.verify(older)?.issuedAt, iat * 1000);
});

test("a token issued to an OAuth app carries its client and grant, for the app's own lifetime", (t) => {
  const issued = tokens.issue({ sub: 'u1', username: 'lin', clientId: 'scriptorium-cli', grantId: 'g1' }, 3600);
  t.like(tokens.verify(issued), { sub: 'u1', username: 'lin', clientId: 'scriptorium-cli', grantId: 'g1' });
  const { iat, exp, client_id } = jwt.decode(issued) as { iat: number; exp: number; client_id: string };
  t.is(exp - iat, 3600);
  t.is(client_id, 'scriptorium-cli');
});

test("an app's password sign-in token names its sign-in and carries its scopes, and a browser's names neither", (t) => {
  const issued = tokens.issue({ sub: 'u1', username: 'lin', signInId: 's1', scopes: ['engineer', 'audit:read'] });
  t.like(tokens.verify(issued), { sub: 'u1', signInId: 's1', scopes: ['engineer', 'audit:read'] });
  t.like(jwt.decode(issued), { sid: 's1', scope: 'engineer audit:read' });
  const browser = tokens.verify(tokens.issue({ sub: 'u1', username: 'lin' }))!;
  t.false('signInId' in browser);
  t.false('scopes' in browser);
});

test('a token signed with another secret is refused', (t) => {
  t.is(new TokenService('another-secret-that-is-long-enough-xxxx', 60).verify(tokens.issue({ sub: 'u1', username: 'lin' })), null);
});

test('an unsigned token (alg none) is refused', (t) => {
  const forged = jwt.sign({ sub: 'u1', typ: 'access' }, '', { algorithm: 'none' });
  t.is(tokens.verify(forged), null);
});

test('an expired token is refused', (t) => {
  const expired = jwt.sign({ typ: 'access', exp: Math.floor(Date.now() / 1000) - 10 }, secret, { algorithm: 'HS256', subject: 'u1' });
  t.is(tokens.verify(expired), null);
});

test('a token of another type is refused', (t) => {
  t.is(tokens.verify(jwt.sign({ typ: 'refresh' }, secret, { algorithm: 'HS256', subject: 'u1' })), null);
});

test('garbage is refused', (t) => {
  t.is(tokens.verify('not.a.token'), null);
  t.is(tokens.verify(''), null);
});

test('a token verified before is remembered by its whole text: its expiry is judged again on every call, and an altered copy is checked afresh', (t) => {
  let now = Date.UTC(2020, 0, 1, 0, 0, 0, 500);
  const clocked = new TokenService(secret, 60, () => now);
  const token = clocked.issue({ sub: 'u1', username: 'lin' });
  const claims = clocked.verify(token)!;
  t.is(clocked.verify(token), claims, 'the second call answers from memory');
  now = claims.expiresAt - 1;
  t.truthy(clocked.verify(token));
  now = claims.expiresAt;
  t.is(clocked.verify(token), null, 'expired from the second its exp names, as jsonwebtoken judges it');
  now = claims.expiresAt - 1;
  const [header, payload, signature] = token.split('.');
  t.is(clocked.verify(`${header}.${payload}.${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`), null);
  const otherPayload = Buffer.from(JSON.stringify({ ...jwt.decode(token) as object, sub: 'u2' })).toString('base64url');
  t.is(clocked.verify(`${header}.${otherPayload}.${signature}`), null);
});

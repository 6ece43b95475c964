import argon2 from 'argon2';
import test from 'ava';
import { CONCURRENT_HASHES, HashingBusy, hashLoad, PasswordHasher } from './passwords.ts';
import { MINIMUM_PASSWORD_COST } from './passwordCost.ts';

test('new hashes are argon2id with one lane at the default cost; hashes made with four lanes still verify', async (t) => {
  const passwords = new PasswordHasher();
  const hash = await passwords.hash('correct horse battery');
  t.regex(hash, /^\$argon2id\$v=19\$m=65536,p=1,t=3\$/);
  t.true(await passwords.verify(hash, 'correct horse battery'));
  const older = await argon2.hash('correct horse battery', { type: argon2.argon2id, parallelism: 4 });
  t.true(await passwords.verify(older, 'correct horse battery'));
  t.false(await passwords.verify(older, 'wrong'));
  t.false(await passwords.verify(undefined, 'anything'));
});

test('a configured cost is the one new hashes carry, and hashes made at another cost still verify', async (t) => {
  const light = new PasswordHasher(MINIMUM_PASSWORD_COST);
  const hash = await light.hash('correct horse battery');
  t.regex(hash, /^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
  t.true(await new PasswordHasher().verify(hash, 'correct horse battery'));
  t.false(await new PasswordHasher().verify(hash, 'correct horse battery!'));
});

test('a burst of sign-ins hashes at most CONCURRENT_HASHES at once, across hashers; the rest wait their turn', async (t) => {
  const [one, other] = [new PasswordHasher(MINIMUM_PASSWORD_COST), new PasswordHasher(MINIMUM_PASSWORD_COST)];
  const hash = await one.hash('pw');
  let most = 0;
  const burst = Promise.all(Array.from({ length: CONCURRENT_HASHES + 4 }, (_, i) => (i % 2 ? one : other).verify(hash, 'pw')));
  const sampler = setInterval(() => (most = Math.max(most, hashLoad().running)), 1);
  t.true(hashLoad().waiting >= 4, 'the burst queued');
  t.deepEqual(await burst, Array.from({ length: CONCURRENT_HASHES + 4 }, () => true));
  clearInterval(sampler);
  t.true(most >= 1 && most <= CONCURRENT_HASHES, `at most ${CONCURRENT_HASHES} ran at once (saw ${most})`);
});

// Serial: the queue is the process's, and the other tests here hash at the same time otherwise.
test.serial('past `maxWaiting` queued hashes, a hasher turns more away with HashingBusy at once; what it took in still verifies', async (t) => {
  const bounded = new PasswordHasher(MINIMUM_PASSWORD_COST, 2);
  const hash = await bounded.hash('pw');
  const burst = Array.from({ length: CONCURRENT_HASHES + 6 }, () => bounded.verify(hash, 'pw').then((ok) => (ok ? 'verified' : 'refused'), (error: unknown) => (error instanceof HashingBusy ? 'busy' : String(error))));
  const outcomes = await Promise.all(burst);
  t.is(outcomes.filter((outcome) => outcome === 'verified').length, CONCURRENT_HASHES + 2);
  t.is(outcomes.filter((outcome) => outcome === 'busy').length, 4);
  t.true(await bounded.verify(hash, 'pw'), 'once the burst has passed it hashes again');
});

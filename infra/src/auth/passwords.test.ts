import argon2 from 'argon2';
import test from 'ava';
import { CONCURRENT_HASHES, hashLoad, hashPassword, verifyPassword } from './passwords.ts';

test('new hashes are argon2id with one lane; hashes made with four lanes still verify', async (t) => {
  const hash = await hashPassword('correct horse battery');
  t.regex(hash, /^\$argon2id\$v=19\$m=\d+,p=1,t=\d+\$/);
  t.true(await verifyPassword(hash, 'correct horse battery'));
  const older = await argon2.hash('correct horse battery', { type: argon2.argon2id, parallelism: 4 });
  t.true(await verifyPassword(older, 'correct horse battery'));
  t.false(await verifyPassword(older, 'wrong'));
  t.false(await verifyPassword(undefined, 'anything'));
});

test('a burst of sign-ins hashes at most CONCURRENT_HASHES at once; the rest wait their turn', async (t) => {
  const hash = await hashPassword('pw');
  let most = 0;
  const burst = Promise.all(Array.from({ length: CONCURRENT_HASHES + 4 }, () => verifyPassword(hash, 'pw')));
  const sampler = setInterval(() => (most = Math.max(most, hashLoad().running)), 1);
  t.true(hashLoad().waiting >= 4, 'the burst queued');
  t.deepEqual(await burst, Array.from({ length: CONCURRENT_HASHES + 4 }, () => true));
  clearInterval(sampler);
  t.true(most >= 1 && most <= CONCURRENT_HASHES, `at most ${CONCURRENT_HASHES} ran at once (saw ${most})`);
});

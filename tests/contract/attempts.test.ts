import { randomUUID } from 'node:crypto';
import test from 'ava';
import { MemoryAttemptLog } from '@scriptorium/infra/attempts/memory';
import type { AttemptLog } from '@scriptorium/infra/attempts/port';
import { RedisAttemptLog } from '@scriptorium/infra/attempts/redis';
import { LoginThrottle } from '@scriptorium/domain/user/loginThrottle';
import { deleteKeys, redisAnswers, redisUrl } from './redis.ts';

const haveRedis = await redisAnswers(redisUrl);

function attemptLogContract(name: string, open: () => AttemptLog) {
  const WINDOW = 60_000;

  test(`${name}: attempts are counted per key inside the sliding window, oldest first`, async (t) => {
    const log = open();
    t.teardown(() => log.close());
    await log.add(['a', 'b'], 1_000, WINDOW);
    await log.add(['a'], 1_000, WINDOW);
    await log.add(['a'], 30_000, WINDOW);
    t.deepEqual(await log.recent(['a', 'b', 'c'], 40_000, WINDOW), [[1_000, 1_000, 30_000], [1_000], []]);
    t.deepEqual(await log.recent(['a', 'b'], 61_000, WINDOW), [[30_000], []], 'the window slid past the first two');
  });

  test(`${name}: clearing one key leaves the others`, async (t) => {
    const log = open();
    t.teardown(() => log.close());
    await log.add(['pair', 'user'], 5_000, WINDOW);
    await log.clear('pair');
    t.deepEqual(await log.recent(['pair', 'user'], 6_000, WINDOW), [[], [5_000]]);
  });

  test(`${name}: concurrent attempts are all counted`, async (t) => {
    const log = open();
    t.teardown(() => log.close());
    await Promise.all(Array.from({ length: 50 }, () => log.add(['burst'], 7_000, WINDOW)));
    t.is((await log.recent(['burst'], 7_001, WINDOW))[0]!.length, 50);
  });
}

attemptLogContract('memory', () => new MemoryAttemptLog());

if (haveRedis) {
  const prefix = `scriptorium-test-${randomUUID()}:`;
  attemptLogContract('Redis', () => new RedisAttemptLog(redisUrl, prefix));

  test('Redis: two api processes count one user’s failed sign-ins together', async (t) => {
    const clock = () => new Date('2026-05-01T08:00:00Z');
    const logs = [new RedisAttemptLog(redisUrl, prefix), new RedisAttemptLog(redisUrl, prefix)];
    t.teardown(() => Promise.all(logs.map((log) => log.close())));
    const [first, second] = logs.map((log) => new LoginThrottle(log, { maxDelaySeconds: 0, maxFailures: 3, windowSeconds: 600 }, clock));
    await first!.fail('wen', '192.0.2.9');
    await second!.fail('wen', '192.0.2.9');
    t.is(await first!.retryAfter('wen', '192.0.2.9'), 0);
    await first!.fail('wen', '192.0.2.9');
    t.is(await second!.retryAfter('wen', '192.0.2.9'), 600, 'the third failure, made on the other process, locks the pair here');
  });
  test.after.always(() => deleteKeys(redisUrl, prefix));
} else {
  console.log(`attempt log contract: Redis suite skipped (no Redis at ${redisUrl})`);
  test.skip('Redis: AttemptLog contract (no Redis)', () => {});
}

test('memory: the oldest keys are forgotten first beyond the size limit', async (t) => {
  const log = new MemoryAttemptLog(10);
  for (let i = 0; i < 20; i++) await log.add([`k${i}`], 1_000, 60_000);
  const [first, last] = await log.recent(['k0', 'k19'], 2_000, 60_000);
  t.deepEqual(first, []);
  t.deepEqual(last, [1_000]);
});

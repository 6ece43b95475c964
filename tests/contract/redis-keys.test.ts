/**
 * What the app leaves in Redis: sign-in failures under its QUEUE_PREFIX (deployments sharing one Redis
 * count apart), and BullMQ jobs with a retention, so finished jobs do not pile up for ever.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { Redis } from 'ioredis';
import { createAttemptLog } from '@scriptorium/infra/attempts/index';
import { BullJobQueue, JOB_RETENTION } from '@scriptorium/infra/queue/bullmq';
import { deleteKeys, redisAnswers, redisUrl } from './redis.ts';

const haveRedis = await redisAnswers(redisUrl);

if (haveRedis) {
  const prefix = `scriptorium-test-${randomUUID()}`;
  test.after.always(() => Promise.all([deleteKeys(redisUrl, prefix), deleteKeys(redisUrl, `scriptorium:attempts:${prefix}`)]));

  test('sign-in failures are kept under QUEUE_PREFIX, so two deployments on one Redis count apart', async (t) => {
    const logs = await Promise.all([createAttemptLog({ REDIS_URL: redisUrl, QUEUE_PREFIX: prefix }), createAttemptLog({ REDIS_URL: redisUrl, QUEUE_PREFIX: `${prefix}-other` })]);
    t.teardown(() => Promise.all(logs.map((log) => log.close())));
    await logs[0]!.add(['wen'], 1_000, 60_000);
    t.is((await logs[0]!.recent(['wen'], 1_001, 60_000))[0]!.length, 1);
    t.is((await logs[1]!.recent(['wen'], 1_001, 60_000))[0]!.length, 0);
    const redis = new Redis(redisUrl);
    t.teardown(() => redis.quit());
    t.deepEqual(await redis.keys(`scriptorium:attempts:${prefix}:*`), [`scriptorium:attempts:${prefix}:wen`]);
  });

  test('every job is enqueued with its retention: completed ones go after a day, failed ones after a week', async (t) => {
    const queue = new BullJobQueue(redisUrl, { prefix });
    t.teardown(() => queue.close());
    await queue.enqueue('retention', 'probe', { n: 1 });
    const redis = new Redis(redisUrl);
    t.teardown(() => redis.quit());
    const keys = (await redis.keys(`${prefix}:retention:*`)).filter((key) => /:retention:[^:]+$/.test(key));
    const options = await Promise.all(keys.map(async (key) => ((await redis.type(key)) === 'hash' ? await redis.hget(key, 'opts') : null)));
    const stored = options.filter((value): value is string => value !== null).map((value) => JSON.parse(value));
    t.is(stored.length, 1);
    t.like(stored[0], { removeOnComplete: JOB_RETENTION.removeOnComplete, removeOnFail: JOB_RETENTION.removeOnFail });
  });
} else {
  console.log(`Redis keys: skipped (no Redis at ${redisUrl})`);
  test.skip('Redis keys (no Redis)', () => {});
}

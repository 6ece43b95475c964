import { randomUUID } from 'node:crypto';
import test from 'ava';
import { BullJobQueue } from '@scriptorium/infra/queue/bullmq';
import { InProcessJobQueue } from '@scriptorium/infra/queue/inprocess';
import { jobQueueContract } from './queue.ts';
import { deleteKeys, redisAnswers, redisUrl } from './redis.ts';

// Probed before any test is declared: AVA takes declarations only until the first one has run.
const haveRedis = await redisAnswers(redisUrl);

jobQueueContract('in-process', () => new InProcessJobQueue());

if (haveRedis) {
  const prefix = `scriptorium-test-${randomUUID()}`;
  jobQueueContract('BullMQ', () => new BullJobQueue(redisUrl, { prefix }));
  test.after.always(() => deleteKeys(redisUrl, prefix));
} else {
  console.log(`queue contract: BullMQ suite skipped (no Redis at ${redisUrl})`);
  test.skip('BullMQ: JobQueue contract (no Redis)', () => {});
}

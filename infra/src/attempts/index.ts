import { MemoryAttemptLog } from './memory.ts';
import type { AttemptLog } from './port.ts';

/**
 * Redis when REDIS_URL is set, so all api processes count together; otherwise this process's memory
 * (and ioredis stays unloaded). Keys carry QUEUE_PREFIX, as the queue's and presence's do, so
 * deployments sharing one Redis count apart.
 */
export async function createAttemptLog(config: { REDIS_URL?: string | undefined; QUEUE_PREFIX?: string | undefined }): Promise<AttemptLog> {
  return config.REDIS_URL ? new (await import('./redis.ts')).RedisAttemptLog(config.REDIS_URL, attemptKeyPrefix(config.QUEUE_PREFIX ?? 'bull')) : new MemoryAttemptLog();
}

export const attemptKeyPrefix = (queuePrefix: string) => `scriptorium:attempts:${queuePrefix}:`;

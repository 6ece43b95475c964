import { MemoryAttemptLog } from './memory.ts';
import type { AttemptLog } from './port.ts';

/** Redis when REDIS_URL is set, so all api processes count together; otherwise this process's memory (and ioredis stays unloaded). */
export async function createAttemptLog(config: { REDIS_URL?: string | undefined }): Promise<AttemptLog> {
  return config.REDIS_URL ? new (await import('./redis.ts')).RedisAttemptLog(config.REDIS_URL) : new MemoryAttemptLog();
}

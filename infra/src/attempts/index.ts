import { MemoryAttemptLog } from './memory.ts';
import type { AttemptLog } from './port.ts';
import { RedisAttemptLog } from './redis.ts';

/** Redis when REDIS_URL is set, so all api processes count together; otherwise this process's memory. */
export function createAttemptLog(config: { REDIS_URL?: string | undefined }): AttemptLog {
  return config.REDIS_URL ? new RedisAttemptLog(config.REDIS_URL) : new MemoryAttemptLog();
}

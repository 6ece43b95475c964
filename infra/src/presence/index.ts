import type { Logger } from '../log.ts';
import { MemoryPresenceChannel } from './memory.ts';
import type { PresenceChannel } from './port.ts';

/**
 * Redis pub/sub when REDIS_URL is set, so every api process hears the others; otherwise this process
 * alone. The channel is named by QUEUE_PREFIX, which already keeps deployments sharing one Redis apart.
 */
export async function createPresenceChannel(config: { REDIS_URL?: string | undefined; QUEUE_PREFIX: string }, log: Logger): Promise<PresenceChannel> {
  return config.REDIS_URL ? new (await import('./redis.ts')).RedisPresenceChannel(config.REDIS_URL, log, `scriptorium:presence:${config.QUEUE_PREFIX}`) : new MemoryPresenceChannel();
}

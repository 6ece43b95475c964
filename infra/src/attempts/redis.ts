import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { AttemptLog } from './port.ts';

/**
 * One sorted set per key, scored by time, expiring with the window: every api process sees the
 * same counts, so running more of them does not multiply the attempts an attacker gets.
 */
export class RedisAttemptLog implements AttemptLog {
  readonly #redis: Redis;

  constructor(
    url: string,
    private readonly prefix: string,
  ) {
    // A command answers within the timeout even while Redis is away (queued ones too): sign-in says so at once rather than hang.
    this.#redis = new Redis(url, { maxRetriesPerRequest: 2, commandTimeout: 2000 });
    // A lost connection fails the commands waiting on it, which is where callers hear of it; without
    // a listener ioredis would also print every reconnect attempt as an unhandled error.
    this.#redis.on('error', () => undefined);
  }

  async recent(keys: readonly string[], now: number, windowMs: number): Promise<number[][]> {
    const pipeline = this.#redis.pipeline();
    for (const key of keys) pipeline.zrangebyscore(this.prefix + key, `(${now - windowMs}`, '+inf', 'WITHSCORES');
    const results = (await pipeline.exec()) ?? [];
    return results.map(([error, reply]) => {
      if (error) throw error;
      const pairs = reply as string[];
      const times: number[] = [];
      for (let i = 1; i < pairs.length; i += 2) times.push(Number(pairs[i]));
      return times;
    });
  }

  async add(keys: readonly string[], now: number, windowMs: number): Promise<void> {
    const transaction = this.#redis.multi();
    for (const key of keys) {
      const redisKey = this.prefix + key;
      // Members must be unique: two attempts in the same millisecond are two attempts.
      transaction.zadd(redisKey, now, `${now}:${randomUUID()}`);
      transaction.zremrangebyscore(redisKey, '-inf', now - windowMs);
      transaction.pexpire(redisKey, windowMs);
    }
    const results = (await transaction.exec()) ?? [];
    for (const [error] of results) if (error) throw error;
  }

  async clear(key: string): Promise<void> {
    await this.#redis.del(this.prefix + key);
  }

  async close(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}

import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { z } from 'zod';
import type { Logger } from '../log.ts';
import { PRESENCE_LIMITS, type PresenceAnnouncement, type PresenceChannel } from './port.ts';

const announcementSchema = z
  .object({
    origin: z.string().min(1).max(PRESENCE_LIMITS.origin),
    topic: z.string().min(1).max(PRESENCE_LIMITS.topic),
    peers: z.array(z.record(z.string(), z.unknown())).max(PRESENCE_LIMITS.peers),
  })
  .strict();

/**
 * One pub/sub channel for every topic: a process hears every document's presence and keeps only what
 * concerns its own sockets, which costs little next to one subscription per document to keep in step
 * with who joins and leaves. Both connections open on first use, so roles that never publish (a
 * projector, a worker) never connect. A publish while Redis is away fails at once rather than queueing
 * a stale list; the caller's next beat says the current one.
 */
export class RedisPresenceChannel implements PresenceChannel {
  readonly origin = randomUUID();
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #listeners = new Set<(announcement: PresenceAnnouncement) => void>();
  #subscribed = false;
  #connecting: Promise<void> | undefined;

  constructor(
    url: string,
    private readonly log: Logger,
    private readonly channel: string,
  ) {
    this.#publisher = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    this.#subscriber = new Redis(url, { lazyConnect: true });
    // Failures reach the caller through its publishes; without a listener ioredis would also print every reconnect attempt.
    this.#publisher.on('error', () => undefined);
    this.#subscriber.on('error', () => undefined);
    this.#subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.receive(message);
    });
  }

  async publish(topic: string, peers: readonly object[]): Promise<void> {
    // Several first publishes at once share one connect; if it fails, ioredis keeps reconnecting and this publish fails below.
    if (this.#publisher.status === 'wait') this.#connecting ??= this.#publisher.connect().catch(() => undefined);
    await this.#connecting;
    await this.#publisher.publish(this.channel, JSON.stringify({ origin: this.origin, topic, peers }));
  }

  listen(listener: (announcement: PresenceAnnouncement) => void): () => void {
    this.#listeners.add(listener);
    if (!this.#subscribed) {
      this.#subscribed = true;
      // ioredis subscribes again by itself after a reconnect; until the first subscribe succeeds, nobody is heard.
      this.#subscriber.subscribe(this.channel).catch((error: unknown) => this.log.warn({ err: error, channel: this.channel }, 'presence channel subscribe failed'));
    }
    return () => this.#listeners.delete(listener);
  }

  private receive(message: string): void {
    let parsed: z.ZodSafeParseResult<PresenceAnnouncement>;
    try {
      parsed = announcementSchema.safeParse(JSON.parse(message));
    } catch {
      this.log.warn({ channel: this.channel, bytes: message.length }, 'presence announcement dropped: not JSON');
      return;
    }
    if (!parsed.success) {
      this.log.warn({ channel: this.channel, issue: parsed.error.issues[0]?.message }, 'presence announcement dropped: malformed');
      return;
    }
    if (parsed.data.origin === this.origin) return;
    for (const listener of this.#listeners) {
      try {
        listener(parsed.data);
      } catch (error) {
        this.log.error({ err: error, topic: parsed.data.topic }, 'presence listener failed');
      }
    }
  }

  async close(): Promise<void> {
    this.#listeners.clear();
    await Promise.all(
      [this.#publisher, this.#subscriber].map((client) => (client.status === 'wait' ? client.disconnect() : client.quit().then(() => undefined, () => client.disconnect()))),
    );
  }
}

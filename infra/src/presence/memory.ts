import { randomUUID } from 'node:crypto';
import type { PresenceAnnouncement, PresenceChannel } from './port.ts';

/** Channels that hear each other: one per process by default, shared by several "processes" in a test. */
export class MemoryPresenceBus {
  readonly channels = new Set<MemoryPresenceChannel>();
}

/**
 * The single-process default: with nobody else on its bus, publishing reaches no one. Announcements
 * are copied and delivered on a later tick, as they would arrive over a wire.
 */
export class MemoryPresenceChannel implements PresenceChannel {
  readonly origin = randomUUID();
  private readonly listeners = new Set<(announcement: PresenceAnnouncement) => void>();

  constructor(private readonly bus = new MemoryPresenceBus()) {
    bus.channels.add(this);
  }

  async publish(topic: string, peers: readonly object[]): Promise<void> {
    for (const channel of this.bus.channels) {
      if (channel === this) continue;
      const announcement: PresenceAnnouncement = structuredClone({ origin: this.origin, topic, peers: peers as Record<string, unknown>[] });
      setImmediate(() => {
        for (const listener of channel.listeners) listener(announcement);
      });
    }
  }

  listen(listener: (announcement: PresenceAnnouncement) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    this.bus.channels.delete(this);
  }
}

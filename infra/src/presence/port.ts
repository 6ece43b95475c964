/**
 * The PresenceChannel port: each api process says who is live on a topic (a shared document) through
 * it, and hears what the other processes say. It carries a snapshot, not history: an announcement
 * replaces everything its origin said before about that topic, and nothing is kept for a process that
 * was not listening. Adapters: in memory (one process, or processes sharing a bus in tests) and Redis
 * pub/sub (every api process).
 */
export interface PresenceAnnouncement {
  /** The announcing process: its peers are keyed by it, so another process's never overwrite them. */
  origin: string;
  topic: string;
  /** The origin's whole list for the topic, empty once nobody there is left. Shaped by the caller, which checks them. */
  peers: Record<string, unknown>[];
}

export interface PresenceChannel {
  /** This process's id on the channel: what it publishes carries it, and it never hears itself. */
  readonly origin: string;
  /** Says this process's peers on a topic to the others; a failure is the caller's to log and retry on its next beat. */
  publish(topic: string, peers: readonly object[]): Promise<void>;
  /** Hears the other processes' announcements, well-formed ones only; returns a function that stops it. */
  listen(listener: (announcement: PresenceAnnouncement) => void): () => void;
  close(): Promise<void>;
}

/** Bounds on what one announcement may hold: beyond them it is not a process of ours speaking. */
export const PRESENCE_LIMITS = { origin: 100, topic: 200, peers: 1000 } as const;

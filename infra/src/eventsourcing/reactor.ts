import type { EventStore, RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Logger } from '@scriptorium/infra/log';
import type { ReadStore } from '@scriptorium/infra/readstore/port';
import { LogFollower } from '@scriptorium/infra/eventsourcing/follower';

/** A process manager: turns events of the log into commands. Must be idempotent per event. */
export interface Reaction {
  name: string;
  handles: readonly string[];
  react(event: RecordedEvent): Promise<void>;
}

const BATCH = 200;
const RETRY_MS = 1000;

/** Where a reaction's checkpoint is kept in the read store (readiness reads the job dispatcher's). */
export const reactorCheckpoint = (name: string): string => `reactor:${name}`;

/**
 * Runs reactions over `$all` in order, each from its own checkpoint kept in the read store. An
 * event whose reaction fails is retried, never skipped. Reactions decide through deterministic
 * command ids and idempotent deciders, so an event seen twice (a crash before the checkpoint
 * moved, two runners by mistake) changes nothing the second time.
 */
export class Reactor extends LogFollower<Reaction> {
  constructor(
    events: EventStore,
    private readonly store: ReadStore,
    reactions: Reaction[],
    log: Logger,
  ) {
    super(events, reactions, log, { batch: BATCH, retryMs: RETRY_MS, label: 'reactor' });
  }

  protected async loadCheckpoints(): Promise<void> {
    for (const reaction of this.handlers) this.checkpoints.set(reaction.name, await this.store.getCheckpoint(reactorCheckpoint(reaction.name)));
  }

  /** Resolves true once every reaction has handled everything up to `position`. */
  override waitFor(position: number, timeoutMs = 10_000): Promise<boolean> {
    return super.waitFor(position, timeoutMs);
  }

  protected async applyBatch(batch: RecordedEvent[]): Promise<void> {
    for (const reaction of this.handlers) await this.react(reaction, batch);
  }

  private async react(reaction: Reaction, batch: RecordedEvent[]): Promise<void> {
    let checkpoint = this.checkpoints.get(reaction.name) ?? 0;
    const last = batch[batch.length - 1]!.position;
    if (last <= checkpoint) return;
    try {
      for (const event of batch) {
        if (event.position <= checkpoint || !reaction.handles.includes(event.type)) continue;
        await reaction.react(event);
        checkpoint = event.position;
      }
      checkpoint = last;
    } finally {
      await this.store.transaction((tx) => tx.setCheckpoint(reactorCheckpoint(reaction.name), checkpoint));
      this.checkpoints.set(reaction.name, checkpoint);
    }
  }
}

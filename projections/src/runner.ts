import type { EventStore, RecordedEvent } from '@scriptorium/infra/eventstore/port';
import { LogFollower } from '@scriptorium/infra/eventsourcing/follower';
import type { ReadStore } from '@scriptorium/infra/readstore/port';
import type { Logger } from '@scriptorium/infra/log';
import { applyToProjection, type Projection } from './projection.ts';

/** Lets a caller wait until the read models include a position it just wrote (read-your-writes). */
export interface ProjectionProgress {
  /** Resolves true once every projection is at or past `position`, false on timeout. */
  waitFor(position: number, timeoutMs?: number): Promise<boolean>;
}

export interface RunnerStatus {
  position: number;
  head: number;
  projections: Record<string, { checkpoint: number; failing?: string }>;
}

/**
 * Applies `$all` strictly in order to every projection. Each batch is one read-store transaction that
 * also moves the projection's checkpoint, so a crash leaves either the whole batch or none of it.
 */
export class ProjectionRunner extends LogFollower<Projection> implements ProjectionProgress {
  private readonly failing = new Map<string, string>();

  constructor(
    events: EventStore,
    private readonly store: ReadStore,
    projections: Projection[],
    log: Logger,
  ) {
    super(events, projections, log, { batch: 500, retryMs: 1000, label: 'projection' });
  }

  protected async loadCheckpoints(): Promise<void> {
    for (const projection of this.handlers) {
      await projection.setup?.(this.store);
      this.checkpoints.set(projection.name, await this.store.getCheckpoint(projection.name));
    }
  }

  /** Resets one read model; the running loop then rebuilds it from position 0. */
  async rebuild(name: string): Promise<void> {
    const projection = this.handlers.find((candidate) => candidate.name === name);
    if (!projection) throw new Error(`unknown projection ${name}`);
    await this.store.reset(projection.name, projection.collections);
    await projection.setup?.(this.store);
    this.checkpoints.set(projection.name, 0);
    this.nudge();
  }

  status(head: number): RunnerStatus {
    return {
      position: this.position(),
      head,
      projections: Object.fromEntries(
        this.handlers.map((projection) => [
          projection.name,
          { checkpoint: this.checkpoints.get(projection.name) ?? 0, ...(this.failing.has(projection.name) && { failing: this.failing.get(projection.name) }) },
        ]),
      ),
    };
  }

  protected async applyBatch(projection: Projection, batch: RecordedEvent[]): Promise<void> {
    const checkpoint = this.checkpoints.get(projection.name) ?? 0;
    const last = batch[batch.length - 1]!.position;
    if (last <= checkpoint) return;
    const relevant = batch.filter((event) => event.position > checkpoint && projection.handles.includes(event.type));
    try {
      await this.store.transaction(async (tx) => {
        await applyToProjection(projection, relevant, tx);
        await tx.setCheckpoint(projection.name, last);
      });
      this.failing.delete(projection.name);
      this.checkpoints.set(projection.name, last);
    } catch (error) {
      this.failing.set(projection.name, error instanceof Error ? error.message : String(error));
      throw error;
    }
  }
}

/**
 * For an api process whose projector runs elsewhere: polls the stored checkpoints.
 */
export class RemoteProjectionProgress implements ProjectionProgress {
  constructor(
    private readonly store: ReadStore,
    private readonly names: string[],
    private readonly pollMs = 50,
  ) {}

  async waitFor(position: number, timeoutMs = 5000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const checkpoints = await Promise.all(this.names.map((name) => this.store.getCheckpoint(name)));
      if (checkpoints.every((checkpoint) => checkpoint >= position)) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, this.pollMs));
    }
  }
}

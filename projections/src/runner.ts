import type { EventStore, RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { ReadStore } from '@scriptorium/infra/readstore/port';
import type { Logger } from 'pino';
import type { Projection } from './projection.ts';

const BATCH = 500;
const RETRY_MS = 1000;

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
 * A projection that throws is retried on the same event: a position is never skipped.
 */
export class ProjectionRunner implements ProjectionProgress {
  private readonly checkpoints = new Map<string, number>();
  private readonly failing = new Map<string, string>();
  private waiters: Array<{ position: number; resolve: (ok: boolean) => void }> = [];
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private subscription: { close(): Promise<void> } | undefined;
  private loaded = false;

  constructor(
    private readonly events: EventStore,
    private readonly store: ReadStore,
    private readonly projections: Projection[],
    private readonly log: Logger,
  ) {}

  private async load(): Promise<void> {
    if (this.loaded) return;
    for (const projection of this.projections) {
      await projection.setup?.(this.store);
      this.checkpoints.set(projection.name, await this.store.getCheckpoint(projection.name));
    }
    this.loaded = true;
  }

  async start(): Promise<void> {
    await this.load();
    this.running = true;
    const head = await this.events.headPosition();
    const subscription = this.events.subscribeToAll({ after: head });
    this.subscription = subscription;
    void (async () => {
      try {
        for await (const _event of subscription) this.wake?.();
      } catch (error) {
        if (this.running) this.log.error({ err: error }, 'projection wake-up subscription ended');
      }
    })();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.subscription?.close();
    await this.loop;
    for (const waiter of this.waiters) waiter.resolve(false);
    this.waiters = [];
  }

  /** Resets one read model; the running loop then rebuilds it from position 0. */
  async rebuild(name: string): Promise<void> {
    const projection = this.projections.find((candidate) => candidate.name === name);
    if (!projection) throw new Error(`unknown projection ${name}`);
    await this.store.reset(projection.name, projection.collections);
    await projection.setup?.(this.store);
    this.checkpoints.set(projection.name, 0);
    this.wake?.();
  }

  status(head: number): RunnerStatus {
    return {
      position: this.position(),
      head,
      projections: Object.fromEntries(
        this.projections.map((projection) => [
          projection.name,
          { checkpoint: this.checkpoints.get(projection.name) ?? 0, ...(this.failing.has(projection.name) && { failing: this.failing.get(projection.name) }) },
        ]),
      ),
    };
  }

  waitFor(position: number, timeoutMs = 5000): Promise<boolean> {
    if (this.position() >= position) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = { position, resolve };
      this.waiters.push(waiter);
      setTimeout(() => {
        this.waiters = this.waiters.filter((candidate) => candidate !== waiter);
        resolve(false);
      }, timeoutMs).unref();
    });
  }

  /** Applies everything up to the current head once; used by the rebuild command and tests. */
  async catchUp(onProgress?: (position: number) => void): Promise<void> {
    await this.load();
    for (;;) {
      const applied = await this.step();
      if (applied === 0) return;
      onProgress?.(this.position());
    }
  }

  private position(): number {
    let lowest = Number.POSITIVE_INFINITY;
    for (const projection of this.projections) lowest = Math.min(lowest, this.checkpoints.get(projection.name) ?? 0);
    return Number.isFinite(lowest) ? lowest : 0;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let applied = 0;
      try {
        applied = await this.step();
      } catch (error) {
        this.log.error({ err: error }, 'projection batch failed; retrying');
        await this.sleep(RETRY_MS);
        continue;
      }
      if (applied === 0 && this.running) await this.sleep(RETRY_MS);
    }
  }

  private async step(): Promise<number> {
    const from = this.position();
    const batch = await this.events.readAll({ after: from, maxCount: BATCH });
    if (batch.length === 0) return 0;
    for (const projection of this.projections) await this.applyBatch(projection, batch);
    this.releaseWaiters();
    return batch.length;
  }

  private async applyBatch(projection: Projection, batch: RecordedEvent[]): Promise<void> {
    const checkpoint = this.checkpoints.get(projection.name) ?? 0;
    const last = batch[batch.length - 1]!.position;
    if (last <= checkpoint) return;
    const relevant = batch.filter((event) => event.position > checkpoint && projection.handles.includes(event.type));
    try {
      await this.store.transaction(async (tx) => {
        if (projection.applyBatch) {
          if (relevant.length > 0) await projection.applyBatch(relevant, tx);
        } else {
          for (const event of relevant) await projection.apply(event, tx);
        }
        await tx.setCheckpoint(projection.name, last);
      });
      this.failing.delete(projection.name);
      this.checkpoints.set(projection.name, last);
    } catch (error) {
      this.failing.set(projection.name, error instanceof Error ? error.message : String(error));
      throw error;
    }
  }

  private releaseWaiters(): void {
    const position = this.position();
    const ready = this.waiters.filter((waiter) => waiter.position <= position);
    this.waiters = this.waiters.filter((waiter) => waiter.position > position);
    for (const waiter of ready) waiter.resolve(true);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
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

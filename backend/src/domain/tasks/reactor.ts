import type { EventStore, RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Logger } from '@scriptorium/infra/log';
import type { ReadStore } from '@scriptorium/infra/readstore/port';

/** A process manager: turns events of the log into commands. Must be idempotent per event. */
export interface Reaction {
  name: string;
  handles: readonly string[];
  react(event: RecordedEvent): Promise<void>;
}

const BATCH = 200;
const RETRY_MS = 1000;

const reactorCheckpoint = (name: string): string => `reactor:${name}`;

/**
 * Runs reactions over `$all` in order, each from its own checkpoint kept in the read store. An
 * event whose reaction fails is retried, never skipped. Reactions decide through deterministic
 * command ids and idempotent deciders, so an event seen twice (a crash before the checkpoint
 * moved, two runners by mistake) changes nothing the second time.
 */
export class Reactor {
  private readonly checkpoints = new Map<string, number>();
  private waiters: Array<{ position: number; resolve: (ok: boolean) => void }> = [];
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private subscription: { close(): Promise<void> } | undefined;

  constructor(
    private readonly events: EventStore,
    private readonly store: ReadStore,
    private readonly reactions: Reaction[],
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    for (const reaction of this.reactions) this.checkpoints.set(reaction.name, await this.store.getCheckpoint(reactorCheckpoint(reaction.name)));
    this.running = true;
    const subscription = this.events.subscribeToAll({ after: await this.events.headPosition() });
    this.subscription = subscription;
    void (async () => {
      try {
        for await (const _event of subscription) this.wake?.();
      } catch (error) {
        if (this.running) this.log.error({ err: error }, 'reactor wake-up subscription ended');
      }
    })();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake?.();
    await this.subscription?.close();
    await this.loop;
    for (const waiter of this.waiters) waiter.resolve(false);
    this.waiters = [];
  }

  /** Resolves true once every reaction has handled everything up to `position`. */
  waitFor(position: number, timeoutMs = 10_000): Promise<boolean> {
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

  private position(): number {
    return Math.min(...this.reactions.map((reaction) => this.checkpoints.get(reaction.name) ?? 0));
  }

  private async run(): Promise<void> {
    while (this.running) {
      let applied = 0;
      try {
        applied = await this.step();
      } catch (error) {
        this.log.error({ err: error }, 'reaction failed; retrying the same event');
        await this.sleep(RETRY_MS);
        continue;
      }
      if (applied === 0 && this.running) await this.sleep(RETRY_MS);
    }
  }

  private async step(): Promise<number> {
    const batch = await this.events.readAll({ after: this.position(), maxCount: BATCH });
    if (batch.length === 0) return 0;
    for (const reaction of this.reactions) await this.applyBatch(reaction, batch);
    const position = this.position();
    const ready = this.waiters.filter((waiter) => waiter.position <= position);
    this.waiters = this.waiters.filter((waiter) => waiter.position > position);
    for (const waiter of ready) waiter.resolve(true);
    return batch.length;
  }

  private async applyBatch(reaction: Reaction, batch: RecordedEvent[]): Promise<void> {
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

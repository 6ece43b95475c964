import type { EventStore, RecordedEvent } from '../eventstore/port.ts';
import type { Logger } from '../log.ts';

/** A follower could not reach a position because its batches keep failing; `cause` is the last failure. */
export class FollowerStalled extends Error {
  constructor(label: string, position: number, cause: unknown) {
    super(`${label} is stalled before position ${position}`, { cause });
    this.name = 'FollowerStalled';
  }
}

/** Something that follows the log: a projection or a process manager. */
export interface LogHandler {
  name: string;
  /** Event types it reads; others only advance its checkpoint. */
  handles: readonly string[];
}

/**
 * Reads `$all` strictly in order for a set of handlers, each from its own checkpoint, and lets
 * callers wait until a position has been handled. A batch that fails is retried from the same
 * event: a position is never skipped. Subclasses say where checkpoints live and how a batch applies.
 */
export abstract class LogFollower<Handler extends LogHandler> {
  protected readonly checkpoints = new Map<string, number>();
  private waiters: Array<{ position: number; resolve: (ok: boolean) => void }> = [];
  private running = false;
  private loaded = false;
  private loop: Promise<void> | undefined;
  /** Ends the current sleep; unset while the follower is not sleeping. */
  private sleeping: (() => void) | undefined;
  /** A wake-up came while the follower was reading or applying: the next sleep is skipped, since that read may have missed it. */
  private nudged = false;
  private subscription: { close(): Promise<void> } | undefined;
  /** Why the last batch failed, until a batch succeeds: a waiter that times out meanwhile is told why. */
  private failure: unknown;
  /** The last page came back full: more of the log is waiting, so the next read asks for `catchUpBatch`. */
  private behind = false;

  constructor(
    protected readonly events: EventStore,
    protected readonly handlers: Handler[],
    protected readonly log: Logger,
    private readonly settings: {
      batch: number;
      /** Page size while behind the head (a rebuild, a restart after downtime); `batch` when not given. */
      catchUpBatch?: number;
      retryMs: number;
      label: string;
    },
  ) {}

  /** Reads each handler's checkpoint into `checkpoints` (and prepares what it needs). */
  protected abstract loadCheckpoints(): Promise<void>;
  /**
   * Applies the batch to every handler and records their new checkpoints, both in `checkpoints` and
   * durably. `catchingUp`: the page came back full while the follower was behind, so more pages follow
   * at once; whatever such a batch records may be lost to a crash, since it is read again from the log.
   */
  protected abstract applyBatch(batch: RecordedEvent[], catchingUp: boolean): Promise<void>;

  /**
   * Resolves once what the batches applied so far wrote can be read (a store may commit after a batch
   * has returned); rejects when such a write was refused. Waiters are answered only after it.
   */
  protected visible(): Promise<void> {
    return Promise.resolve();
  }

  async start(): Promise<void> {
    await this.load();
    this.running = true;
    const subscription = this.events.subscribeToAll({ after: await this.events.headPosition() });
    this.subscription = subscription;
    void (async () => {
      try {
        for await (const _event of subscription) this.rouse();
      } catch (error) {
        if (this.running) this.log.error({ err: error }, `${this.settings.label} wake-up subscription ended`);
      }
    })();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.rouse();
    await this.subscription?.close();
    await this.loop;
    for (const waiter of this.waiters) waiter.resolve(false);
    this.waiters = [];
  }

  /**
   * Resolves true once every handler is at or past `position`, false on timeout. If batches are
   * failing when the time runs out, rejects with a `FollowerStalled` whose cause is the batch's error:
   * a caller about to read its own write must not report "not found" when the truth is, say, a full disk.
   */
  waitFor(position: number, timeoutMs = 5000): Promise<boolean> {
    if (this.position() >= position) {
      return this.visible().then(
        () => true,
        (error: unknown) => {
          throw new FollowerStalled(this.settings.label, position, error);
        },
      );
    }
    return new Promise((resolve, reject) => {
      const waiter = { position, resolve };
      this.waiters.push(waiter);
      setTimeout(() => {
        this.waiters = this.waiters.filter((candidate) => candidate !== waiter);
        if (this.failure === undefined) resolve(false);
        else reject(new FollowerStalled(this.settings.label, position, this.failure));
      }, timeoutMs).unref();
    });
  }

  /** Applies everything up to the current head once, without following the log afterwards. */
  async catchUp(onProgress?: (position: number) => void): Promise<void> {
    await this.load();
    for (;;) {
      const applied = await this.step();
      if (applied === 0) return this.visible();
      onProgress?.(this.position());
    }
  }

  protected position(): number {
    let lowest = Number.POSITIVE_INFINITY;
    for (const handler of this.handlers) lowest = Math.min(lowest, this.checkpoints.get(handler.name) ?? 0);
    return Number.isFinite(lowest) ? lowest : 0;
  }

  protected nudge(): void {
    this.rouse();
  }

  private rouse(): void {
    if (this.sleeping) this.sleeping();
    else this.nudged = true;
  }

  private async load(): Promise<void> {
    if (this.loaded) return;
    await this.loadCheckpoints();
    this.loaded = true;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let applied = 0;
      try {
        applied = await this.step();
        this.failure = undefined;
      } catch (error) {
        this.failure = error;
        this.log.error({ err: error }, `${this.settings.label} batch failed; retrying from the same event`);
        await this.sleep(this.settings.retryMs);
        continue;
      }
      if (applied === 0 && this.running) await this.sleep(this.settings.retryMs);
    }
  }

  /**
   * After a failed batch the checkpoints are read again before the next: a store that commits after a
   * batch has returned may have refused batches the checkpoints in memory had already moved past.
   */
  private async step(): Promise<number> {
    await this.load();
    try {
      const size = this.behind ? (this.settings.catchUpBatch ?? this.settings.batch) : this.settings.batch;
      const batch = await this.events.readAll({ after: this.position(), maxCount: size });
      this.behind = batch.length === size;
      if (batch.length === 0) return 0;
      await this.applyBatch(batch, this.behind);
      const position = this.position();
      if (this.waiters.some((waiter) => waiter.position <= position)) await this.visible();
      const ready = this.waiters.filter((waiter) => waiter.position <= position);
      this.waiters = this.waiters.filter((waiter) => waiter.position > position);
      for (const waiter of ready) waiter.resolve(true);
      return batch.length;
    } catch (error) {
      this.loaded = false;
      throw error;
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.nudged) {
      this.nudged = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleeping = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleeping = done;
    });
  }
}

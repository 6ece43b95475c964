import type { EventStore, RecordedEvent } from '@scriptorium/infra/eventstore/port';
import { LogFollower } from '@scriptorium/infra/eventsourcing/follower';
import type { ReadStore } from '@scriptorium/infra/readstore/port';
import type { Logger } from '@scriptorium/infra/log';
import type { ProgressSignal } from '@scriptorium/infra/progress/port';
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
 * also moves the projections' checkpoints, so a crash leaves either the whole batch or none of it.
 */
export class ProjectionRunner extends LogFollower<Projection> implements ProjectionProgress {
  private readonly failing = new Map<string, string>();
  /** For each event type, the projections (their indexes in `handlers`) that handle it: a batch is sorted out in one pass. */
  private readonly handlersOf = new Map<string, number[]>();

  constructor(
    events: EventStore,
    private readonly store: ReadStore,
    projections: Projection[],
    log: Logger,
    /** Where api processes elsewhere hear how far the read models are. */
    private readonly signal?: ProgressSignal,
  ) {
    super(events, projections, log, { batch: 500, catchUpBatch: 2000, retryMs: 1000, label: 'projection' });
    for (const [index, projection] of projections.entries()) {
      for (const type of new Set(projection.handles)) this.handlersOf.set(type, [...(this.handlersOf.get(type) ?? []), index]);
    }
  }

  protected async loadCheckpoints(): Promise<void> {
    await this.store.setup(async (store) => {
      for (const projection of this.handlers) await projection.setup?.(store);
    });
    for (const projection of this.handlers) this.checkpoints.set(projection.name, await this.store.getCheckpoint(projection.name));
  }

  protected override visible(): Promise<void> {
    return this.store.flushed();
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

  /**
   * One transaction for every projection: a commit per projection per batch cost more than most
   * projections' own work. A projection that fails rolls the whole batch back and is named in the
   * status; the batch is retried from the same event, as before. While catching up, the batch is
   * one of many in a row and the store may commit it without waiting for the disk (`bulk`).
   */
  protected async applyBatch(batch: RecordedEvent[], catchingUp: boolean): Promise<void> {
    const last = batch[batch.length - 1]!.position;
    // Most projections handle none of a batch's types (a log is mostly a few conversation events).
    const from = this.handlers.map((projection) => this.checkpoints.get(projection.name) ?? 0);
    const relevant: RecordedEvent[][] = this.handlers.map(() => []);
    for (const event of batch) {
      const handlers = this.handlersOf.get(event.type);
      if (handlers === undefined) continue;
      for (let i = 0; i < handlers.length; i++) {
        const index = handlers[i]!;
        if (event.position > from[index]!) relevant[index]!.push(event);
      }
    }
    const moved: string[] = [];
    await this.store.transaction(
      async (tx) => {
        for (const [index, projection] of this.handlers.entries()) {
          if (last <= from[index]!) continue;
          try {
            await applyToProjection(projection, relevant[index]!, tx);
          } catch (error) {
            this.failing.set(projection.name, error instanceof Error ? error.message : String(error));
            throw error;
          }
          await tx.setCheckpoint(projection.name, last);
          moved.push(projection.name);
        }
      },
      { bulk: catchingUp },
    );
    for (const name of moved) {
      this.failing.delete(name);
      this.checkpoints.set(name, last);
    }
    if (this.signal !== undefined && !catchingUp) await this.#announce();
  }

  /**
   * Said once the batch can be read. A failed announcement fails nothing: the batch is committed, and
   * a waiter elsewhere is answered by the next batch's announcement or gives up at its timeout.
   */
  async #announce(): Promise<void> {
    try {
      await this.visible();
      await this.signal!.announce(this.position());
    } catch (error) {
      this.log.warn({ err: error }, 'could not announce the projections\' progress');
    }
  }
}

/** Without a signal to listen to, the checkpoints are read this often; with one, only while its connection is lost. */
const POLL_MS = 50;
const LOST_SIGNAL_POLL_MS = 500;

/**
 * For an api process whose projector runs elsewhere. With a progress signal (PostgreSQL), a waiter
 * reads the checkpoints once and is then woken by the projector's announcements; the checkpoints are
 * polled, slowly, only while the signal's connection is lost. Without one, they are polled.
 */
export class RemoteProjectionProgress implements ProjectionProgress {
  /** The latest position announced: announcements arrive in commit order, so the latest is the truth (a rebuild lowers it). */
  #announced = 0;
  #waiters = new Set<{ position: number; resolve: () => void }>();
  #poller: NodeJS.Timeout | undefined;
  #listening: Promise<void> | undefined;

  constructor(
    private readonly store: ReadStore,
    private readonly names: string[],
    private readonly signal?: ProgressSignal,
  ) {}

  async waitFor(position: number, timeoutMs = 5000): Promise<boolean> {
    // Listening before the read, so that no announcement falls between the read and the wait.
    await this.#listen();
    // An announcement heard on a connection still held covers every position up to it: no read needed.
    if (this.signal?.listening && this.#announced >= position) return true;
    if ((await this.#reached()) >= position) return true;
    return new Promise<boolean>((resolve) => {
      const waiter = {
        position,
        resolve: () => {
          clearTimeout(timer);
          this.#waiters.delete(waiter);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        this.#stopPollingWhenIdle();
        resolve(false);
      }, timeoutMs);
      this.#waiters.add(waiter);
      this.#poller ??= setInterval(() => void this.#poll(), this.signal ? LOST_SIGNAL_POLL_MS : POLL_MS);
      this.#answer(this.#announced);
    });
  }

  readonly #heard = (position: number): void => {
    this.#announced = position;
    this.#answer(position);
  };

  #listen(): Promise<void> {
    if (this.signal === undefined) return Promise.resolve();
    this.#listening ??= this.signal.listen(this.#heard).catch(() => {
        // Not listening: the poll answers until the signal connects again.
      this.#listening = undefined;
    });
    return this.#listening;
  }

  async #reached(): Promise<number> {
    return Math.min(...(await Promise.all(this.names.map((name) => this.store.getCheckpoint(name)))));
  }

  #answer(reached: number): void {
    for (const waiter of this.#waiters) if (waiter.position <= reached) waiter.resolve();
    this.#stopPollingWhenIdle();
  }

  #stopPollingWhenIdle(): void {
    if (this.#waiters.size === 0 && this.#poller !== undefined) {
      clearInterval(this.#poller);
      this.#poller = undefined;
    }
  }

  async #poll(): Promise<void> {
    if (this.signal?.listening) return this.#answer(this.#announced);
    try {
      this.#answer(await this.#reached());
    } catch {
      // The read store is unreachable; the next tick tries again, and the waiter's timeout still holds.
    }
  }
}

import type { AllSubscription, RecordedEvent } from './port.ts';

/** Rows per catch-up read: large enough to amortise the query, small enough to keep the event loop responsive. */
const PAGE_SIZE = 256;

/** What a store gives a subscription: its log, read a page at a time, and how it learns of commits. */
export interface PageSource {
  /** Runs once before the first read: a store that is told of commits starts listening here, so none falls between the read and the wait. */
  start?(): Promise<void>;
  readPage(after: number, limit: number): RecordedEvent[] | Promise<RecordedEvent[]>;
  /** The highest position the store has been told of; a store without notifications leaves it out. */
  announced?(): number;
}

/**
 * Catch-up and live are one loop: read the next page after the last delivered position, and when a
 * page comes back empty, sleep until the store reports a position beyond it. There is no hand-over
 * between a catch-up phase and a live phase, hence nothing to miss or repeat between them; it rests
 * on each store's guarantee that a position read "after" is final. A commit announced while the
 * empty page was being read is noticed through `announced`, so it does not wait for the next poll.
 */
class PagedSubscription implements AllSubscription {
  #after: number;
  #closed = false;
  #wake: (() => void) | undefined;

  constructor(
    after: number,
    private readonly source: PageSource,
    private readonly detach: (subscription: PagedSubscription) => void,
  ) {
    this.#after = after;
  }

  get waiting(): boolean {
    return this.#wake !== undefined;
  }

  wake(head: number): void {
    if (this.#wake === undefined || (!this.#closed && head <= this.#after)) return;
    const resume = this.#wake;
    this.#wake = undefined;
    resume();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    try {
      await this.source.start?.();
      while (!this.#closed) {
        const announcedBefore = this.source.announced?.();
        let page: RecordedEvent[];
        try {
          page = await this.source.readPage(this.#after, PAGE_SIZE);
        } catch (error) {
          // A read cut short by close() (the store's connection ending) ends the iteration rather than failing it.
          if (this.#closed) return;
          throw error;
        }
        if (this.#closed) return;
        if (page.length === 0) {
          const announced = this.source.announced?.();
          if (announced !== undefined && announced !== announcedBefore && announced > this.#after) continue;
          await new Promise<void>((resolve) => (this.#wake = resolve));
          continue;
        }
        for (const event of page) {
          if (this.#closed) return;
          this.#after = event.position;
          yield event;
        }
      }
    } finally {
      this.detach(this);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.wake(Number.POSITIVE_INFINITY);
    this.detach(this);
  }
}

/**
 * A store's open subscriptions, and the poll that runs while any is open: it catches commits no
 * notification reached (another process's, or one lost with its connection).
 */
export class Subscriptions {
  readonly #open = new Set<PagedSubscription>();
  #poller: NodeJS.Timeout | undefined;

  constructor(
    private readonly source: PageSource,
    /** Looks for the head and wakes the subscriptions; run every `pollMs` while any of them waits. */
    private readonly poll: () => Promise<void> | void,
    private readonly pollMs: number,
  ) {}

  get size(): number {
    return this.#open.size;
  }

  /** A subscription from `after`; a closed store hands out one already closed. */
  open(after: number, closed: boolean): AllSubscription {
    const subscription = new PagedSubscription(after, this.source, (sub) => this.#detach(sub));
    if (closed) {
      void subscription.close();
      return subscription;
    }
    this.#open.add(subscription);
    this.#poller ??= setInterval(() => void this.#poll(), this.pollMs);
    return subscription;
  }

  wake(head: number): void {
    for (const subscription of this.#open) subscription.wake(head);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.#open].map((subscription) => subscription.close()));
  }

  #detach(subscription: PagedSubscription): void {
    this.#open.delete(subscription);
    if (this.#open.size === 0 && this.#poller !== undefined) {
      clearInterval(this.#poller);
      this.#poller = undefined;
    }
  }

  async #poll(): Promise<void> {
    if ([...this.#open].some((subscription) => subscription.waiting)) await this.poll();
  }
}

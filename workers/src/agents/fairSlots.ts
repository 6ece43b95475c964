/**
 * Slots one worker shares among every job it runs (its research runs' model calls, or their
 * searches and page reads), handed out fairly between owners (users): a freed slot goes to the
 * waiting owner who holds the fewest, the longest waiting among equals. p-limit (which each run
 * still uses for its own bound) serves strictly in arrival order, so a run that queued a burst
 * would keep every slot until the burst drained; here a user who just arrived waits for one slot
 * to free, never for another user's whole run.
 */
export class FairSlots {
  private inUse = 0;
  private readonly held = new Map<string, number>();
  /** Waiting tasks per owner; the map's order is how long each owner has waited. */
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
  }

  /** Slots in use now. */
  get active(): number {
    return this.inUse;
  }

  async run<T>(owner: string, task: () => Promise<T>): Promise<T> {
    await this.acquire(owner);
    try {
      return await task();
    } finally {
      this.release(owner);
    }
  }

  private acquire(owner: string): Promise<void> {
    if (this.inUse < this.capacity && this.waiting.size === 0) {
      this.take(owner);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const queue = this.waiting.get(owner);
      if (queue) queue.push(resolve);
      else this.waiting.set(owner, [resolve]);
    });
  }

  private take(owner: string): void {
    this.inUse++;
    this.held.set(owner, (this.held.get(owner) ?? 0) + 1);
  }

  private release(owner: string): void {
    this.inUse--;
    const left = (this.held.get(owner) ?? 1) - 1;
    if (left === 0) this.held.delete(owner);
    else this.held.set(owner, left);
    this.dispatch();
  }

  private dispatch(): void {
    while (this.inUse < this.capacity && this.waiting.size > 0) {
      let next: string | undefined;
      for (const owner of this.waiting.keys()) {
        if (next === undefined || (this.held.get(owner) ?? 0) < (this.held.get(next) ?? 0)) next = owner;
      }
      const queue = this.waiting.get(next!)!;
      const resolve = queue.shift()!;
      // Served: the owner goes to the back of the line for its next task.
      this.waiting.delete(next!);
      if (queue.length > 0) this.waiting.set(next!, queue);
      this.take(next!);
      resolve();
    }
  }
}

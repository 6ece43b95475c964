import test from 'ava';
import { pino } from 'pino';
import { SqliteEventStore } from '../eventstore/sqlite.ts';
import type { AllSubscription, ReadAllOptions, RecordedEvent } from '../eventstore/port.ts';
import { FollowerStalled, LogFollower, type LogHandler } from './follower.ts';

const silent = pino({ level: 'silent' });

/** A follower whose batches fail with `failWith` while it is set, as a read store on a full disk does. */
class Flaky extends LogFollower<LogHandler> {
  failWith: Error | undefined;
  constructor(events: SqliteEventStore) {
    super(events, [{ name: 'only', handles: ['Numbered'] }], silent, { batch: 10, retryMs: 20, label: 'flaky' });
  }
  protected async loadCheckpoints(): Promise<void> {
    this.checkpoints.set('only', 0);
  }
  protected async applyBatch(batch: RecordedEvent[]): Promise<void> {
    if (this.failWith) throw this.failWith;
    this.checkpoints.set('only', batch[batch.length - 1]!.position);
  }
}

const numbered = (n: number) => [{ type: 'Numbered', data: { n }, metadata: { at: '2026-01-01T00:00:00.000Z' } }];

test('a waiter is told why when batches keep failing, and waits normally once they succeed again', async (t) => {
  const events = new SqliteEventStore(':memory:');
  const follower = new Flaky(events);
  const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
  follower.failWith = full;
  await follower.start();
  t.teardown(async () => {
    await follower.stop();
    await events.close();
  });

  const { position } = await events.appendToStream('n-1', numbered(1));
  const stalled = await t.throwsAsync(follower.waitFor(position, 200), { instanceOf: FollowerStalled });
  t.is(stalled?.cause, full, 'the batch error is the cause, so the api can answer 507 storage.full');

  follower.failWith = undefined;
  t.true(await follower.waitFor(position, 2000));
});

test('a waiter that times out while nothing fails is answered false, as before', async (t) => {
  const events = new SqliteEventStore(':memory:');
  const follower = new Flaky(events);
  await follower.start();
  t.teardown(async () => {
    await follower.stop();
    await events.close();
  });
  t.false(await follower.waitFor(1_000, 50));
});

/** Records the size of every batch it is given and whether it was told it is catching up. */
class Recording extends LogFollower<LogHandler> {
  readonly batches: Array<[number, boolean]> = [];
  constructor(events: SqliteEventStore, retryMs = 20) {
    super(events, [{ name: 'only', handles: ['Numbered'] }], silent, { batch: 10, catchUpBatch: 40, retryMs, label: 'recording' });
  }
  protected async loadCheckpoints(): Promise<void> {
    this.checkpoints.set('only', 0);
  }
  protected async applyBatch(batch: RecordedEvent[], catchingUp: boolean): Promise<void> {
    this.batches.push([batch.length, catchingUp]);
    this.checkpoints.set('only', batch[batch.length - 1]!.position);
  }
}

test('behind the head, a follower reads larger pages and says it is catching up; at the head, small ones again', async (t) => {
  const events = new SqliteEventStore(':memory:');
  t.teardown(() => events.close());
  for (let n = 0; n < 95; n++) await events.appendToStream(`n-${n}`, numbered(n));
  const follower = new Recording(events);
  await follower.catchUp();
  // The first page is the ordinary size; a full one means more is waiting.
  t.deepEqual(follower.batches, [[10, true], [40, true], [40, true], [5, false]]);
  await events.appendToStream('n-95', numbered(95));
  await follower.catchUp();
  t.deepEqual(follower.batches.at(-1), [1, false]);
});

/**
 * The log as a reader sees it when a commit lands while its read is in flight: the first `readAll`
 * answers from before that commit, and returns only once the follower's wake-up subscription has
 * delivered the commit.
 */
class CommitDuringFirstRead extends SqliteEventStore {
  committed: Promise<number> | undefined;
  #delivered: (position: number) => void = () => undefined;

  override subscribeToAll(options?: { after?: number }): AllSubscription {
    const inner = super.subscribeToAll(options);
    const onDelivered = (position: number) => this.#delivered(position);
    return {
      close: () => inner.close(),
      async *[Symbol.asyncIterator]() {
        for await (const recorded of inner) {
          yield recorded;
          onDelivered(recorded.position);
        }
      },
    };
  }

  override async readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    const before = await super.readAll(options);
    if (this.committed !== undefined) return before;
    const delivered = new Promise<number>((resolve) => (this.#delivered = resolve));
    this.committed = this.appendToStream('n-late', numbered(1)).then(({ position }) => position);
    await delivered;
    return before;
  }
}

test('a commit announced while the follower is reading is read next, not after the idle sleep', async (t) => {
  const events = new CommitDuringFirstRead(':memory:');
  // An hour: a follower that missed the wake-up would sleep through the test.
  const follower = new Recording(events, 3_600_000);
  await follower.start();
  t.teardown(async () => {
    await follower.stop();
    await events.close();
  });
  while (events.committed === undefined) await new Promise((resolve) => setImmediate(resolve));
  t.true(await follower.waitFor(await events.committed, 60_000));
});

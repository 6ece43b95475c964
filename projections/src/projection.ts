import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Collection, Doc, ReadStore, ReadStoreTx, Update } from '@scriptorium/infra/readstore/port';
import { applyUpdate, normalizeUpdate } from '@scriptorium/infra/readstore/shared';

/** A read model kept from the log. `apply` must only touch `collections`, through `tx`. */
export interface Projection {
  name: string;
  collections: string[];
  /** Event types it reads; others only advance its checkpoint. */
  handles: readonly string[];
  /** Indexes; run at every start, so it must be idempotent. */
  setup?(store: ReadStore): Promise<void>;
  apply(event: RecordedEvent, tx: ReadStoreTx): Promise<void>;
  /** Optional: applies a batch in one go, for projections that would otherwise rewrite a document per event. */
  applyBatch?(events: RecordedEvent[], tx: ReadStoreTx): Promise<void>;
}

/** Applies a batch of events the projection handles, inside the caller's transaction. */
export async function applyToProjection(projection: Projection, events: RecordedEvent[], tx: ReadStoreTx): Promise<void> {
  if (projection.applyBatch) {
    if (events.length > 0) await projection.applyBatch(events, tx);
  } else {
    for (const event of events) await projection.apply(event, tx);
  }
}

/**
 * An update that counts ($inc), applied once per event: a standalone Mongo replays a batch a crash
 * interrupted, so the document keeps the position it last counted and skips what it has seen.
 */
export async function countOnce(collection: Collection, id: string, position: number, update: Update, options: { upsert?: boolean } = {}): Promise<void> {
  const counter = new BatchCounter(collection);
  await counter.count(id, position, update, options);
  await counter.flush();
}

/**
 * `countOnce` for a whole batch: each document is read once, counted in memory by the read store's
 * own update rules, and written once by `flush`. A rebuild then costs a read and a write per
 * document and batch rather than per event. Only for counters: `$set` values are not copied.
 */
export class BatchCounter {
  private readonly docs = new Map<string, Doc | null>();
  private readonly dirty = new Set<string>();

  constructor(private readonly collection: Collection) {}

  async count(id: string, position: number, update: Update, options: { upsert?: boolean } = {}): Promise<void> {
    if (!this.docs.has(id)) this.docs.set(id, await this.collection.get(id));
    const current = this.docs.get(id)!;
    const counted = current?.last_position;
    if ((typeof counted === 'number' && position <= counted) || (current === null && !options.upsert)) return;
    const normalized = normalizeUpdate({ ...update, $set: { ...update.$set, last_position: position } });
    this.docs.set(id, applyUpdate(current ?? { _id: id }, normalized, current === null));
    this.dirty.add(id);
  }

  async flush(): Promise<void> {
    for (const id of this.dirty) await this.collection.put(this.docs.get(id)!);
    this.dirty.clear();
  }
}

import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Collection, ReadStore, ReadStoreTx, Update } from '@scriptorium/infra/readstore/port';

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
  const counted = (await collection.get(id))?.last_position;
  if (typeof counted === 'number' && position <= counted) return;
  await collection.update(id, { ...update, $set: { ...update.$set, last_position: position } }, options);
}

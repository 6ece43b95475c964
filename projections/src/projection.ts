import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { ReadStore, ReadStoreTx } from '@scriptorium/infra/readstore/port';

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

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
  setup?(store: Pick<ReadStore, 'collection'>): Promise<void>;
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
 * The documents of one collection that a batch touches: each is read at most once, changed in memory
 * and written once by `flush`. A rebuild then costs a read and a write per document and batch rather
 * than per event.
 */
export class DocumentBatch<T extends Doc> {
  private readonly docs = new Map<string, T | null>();
  private readonly dirty = new Set<string>();

  constructor(private readonly collection: Collection<T>) {}

  /** The document as the batch has it so far, without waiting: undefined when not read yet. */
  peek(id: string): T | null | undefined {
    return this.docs.get(id);
  }

  /** The document as the batch has it so far (null: there is none); `peek` first spares a hot loop an await. */
  async get(id: string): Promise<T | null> {
    const known = this.docs.get(id);
    if (known !== undefined) return known;
    const doc = await this.collection.get(id);
    this.docs.set(id, doc);
    return doc;
  }

  /** The document's new state, written by `flush`. */
  set(doc: T): void {
    this.docs.set(doc._id, doc);
    this.dirty.add(doc._id);
  }

  async flush(): Promise<void> {
    for (const id of this.dirty) await this.collection.put(this.docs.get(id)!);
    this.dirty.clear();
  }
}

/**
 * `countOnce` for a whole batch: each document is counted in memory by the read store's own update
 * rules, in a `DocumentBatch`. Only for counters: `$set` values are not copied.
 */
export class BatchCounter {
  private readonly docs: DocumentBatch<Doc>;

  constructor(collection: Collection) {
    this.docs = new DocumentBatch(collection);
  }

  async count(id: string, position: number, update: Update, options: { upsert?: boolean } = {}): Promise<void> {
    const current = this.docs.peek(id) ?? (await this.docs.get(id));
    const counted = current?.last_position;
    if ((typeof counted === 'number' && position <= counted) || (current === null && !options.upsert)) return;
    const normalized = normalizeUpdate({ ...update, $set: { ...update.$set, last_position: position } });
    this.docs.set(applyUpdate(current ?? { _id: id }, normalized, current === null));
  }

  flush(): Promise<void> {
    return this.docs.flush();
  }
}

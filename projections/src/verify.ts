import type { EventStore } from '@scriptorium/infra/eventstore/port';
import type { Doc, ReadStore } from '@scriptorium/infra/readstore/port';
import { SqliteReadStore } from '@scriptorium/infra/readstore/sqlite';
import { applyToProjection, type Projection } from './projection.ts';

export interface Difference {
  collection: string;
  id: string;
  /** `missing`: the shadow has it, the live store not; `extra`: the other way round. */
  kind: 'missing' | 'extra' | 'changed';
  live: Doc | null;
  shadow: Doc | null;
}

export interface VerifyReport {
  projection: string;
  /** The position both stores were compared at. */
  position: number;
  documents: number;
  differences: Difference[];
  /** More differences than the report lists. */
  truncated: boolean;
}

const BATCH = 500;
const MAX_DIFFERENCES = 100;
/** The live projector keeps going while we compare; give up chasing it after this many rounds. */
const MAX_ROUNDS = 5;

/** Key order is not part of a document (JSONB and Mongo reorder keys), so compare a canonical form. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Applies the log from `after` up to `until` (inclusive) to the projection in `store`, as the runner does. */
async function replay(events: EventStore, store: ReadStore, projection: Projection, after: number, until: number, onProgress?: (position: number) => void): Promise<void> {
  let position = after;
  while (position < until) {
    const batch = (await events.readAll({ after: position, maxCount: BATCH })).filter((event) => event.position <= until);
    if (batch.length === 0) return;
    const relevant = batch.filter((event) => projection.handles.includes(event.type));
    await store.transaction((tx) => applyToProjection(projection, relevant, tx));
    position = batch.at(-1)!.position;
    onProgress?.(position);
  }
}

async function compare(live: ReadStore, shadow: ReadStore, projection: Projection): Promise<{ documents: number; differences: Difference[] }> {
  const differences: Difference[] = [];
  let documents = 0;
  for (const collection of projection.collections) {
    const [liveDocs, shadowDocs] = await Promise.all([live.collection(collection).find({}), shadow.collection(collection).find({})]);
    const shadowById = new Map(shadowDocs.map((doc) => [doc._id, doc]));
    documents += shadowDocs.length;
    for (const doc of liveDocs) {
      const rebuilt = shadowById.get(doc._id);
      shadowById.delete(doc._id);
      if (!rebuilt) differences.push({ collection, id: doc._id, kind: 'extra', live: doc, shadow: null });
      else if (canonical(doc) !== canonical(rebuilt)) differences.push({ collection, id: doc._id, kind: 'changed', live: doc, shadow: rebuilt });
    }
    for (const doc of shadowById.values()) differences.push({ collection, id: doc._id, kind: 'missing', live: null, shadow: doc });
  }
  return { documents, differences };
}

/**
 * Rebuilds one read model into a shadow store (in-memory SQLite) from the log and compares it,
 * document by document, with the live one at the live checkpoint. A projector that skipped or
 * doubled a position leaves a difference. The live store is only read.
 */
export async function verifyProjection(events: EventStore, live: ReadStore, projection: Projection, onProgress?: (position: number, head: number) => void): Promise<VerifyReport> {
  const shadow = new SqliteReadStore(':memory:');
  try {
    await projection.setup?.(shadow);
    let position = 0;
    for (let round = 0; ; round += 1) {
      const checkpoint = await live.getCheckpoint(projection.name);
      await replay(events, shadow, projection, position, checkpoint, (at) => onProgress?.(at, checkpoint));
      position = Math.max(position, checkpoint);
      const { documents, differences } = await compare(live, shadow, projection);
      // Compared while the live model stood still: the report holds. Otherwise catch up and look again.
      if ((await live.getCheckpoint(projection.name)) === checkpoint || round + 1 >= MAX_ROUNDS) {
        return { projection: projection.name, position, documents, differences: differences.slice(0, MAX_DIFFERENCES), truncated: differences.length > MAX_DIFFERENCES };
      }
    }
  } finally {
    await shadow.close();
  }
}

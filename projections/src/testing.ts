import type { ExecutionContext } from 'ava';
import type { DomainEvent } from '@scriptorium/infra/eventsourcing/decider';
import type { EventMetadata, RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc, Filter, FindOptions } from '@scriptorium/infra/readstore/port';
import { SqliteReadStore } from '@scriptorium/infra/readstore/sqlite';
import { applyToProjection, type Projection } from './projection.ts';

/** An event as a spec gives it: the domain's own `{type, data}`, plus its stream or metadata when the projection reads them. */
export type GivenEvent<Event extends DomainEvent> = Event & { streamId?: string; metadata?: Partial<EventMetadata> };

/** When metadata.at is not given: the event's own `at` (a command handler stamps both from one clock), else this. */
export const GIVEN_AT = '2026-03-01T08:00:00.000Z';

type Expected = Record<string, unknown>;

export interface ProjectionScenario<Event extends DomainEvent> {
  /** Later events, applied as a batch of their own (the runner applies up to 500 events in one transaction). */
  when(...events: GivenEvent<Event>[]): ProjectionScenario<Event>;
  /** The last batch applied again at the same positions, as a standalone Mongo does when a crash interrupted it before its checkpoint. */
  replayed(): ProjectionScenario<Event>;
  /** The collection's documents, in `sort` order (by id when not given), each with the fields expected of it (arrays in full). */
  then(t: ExecutionContext, collection: string, expected: Expected[], query?: { filter?: Filter; sort?: FindOptions['sort'] }): Promise<void>;
  /** One document with the fields expected of it (arrays in full), or absent when `null`. */
  thenDoc(t: ExecutionContext, collection: string, id: string, expected: Expected | null): Promise<void>;
}

/**
 * given events / then documents, as in Emmett's projection specifications: the events are recorded
 * in order (positions from 1, revisions per stream from 0) and applied as the runner applies them,
 * into an in-memory SQLite read store that each test closes when it ends. Assertions of one scenario
 * share its store. Never `await` a scenario itself: its `then` would make it look like a promise.
 */
export function projectionSpec<Event extends DomainEvent>(projection: Projection) {
  const scenario = (batches: RecordedEvent[][]): ProjectionScenario<Event> => {
    let built: Promise<SqliteReadStore> | undefined;
    const store = (t: ExecutionContext) => {
      built ??= (async () => {
        const readStore = new SqliteReadStore(':memory:');
        t.teardown(() => readStore.close());
        // setup runs at every start, so each spec runs it twice.
        await projection.setup?.(readStore);
        await projection.setup?.(readStore);
        for (const batch of batches) {
          const relevant = batch.filter((event) => projection.handles.includes(event.type));
          await readStore.transaction((tx) => applyToProjection(projection, relevant, tx));
        }
        return readStore;
      })();
      return built;
    };
    return {
      when: (...events) => scenario([...batches, record(events, batches.flat())]),
      replayed: () => scenario([...batches, batches.at(-1)!]),
      async then(t, collection, expected, query = {}) {
        const docs = await (await store(t)).collection(collection).find(query.filter ?? {}, { sort: query.sort ?? { _id: 1 } });
        t.deepEqual(matched(docs, expected), expected);
      },
      async thenDoc(t, collection, id, expected) {
        const doc = await (await store(t)).collection<Doc>(collection).get(id);
        if (expected === null) t.is(doc, null);
        else t.deepEqual(matched(doc, expected), expected);
      },
    };
  };
  return { given: (...events: GivenEvent<Event>[]) => scenario([record(events, [])]) };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What of `actual` the expectation names: an object only the fields given, an array every element, so that one missing or extra shows. */
function matched(actual: unknown, expected: unknown): unknown {
  if (Array.isArray(actual) && Array.isArray(expected)) return actual.map((item, index) => (index < expected.length ? matched(item, expected[index]) : item));
  if (isObject(actual) && isObject(expected)) return Object.fromEntries(Object.keys(expected).map((key) => [key, matched(actual[key], expected[key])]));
  return actual;
}

/** Numbers events after those already recorded (a replay among them), as the event store would. */
function record(events: GivenEvent<DomainEvent>[], before: RecordedEvent[]): RecordedEvent[] {
  let position = Math.max(0, ...before.map((event) => event.position));
  const revisions = new Map<string, number>();
  for (const event of before) revisions.set(event.streamId, Math.max(revisions.get(event.streamId) ?? -1, event.revision));
  return events.map(({ type, data, streamId = 'stream-1', metadata }) => {
    position++;
    const revision = (revisions.get(streamId) ?? -1) + 1;
    revisions.set(streamId, revision);
    const ownAt = (data as { at?: unknown } | null)?.at;
    return { id: `event-${position}`, streamId, type, data, metadata: { at: typeof ownAt === 'string' ? ownAt : GIVEN_AT, ...metadata }, revision, position };
  });
}

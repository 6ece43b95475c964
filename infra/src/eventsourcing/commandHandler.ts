import type { EventStore, ExpectedRevision, RecordedEvent } from '../eventstore/port.ts';
import { WrongExpectedRevisionError } from '../eventstore/port.ts';
import type { Command, Decider, DomainEvent } from './decider.ts';
import { deterministicId, newId } from './ids.ts';

export interface HandleOptions {
  /** Makes event ids deterministic, so retrying the same command appends nothing twice. */
  commandId?: string;
  /** Conflicts are retried by re-reading the stream and deciding again. */
  maxAttempts?: number;
}

export interface HandleResult<State, Event extends DomainEvent> {
  newEvents: Event[];
  newState: State;
  nextExpectedRevision: number;
  /** Position of the last appended event (0 when the decision produced none). */
  position: number;
}

interface CachedState {
  state: unknown;
  revision: number;
}

/**
 * Load → fold → decide → append with the exact expected revision. States are cached per stream
 * and caught up from the store on every command, so the cache only saves re-reading old events and
 * is safe with other processes appending to the same stream.
 */
export class CommandHandler {
  private readonly cache = new Map<string, CachedState>();

  constructor(
    private readonly store: EventStore,
    private readonly cacheSize = 2000,
  ) {}

  async handle<State, Cmd extends Command, Event extends DomainEvent>(
    decider: Decider<State, Cmd, Event>,
    streamId: string,
    command: Cmd,
    options: HandleOptions = {},
  ): Promise<HandleResult<State, Event>> {
    const maxAttempts = options.maxAttempts ?? 5;
    for (let attempt = 1; ; attempt++) {
      const { state, revision } = await this.load(decider, streamId);
      const decided = decider.decide(command, state);
      const newEvents = Array.isArray(decided) ? decided : [decided];
      if (newEvents.length === 0) {
        return { newEvents, newState: state, nextExpectedRevision: revision, position: 0 };
      }
      const expectedRevision: ExpectedRevision = revision < 0 ? 'no_stream' : revision;
      const meta = command.metadata;
      try {
        const result = await this.store.appendToStream(
          streamId,
          newEvents.map((event, index) => ({
            id: options.commandId ? deterministicId(streamId, options.commandId, index) : newId(),
            type: event.type,
            data: event.data,
            metadata: {
              at: meta.now.toISOString(),
              ...(meta.userId !== undefined && { userId: meta.userId }),
              ...(meta.clientId !== undefined && { clientId: meta.clientId }),
              correlationId: meta.correlationId ?? options.commandId ?? newId(),
              ...(options.commandId !== undefined && { causationId: options.commandId }),
            },
          })),
          { expectedRevision },
        );
        const newState = newEvents.reduce(decider.evolve, state);
        this.remember(streamId, { state: newState, revision: result.nextExpectedRevision });
        return { newEvents, newState, nextExpectedRevision: result.nextExpectedRevision, position: result.position };
      } catch (error) {
        this.cache.delete(streamId);
        if (error instanceof WrongExpectedRevisionError && attempt < maxAttempts) continue;
        throw error;
      }
    }
  }

  /** Current state of a stream without deciding anything. */
  async load<State, Event extends DomainEvent>(
    decider: Pick<Decider<State, never, Event>, 'initialState' | 'evolve'>,
    streamId: string,
  ): Promise<{ state: State; revision: number }> {
    const cached = this.cache.get(streamId);
    let state = (cached?.state as State | undefined) ?? decider.initialState();
    let revision = cached?.revision ?? -1;
    const events: RecordedEvent[] = await this.store.readStream(streamId, { fromRevision: revision + 1 });
    for (const event of events) {
      state = decider.evolve(state, { type: event.type, data: event.data } as Event);
      revision = event.revision;
    }
    if (events.length > 0) this.remember(streamId, { state, revision });
    return { state, revision };
  }

  private remember(streamId: string, entry: CachedState): void {
    this.cache.delete(streamId);
    this.cache.set(streamId, entry);
    if (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
  }
}

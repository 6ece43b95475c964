/**
 * The shape every aggregate follows (as in Emmett): pure `decide` and `evolve`, with time and
 * identity arriving in the command's metadata so both stay deterministic and testable.
 */

export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

export interface CommandMetadata {
  /** When the command was issued; the only clock a decider may read. */
  now: Date;
  userId?: string;
  clientId?: string;
  correlationId?: string;
}

export interface Command<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
  metadata: CommandMetadata;
}

export interface Decider<State, Cmd extends Command, Event extends DomainEvent> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Cmd, state: State): Event | Event[];
}

export type DomainErrorKind = 'invalid' | 'not_found' | 'forbidden' | 'conflict' | 'unauthorized' | 'budget_exhausted';

/** A refusal by the domain; the HTTP layer maps `kind` to the error catalogue's status. */
export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export function assertNever(value: never): never {
  throw new Error(`unhandled variant: ${JSON.stringify(value)}`);
}

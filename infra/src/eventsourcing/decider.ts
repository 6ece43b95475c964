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

/** `budget_busy`: quota remains, but calls already running hold all of it for now. */
export type DomainErrorKind = 'invalid' | 'not_found' | 'forbidden' | 'conflict' | 'unauthorized' | 'budget_exhausted' | 'budget_busy';

/**
 * A refusal by the domain; the HTTP layer maps `kind` to the error catalogue's status. `code` and
 * `params` say what was refused in a way any language can render; the message is the Chinese text
 * the kernel's catalogue gives for them (build one with the kernel's `refuse`).
 */
export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly code: string,
    message: string,
    readonly params: Readonly<Record<string, string | number>> = {},
    readonly field?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export function assertNever(value: never): never {
  throw new Error(`unhandled variant: ${JSON.stringify(value)}`);
}

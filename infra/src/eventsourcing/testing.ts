import type { ExecutionContext } from 'ava';
import { DomainError, type Command, type Decider, type DomainErrorKind, type DomainEvent } from './decider.ts';

/** given events / when command / then events (or throws), as in Emmett's DeciderSpecification. */
export function deciderSpec<State, Cmd extends Command, Event extends DomainEvent>(decider: Decider<State, Cmd, Event>) {
  return (given: Event[]) => ({
    when: (command: Cmd) => {
      const run = () => {
        const state = given.reduce(decider.evolve, decider.initialState());
        const decided = decider.decide(command, state);
        return Array.isArray(decided) ? decided : [decided];
      };
      return {
        then: (t: ExecutionContext, expected: Event[]) => t.deepEqual(run(), expected),
        thenThrows: (t: ExecutionContext, kind: DomainErrorKind, message?: string) => {
          const error = t.throws(run, { instanceOf: DomainError }) as DomainError | undefined;
          t.is(error?.kind, kind);
          if (message !== undefined) t.is(error?.message, message);
        },
      };
    },
  });
}

export const at = (iso: string) => ({ now: new Date(iso) });

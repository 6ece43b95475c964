import { createHash } from 'node:crypto';
import { assertNever, type Command, type Decider, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';
import { refuse } from '../refuse.ts';

/**
 * Names that look alike (the same skeleton: case, width, confusable letters folded) belong to one
 * account. The read model's index of skeletons comes after the fact, so two look-alike names
 * registering at the same moment would both pass it; each skeleton gets a stream of its own that
 * records who holds it, and the store's expected revision lets only one of them in.
 */

export type UsernameKeyReserved = DomainEvent<'UsernameKeyReserved', { usernameKey: string; userId: string }>;
export type UsernameKeyReleased = DomainEvent<'UsernameKeyReleased', { usernameKey: string; userId: string }>;
export type NameClaimEvent = UsernameKeyReserved | UsernameKeyReleased;

export type NameClaim = { status: 'free' } | { status: 'held'; userId: string };

export type ReserveUsernameKey = Command<'ReserveUsernameKey', { usernameKey: string; userId: string }>;
export type ReleaseUsernameKey = Command<'ReleaseUsernameKey', { usernameKey: string; userId: string }>;
export type NameClaimCommand = ReserveUsernameKey | ReleaseUsernameKey;

export const initialState = (): NameClaim => ({ status: 'free' });

export function evolve(_state: NameClaim, event: NameClaimEvent): NameClaim {
  switch (event.type) {
    case 'UsernameKeyReserved':
      return { status: 'held', userId: event.data.userId };
    case 'UsernameKeyReleased':
      return { status: 'free' };
    default:
      return assertNever(event);
  }
}

export function decide(command: NameClaimCommand, state: NameClaim): NameClaimEvent[] {
  switch (command.type) {
    case 'ReserveUsernameKey':
      if (state.status === 'held') {
        if (state.userId === command.data.userId) return [];
        throw refuse('conflict', 'auth.username_taken', {}, 'username');
      }
      return [{ type: 'UsernameKeyReserved', data: command.data }];
    case 'ReleaseUsernameKey':
      if (state.status === 'free' || state.userId !== command.data.userId) return [];
      return [{ type: 'UsernameKeyReleased', data: command.data }];
    default:
      return assertNever(command);
  }
}

export const nameClaimDecider: Decider<NameClaim, NameClaimCommand, NameClaimEvent> = { initialState, evolve, decide };

export const nameClaimStream = (usernameKey: string): string => `nameclaim-${createHash('sha256').update(usernameKey).digest('hex').slice(0, 32)}`;

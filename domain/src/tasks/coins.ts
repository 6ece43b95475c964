import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';

/**
 * A user's cognition coins as a ledger (`coins-<userId>`). A reward is claimed inside this one
 * stream with the exact expected revision, so however many claims race, one of them succeeds.
 */

export type CoinRewardClaimed = DomainEvent<
  'CoinRewardClaimed',
  { userId: string; rewardId: string; taskId: string; day: string; coins: number; balance: number; at: string }
>;

export type CoinsEvent = CoinRewardClaimed;

export type CoinLedger = { status: 'open'; balance: number; claimed: string[] };

export const initialState = (): CoinLedger => ({ status: 'open', balance: 0, claimed: [] });

export function evolve(state: CoinLedger, event: CoinsEvent): CoinLedger {
  switch (event.type) {
    case 'CoinRewardClaimed':
      return { ...state, balance: event.data.balance, claimed: [...state.claimed, event.data.rewardId] };
    default:
      return assertNever(event.type);
  }
}

export const coinsStream = (userId: string): string => `coins-${userId}`;

import { errorText } from '../protocol/errors.ts';
import { refuse } from '../refuse.ts';
import { assertNever, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { evolve, initialState, type CoinLedger, type CoinsEvent } from './coins.ts';

/** The caller has checked that the task is completed; completion never goes back, so that check cannot go stale. */
export type ClaimReward = Command<'ClaimReward', { userId: string; rewardId: string; taskId: string; day: string; coins: number }>;
export type CoinsCommand = ClaimReward;

export const REWARD_ALREADY_CLAIMED = errorText('tasks.reward_claimed');

export const claimReward = (command: ClaimReward, state: CoinLedger): CoinsEvent => {
  if (state.claimed.includes(command.data.rewardId)) throw refuse('conflict', 'tasks.reward_claimed');
  return { type: 'CoinRewardClaimed', data: { ...command.data, balance: state.balance + command.data.coins, at: command.metadata.now.toISOString() } };
};

export function decide(command: CoinsCommand, state: CoinLedger): CoinsEvent {
  switch (command.type) {
    case 'ClaimReward':
      return claimReward(command, state);
    default:
      return assertNever(command.type);
  }
}

export const coinsDecider: Decider<CoinLedger, CoinsCommand, CoinsEvent> = { initialState, evolve, decide };

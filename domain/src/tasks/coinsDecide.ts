import { errorText } from '../protocol/errors.ts';
import { refuse } from '../refuse.ts';
import { assertNever, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { evolve, initialState, type CoinLedger, type CoinsEvent } from './coins.ts';

/**
 * `completed` is the day's task stream as the caller read it: completion never goes back, so a
 * completed task read before the claim cannot turn out open when the claim is appended.
 */
export type ClaimReward = Command<'ClaimReward', { userId: string; rewardId: string; taskId: string; day: string; coins: number; completed: boolean }>;
export type CoinsCommand = ClaimReward;

export const REWARD_ALREADY_CLAIMED = errorText('tasks.reward_claimed');
export const TASK_NOT_COMPLETED = errorText('tasks.not_completed');

export const claimReward = (command: ClaimReward, state: CoinLedger): CoinsEvent => {
  const { completed, ...reward } = command.data;
  if (!completed) throw refuse('conflict', 'tasks.not_completed');
  if (state.claimed.includes(reward.rewardId)) throw refuse('conflict', 'tasks.reward_claimed');
  return { type: 'CoinRewardClaimed', data: { ...reward, balance: state.balance + reward.coins, at: command.metadata.now.toISOString() } };
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

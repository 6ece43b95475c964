export const DEFAULT_REWARD_COINS = 50;

/** The reward the claim message names: what the server says was earned, else the spec's default of 50. */
export const claimedCoins = (result: { coins_earned?: number } | null | undefined): number =>
  typeof result?.coins_earned === 'number' && Number.isFinite(result.coins_earned) ? result.coins_earned : DEFAULT_REWARD_COINS;

export type TaskStage = 'inProgress' | 'claimable' | 'claimed';

export const taskStage = (task: { is_completed: boolean; rewards_claimed: boolean }): TaskStage => (task.rewards_claimed ? 'claimed' : task.is_completed ? 'claimable' : 'inProgress');

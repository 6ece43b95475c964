import test from 'ava';
import { claimedCoins, taskStage } from './tasks.ts';

test('the claim message names the coins earned, else 50', (t) => {
  t.is(claimedCoins({ coins_earned: 20 }), 20);
  t.is(claimedCoins({}), 50);
  t.is(claimedCoins(undefined), 50);
});

test('a task is in progress, then claimable, then claimed', (t) => {
  t.is(taskStage({ is_completed: false, rewards_claimed: false }), 'inProgress');
  t.is(taskStage({ is_completed: true, rewards_claimed: false }), 'claimable');
  t.is(taskStage({ is_completed: true, rewards_claimed: true }), 'claimed');
});

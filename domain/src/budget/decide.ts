import type { DailyLimitChoice } from '../protocol/levels.ts';
import { refuse } from '../refuse.ts';
import { assertNever, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import {
  evolve,
  heldCoins,
  initialState,
  LEVEL_DAILY_LIMITS,
  membershipActive,
  noFreeBudget,
  roundCoins,
  totalAvailable,
  type Budget,
  type BudgetDayClosed,
  type BudgetEvent,
  type BudgetSnapshot,
  type Level,
} from './budget.ts';

interface Target {
  userId: string;
  /** Today in the configured time zone: when the daily usage starts again. */
  today: string;
}

export type SetTokenLimit = Command<'SetTokenLimit', Target & { tokenLevelLimit: number; by: string }>;
export type AddExtraBudget = Command<'AddExtraBudget', Target & { amount: number; by: string }>;
/** `dailyLimit` says whether the new level's default limit replaces the user's current one. */
export type SetLevel = Command<'SetLevel', Target & { level: Level; membershipExpiresAt: string | null; dailyLimit: DailyLimitChoice; by: string }>;
export type RefreshQuota = Command<'RefreshQuota', Target & { by: string }>;
export type HoldBudget = Command<
  'HoldBudget',
  Target & { holdId: string; sessionId: string | null; messageId: string | null; holdTokens: number; tokensPerCoin: number; ttlSeconds: number }
>;
/** `today` is the day the tokens were consumed, so a charge replayed later lands on the same day. */
export type ChargeTokens = Command<
  'ChargeTokens',
  Target & { chargeId: string; sessionId: string | null; messageId: string | null; tokens: number; tokensPerCoin: number }
>;
export type ReleaseHolds = Command<'ReleaseHolds', Target & { messageId: string }>;

export type BudgetCommand = SetTokenLimit | AddExtraBudget | SetLevel | RefreshQuota | HoldBudget | ChargeTokens | ReleaseHolds;

function closeDay(state: BudgetSnapshot, target: Target, at: string, refresh: boolean): BudgetDayClosed {
  const drawn = roundCoins(Math.min(state.extraBudget, Math.max(0, state.usedToday - state.tokenLevelLimit)));
  return {
    type: 'BudgetDayClosed',
    data: {
      userId: target.userId,
      day: target.today,
      at,
      closedDay: state.day ?? target.today,
      usedCoins: state.usedToday,
      limitCoins: state.tokenLevelLimit,
      drawnFromExtra: drawn,
      extraBudget: roundCoins(state.extraBudget - drawn),
      refresh,
    },
  };
}

/**
 * What time alone has changed since the last event: a new day closes the previous one, and a
 * membership past its expiry falls back to basic. Recorded before whatever a command decides, so
 * the read model shows the same numbers the decision used.
 */
export function pendingTransitions(state: BudgetSnapshot, target: Target, now: Date): BudgetEvent[] {
  const at = now.toISOString();
  const events: BudgetEvent[] = [];
  if (state.day !== null && state.day < target.today) events.push(closeDay(state, target, at, false));
  if (!membershipActive(state, now)) {
    events.push({ type: 'MembershipExpired', data: { userId: target.userId, day: target.today, at, previousLevel: state.level, tokenLevelLimit: LEVEL_DAILY_LIMITS.basic } });
  }
  return events;
}

/** The snapshot as it stands at `now`, with the pending transitions applied (for reads). */
export function currentSnapshot<S extends BudgetSnapshot>(state: S, target: Target, now: Date, fold: (state: S, event: BudgetEvent) => S): S {
  return pendingTransitions(state, target, now).reduce(fold, state);
}

function withTransitions(state: Budget, command: BudgetCommand, decideRest: (state: Budget) => BudgetEvent[]): BudgetEvent[] {
  const { userId, today } = command.data;
  const automatic = pendingTransitions(state, { userId, today }, command.metadata.now);
  return [...automatic, ...decideRest(automatic.reduce(evolve, state))];
}

const stamp = (command: BudgetCommand) => ({ userId: command.data.userId, day: command.data.today, at: command.metadata.now.toISOString() });

export const setTokenLimit = (command: SetTokenLimit, state: Budget): BudgetEvent[] =>
  withTransitions(state, command, (current) =>
    current.tokenLevelLimit === command.data.tokenLevelLimit
      ? []
      : [{ type: 'TokenLimitSet', data: { ...stamp(command), tokenLevelLimit: command.data.tokenLevelLimit, by: command.data.by } }],
  );

export const addExtraBudget = (command: AddExtraBudget, state: Budget): BudgetEvent[] => {
  if (!(command.data.amount > 0)) throw refuse('invalid', 'budget.amount_positive', {}, 'amount');
  return withTransitions(state, command, () => [{ type: 'ExtraBudgetAdded', data: { ...stamp(command), amount: command.data.amount, by: command.data.by } }]);
};

export const setLevel = (command: SetLevel, state: Budget): BudgetEvent[] => {
  const { level, dailyLimit, by } = command.data;
  // Basic is what an expired membership falls back to; an expiry on it would mean nothing.
  const membershipExpiresAt = level === 'basic' ? null : command.data.membershipExpiresAt;
  if (membershipExpiresAt !== null && Date.parse(membershipExpiresAt) <= command.metadata.now.getTime()) {
    throw refuse('invalid', 'budget.expiry_in_past', {}, 'membership_expires_at');
  }
  return withTransitions(state, command, (current) => [
    {
      type: 'MembershipLevelSet',
      data: { ...stamp(command), level, membershipExpiresAt, tokenLevelLimit: dailyLimit === 'keep' ? current.tokenLevelLimit : LEVEL_DAILY_LIMITS[level], by },
    },
  ]);
};

export const refreshQuota = (command: RefreshQuota, state: Budget): BudgetEvent[] =>
  withTransitions(state, command, (current) => [closeDay(current, { userId: command.data.userId, today: command.data.today }, command.metadata.now.toISOString(), true)]);

export const holdBudget = (command: HoldBudget, state: Budget): BudgetEvent[] => {
  const now = command.metadata.now;
  const { holdId, sessionId, messageId, holdTokens, tokensPerCoin, ttlSeconds } = command.data;
  return withTransitions(state, command, (current) => {
    const existing = current.holds[holdId];
    if (existing && Date.parse(existing.expiresAt) > now.getTime()) return [];
    const free = roundCoins(totalAvailable(current) - heldCoins(current, now));
    if (free <= 0) throw noFreeBudget(current);
    const coins = roundCoins(Math.min(holdTokens / tokensPerCoin, free));
    const expiresAt = new Date(now.getTime() + ttlSeconds * 1000).toISOString();
    return [{ type: 'BudgetHeld', data: { ...stamp(command), holdId, sessionId, messageId, coins, expiresAt } }];
  });
};

export const chargeTokens = (command: ChargeTokens, state: Budget): BudgetEvent[] => {
  const { chargeId, sessionId, messageId, tokens, tokensPerCoin } = command.data;
  if (tokens <= 0 || state.recentCharges.includes(chargeId)) return [];
  return withTransitions(state, command, () => [
    { type: 'TokensCharged', data: { ...stamp(command), chargeId, sessionId, messageId, tokens, coins: roundCoins(tokens / tokensPerCoin) } },
  ]);
};

export const releaseHolds = (command: ReleaseHolds, state: Budget): BudgetEvent[] => {
  const holdIds = Object.entries(state.holds)
    .filter(([, hold]) => hold.messageId === command.data.messageId)
    .map(([id]) => id);
  if (holdIds.length === 0) return [];
  return withTransitions(state, command, () => [{ type: 'BudgetHoldsReleased', data: { ...stamp(command), messageId: command.data.messageId, holdIds } }]);
};

export function decide(command: BudgetCommand, state: Budget): BudgetEvent[] {
  switch (command.type) {
    case 'SetTokenLimit':
      return setTokenLimit(command, state);
    case 'AddExtraBudget':
      return addExtraBudget(command, state);
    case 'SetLevel':
      return setLevel(command, state);
    case 'RefreshQuota':
      return refreshQuota(command, state);
    case 'HoldBudget':
      return holdBudget(command, state);
    case 'ChargeTokens':
      return chargeTokens(command, state);
    case 'ReleaseHolds':
      return releaseHolds(command, state);
    default:
      return assertNever(command);
  }
}

export const budgetDecider: Decider<Budget, BudgetCommand, BudgetEvent> = { initialState, evolve, decide };

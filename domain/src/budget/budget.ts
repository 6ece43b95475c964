import { errorText } from '../protocol/errors.ts';
import { LEVEL_DAILY_LIMITS, type Level } from '../protocol/levels.ts';
import { refuse } from '../refuse.ts';
import { assertNever, type DomainError, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';

/**
 * A user's token budget, one stream per user (`budget-<userId>`). Amounts are cognition coins
 * (the unit the spec shows); model usage arrives in tokens and is converted at the configured
 * rate when it is charged, so every event already says what it cost in coins.
 *
 * Spends are decided here and nowhere else: a model call first holds part of what is free, and
 * the tokens it used are charged later from its `TokensConsumed`. Holds and charges append with
 * the exact expected revision, so concurrent calls are decided one after another and never hold
 * more than the budget has.
 */

export { LEVELS, LEVEL_DAILY_LIMITS, type Level } from '../protocol/levels.ts';
/** The spec's text for 402. */
export const BUDGET_EXHAUSTED = errorText('budget.exhausted');

/** The refusal when nothing is free: spent if nothing is left at all, busy (429) if running calls hold what is. */
export const noFreeBudget = (state: BudgetSnapshot): DomainError =>
  totalAvailable(state) > 0 ? refuse('budget_busy', 'budget.busy') : refuse('budget_exhausted', 'budget.exhausted');

interface Stamped {
  userId: string;
  /** The budget day (YYYY-MM-DD in the configured time zone) the event belongs to. */
  day: string;
  at: string;
}

export type TokenLimitSet = DomainEvent<'TokenLimitSet', Stamped & { tokenLevelLimit: number; by: string }>;
export type ExtraBudgetAdded = DomainEvent<'ExtraBudgetAdded', Stamped & { amount: number; by: string }>;
export type MembershipLevelSet = DomainEvent<
  'MembershipLevelSet',
  Stamped & { level: Level; membershipExpiresAt: string | null; tokenLevelLimit: number; by: string }
>;
/** The first decision after a membership ran out records the fall back to basic. */
export type MembershipExpired = DomainEvent<'MembershipExpired', Stamped & { previousLevel: Level; tokenLevelLimit: number }>;
/**
 * Closing a day: what was used beyond the daily limit is drawn from the extra budget, and the
 * usage starts again from zero. `refresh` marks an admin's refresh, which closes the day early.
 */
export type BudgetDayClosed = DomainEvent<
  'BudgetDayClosed',
  Stamped & { closedDay: string; usedCoins: number; limitCoins: number; drawnFromExtra: number; extraBudget: number; refresh: boolean }
>;
export type BudgetHeld = DomainEvent<
  'BudgetHeld',
  Stamped & { holdId: string; sessionId: string | null; messageId: string | null; coins: number; expiresAt: string }
>;
export type TokensCharged = DomainEvent<
  'TokensCharged',
  Stamped & { chargeId: string; sessionId: string | null; messageId: string | null; tokens: number; coins: number }
>;
export type BudgetHoldsReleased = DomainEvent<'BudgetHoldsReleased', Stamped & { messageId: string; holdIds: string[] }>;

export type BudgetEvent =
  | TokenLimitSet
  | ExtraBudgetAdded
  | MembershipLevelSet
  | MembershipExpired
  | BudgetDayClosed
  | BudgetHeld
  | TokensCharged
  | BudgetHoldsReleased;

export interface Hold {
  coins: number;
  /** What charges of the same message have already used of it. */
  charged: number;
  expiresAt: string;
  messageId: string | null;
}

/** The numbers both the decider and the token-info read model keep. */
export interface BudgetSnapshot {
  level: Level;
  membershipExpiresAt: string | null;
  tokenLevelLimit: number;
  /** Extra budget at the start of `day`; today's draw from it is taken when the day closes. */
  extraBudget: number;
  /** The day `usedToday` counts; null before the first event. */
  day: string | null;
  usedToday: number;
  allUsage: number;
  lastRefreshAt: string | null;
}

/** Every user has a budget from the start, with the basic level's defaults. */
export type Budget = { status: 'open'; holds: Record<string, Hold>; recentCharges: string[] } & BudgetSnapshot;

/** Charge ids remembered so a charge replayed after a crash is recognised; replays come soon after. */
export const REMEMBERED_CHARGES = 500;

export const initialSnapshot = (): BudgetSnapshot => ({
  level: 'basic',
  membershipExpiresAt: null,
  tokenLevelLimit: LEVEL_DAILY_LIMITS.basic,
  extraBudget: 0,
  day: null,
  usedToday: 0,
  allUsage: 0,
  lastRefreshAt: null,
});

export const initialState = (): Budget => ({ status: 'open', holds: {}, recentCharges: [], ...initialSnapshot() });

/** Coins are kept to a millionth, so sums of many small charges do not drift. */
export const roundCoins = (value: number): number => Math.round(value * 1e6) / 1e6;

/** How an event moves the snapshot; the read model applies the same rules to its document. */
export function evolveSnapshot<S extends BudgetSnapshot>(state: S, event: BudgetEvent): S {
  const dated = state.day === null ? { ...state, day: event.data.day } : state;
  switch (event.type) {
    case 'TokenLimitSet':
      return { ...dated, tokenLevelLimit: event.data.tokenLevelLimit };
    case 'ExtraBudgetAdded':
      return { ...dated, extraBudget: roundCoins(dated.extraBudget + event.data.amount) };
    case 'MembershipLevelSet':
    case 'MembershipExpired':
      return {
        ...dated,
        level: event.type === 'MembershipLevelSet' ? event.data.level : 'basic',
        membershipExpiresAt: event.type === 'MembershipLevelSet' ? event.data.membershipExpiresAt : null,
        tokenLevelLimit: event.data.tokenLevelLimit,
      };
    case 'BudgetDayClosed':
      return {
        ...dated,
        day: event.data.day,
        usedToday: 0,
        extraBudget: event.data.extraBudget,
        ...(event.data.refresh && { lastRefreshAt: event.data.at }),
      };
    case 'TokensCharged':
      return {
        ...dated,
        allUsage: roundCoins(dated.allUsage + event.data.coins),
        // A charge for a day already closed counts towards all-time usage only.
        usedToday: event.data.day === dated.day ? roundCoins(dated.usedToday + event.data.coins) : dated.usedToday,
      };
    case 'BudgetHeld':
    case 'BudgetHoldsReleased':
      return dated;
    default:
      return assertNever(event);
  }
}

export function evolve(state: Budget, event: BudgetEvent): Budget {
  const next = evolveSnapshot(state, event);
  switch (event.type) {
    case 'BudgetHeld': {
      const { holdId, coins, expiresAt, messageId } = event.data;
      return { ...next, holds: { ...next.holds, [holdId]: { coins, charged: 0, expiresAt, messageId } } };
    }
    case 'TokensCharged': {
      const holds = { ...next.holds };
      let left = event.data.coins;
      for (const [id, hold] of Object.entries(holds)) {
        if (left <= 0) break;
        if (event.data.messageId === null || hold.messageId !== event.data.messageId) continue;
        const used = Math.min(left, Math.max(0, hold.coins - hold.charged));
        holds[id] = { ...hold, charged: roundCoins(hold.charged + used) };
        left -= used;
      }
      return { ...next, holds, recentCharges: [...next.recentCharges.slice(-(REMEMBERED_CHARGES - 1)), event.data.chargeId] };
    }
    case 'BudgetHoldsReleased': {
      const holds = { ...next.holds };
      for (const id of event.data.holdIds) delete holds[id];
      return { ...next, holds };
    }
    case 'BudgetDayClosed': {
      // Holds whose reply never completed stop mattering once they expire; forget them here.
      const holds = Object.fromEntries(Object.entries(next.holds).filter(([, hold]) => hold.expiresAt > event.data.at));
      return { ...next, holds };
    }
    default:
      return next;
  }
}

export const membershipActive = (state: BudgetSnapshot, now: Date): boolean =>
  state.membershipExpiresAt === null || Date.parse(state.membershipExpiresAt) > now.getTime();

/** Coins held by calls still running (what they have not yet been charged). */
/** What running calls hold and have not yet been charged; a reply's own hold is not held against it. */
export const heldCoins = (state: Budget, now: Date, ownMessageId?: string): number =>
  roundCoins(
    Object.values(state.holds)
      .filter((hold) => Date.parse(hold.expiresAt) > now.getTime() && (ownMessageId === undefined || hold.messageId !== ownMessageId))
      .reduce((sum, hold) => sum + Math.max(0, hold.coins - hold.charged), 0),
  );

/** The spec's total_available: limit + extra − today's usage. */
export const totalAvailable = (state: BudgetSnapshot): number => roundCoins(state.tokenLevelLimit + state.extraBudget - state.usedToday);

export const budgetStream = (userId: string): string => `budget-${userId}`;

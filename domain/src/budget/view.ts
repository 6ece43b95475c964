import { dayKey } from '@scriptorium/infra/time';
import { currentSnapshot } from './decide.ts';
import { evolveSnapshot, type BudgetSnapshot, type Level } from './budget.ts';

/** The spec's token info (§3 of the knowledge document), amounts in cognition coins. */
export interface TokenInfo {
  token_level_limit: number;
  today_usage: number;
  extra_budget: number;
  total_available: number;
  /** What is left today, in tokens: total_available at the configured rate. */
  token_remaining: number;
  user_level: Level;
  all_usage: number;
  /** When today's quota last started again: local midnight, or an admin's refresh after it. */
  last_refresh_date: string;
  membership_expires_at: string | null;
  tokens_per_coin: number;
  /** The zone whose days the quota counts (TIME_ZONE), so a client shows the quota's day, not its own. */
  time_zone: string;
}

export interface BudgetSettings {
  timeZone: string;
  tokensPerCoin: number;
}

const display = (coins: number): number => Math.round(coins * 1000) / 1000;

/** Milliseconds the zone is ahead of UTC at an instant. */
function zoneOffset(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const part = (type: string) => Number(parts.find((candidate) => candidate.type === type)?.value);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The instant a calendar day starts in a time zone (the daily refresh). */
export function startOfDay(day: string, timeZone: string): Date {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  const first = midnightUtc - zoneOffset(midnightUtc, timeZone);
  // A second pass lands on the right side of a daylight-saving change.
  return new Date(midnightUtc - zoneOffset(first, timeZone));
}

/** Token info as of `now`: a day that has ended or a membership that has expired is read as the decider would record it. */
export function tokenInfo(snapshot: BudgetSnapshot, userId: string, now: Date, settings: BudgetSettings): TokenInfo {
  const today = dayKey(now, settings.timeZone);
  const current = currentSnapshot(snapshot, { userId, today }, now, evolveSnapshot);
  const total = Math.max(0, current.tokenLevelLimit + current.extraBudget - current.usedToday);
  const midnight = startOfDay(today, settings.timeZone).toISOString();
  return {
    token_level_limit: current.tokenLevelLimit,
    today_usage: display(current.usedToday),
    extra_budget: display(current.extraBudget),
    total_available: display(total),
    token_remaining: Math.floor(total * settings.tokensPerCoin),
    user_level: current.level,
    all_usage: display(current.allUsage),
    last_refresh_date: current.lastRefreshAt !== null && current.lastRefreshAt > midnight ? current.lastRefreshAt : midnight,
    membership_expires_at: current.membershipExpiresAt,
    tokens_per_coin: settings.tokensPerCoin,
    time_zone: settings.timeZone,
  };
}

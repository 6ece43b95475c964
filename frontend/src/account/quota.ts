import type { TokenInfo } from './api.ts';

export const DEFAULT_DAILY_LIMIT = 100;

export type GroupKey = 'basic' | 'premium' | 'vip' | 'admin' | 'standard';

const GROUPS: ReadonlySet<string> = new Set(['basic', 'premium', 'vip', 'admin']);

/** The spec names four levels; anything else the server might send reads as "standard user". */
export const groupOf = (level: string | null | undefined): GroupKey => (level && GROUPS.has(level) ? (level as GroupKey) : 'standard');

/** Used share of the daily limit, 0–100; a zero limit with any use is full, not a division by zero. */
export function usagePercent(used: number, limit: number): number {
  if (!(used > 0)) return 0;
  if (!(limit > 0)) return 100;
  return Math.min(100, (used / limit) * 100);
}

export interface QuotaView {
  dailyLimit: number;
  todayUsage: number;
  extraBudget: number;
  totalAvailable: number;
  percent: number;
  /** Extra budget and the total are shown only when there is extra budget. */
  showExtra: boolean;
}

export function quotaView(info: Pick<TokenInfo, 'token_level_limit' | 'today_usage' | 'extra_budget' | 'total_available'>): QuotaView {
  const dailyLimit = info.token_level_limit ?? DEFAULT_DAILY_LIMIT;
  const todayUsage = info.today_usage ?? 0;
  const extraBudget = info.extra_budget ?? 0;
  return {
    dailyLimit,
    todayUsage,
    extraBudget,
    totalAvailable: info.total_available ?? 0,
    percent: usagePercent(todayUsage, dailyLimit),
    showExtra: extraBudget > 0,
  };
}

/** Amounts are coins with up to three decimals; show at most two, without trailing zeros. */
export const formatAmount = (value: number, locale: string): string => new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(value);

/**
 * When today's quota started again, as a reader means it: the daily reset is a day (the quota's day,
 * in the zone it counts in: a reader in UTC would otherwise see the previous afternoon), an
 * administrator's refresh a moment in the reader's own time.
 */
export function refreshText(date: Date, timeZone: string | undefined, locale: string): string {
  if (timeZone !== undefined) {
    const clock = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(date);
    if (clock === '00:00:00') return new Intl.DateTimeFormat(locale, { timeZone, dateStyle: 'medium' }).format(date);
  }
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

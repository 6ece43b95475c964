import type { ReadStore } from '@scriptorium/infra/readstore/port';
import { dayKey } from '@scriptorium/infra/time';
import { DomainError } from '@scriptorium/infra/eventsourcing/decider';
import { DAILY_USAGE, dailyUsageId, type DailyUsageDoc } from '@scriptorium/projections/tokenUsage';

/** The spec's default daily limit, in cognition coins. */
export const DEFAULT_DAILY_LIMIT_COINS = 100;
export const BUDGET_EXHAUSTED = 'Token使用额度已用尽，请联系管理员进行充值';

/**
 * Refuses model work once today's usage reaches the daily limit. Checked before a job is queued
 * and by the worker before each model call, so an exhausted user starts nothing new.
 */
export class BudgetGuard {
  constructor(
    private readonly readStore: ReadStore,
    private readonly settings: { timeZone: string; tokensPerCoin: number },
    private readonly clock: () => Date,
  ) {}

  async remainingTokens(userId: string): Promise<number> {
    const today = dayKey(this.clock(), this.settings.timeZone);
    const usage = await this.readStore.collection<DailyUsageDoc>(DAILY_USAGE).get(dailyUsageId(userId, today));
    return DEFAULT_DAILY_LIMIT_COINS * this.settings.tokensPerCoin - (usage?.total_tokens ?? 0);
  }

  async ensureAvailable(userId: string): Promise<void> {
    if ((await this.remainingTokens(userId)) <= 0) throw new DomainError('budget_exhausted', BUDGET_EXHAUSTED);
  }
}

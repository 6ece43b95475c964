import type { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import { DomainError } from '@scriptorium/infra/eventsourcing/decider';
import { deterministicId } from '@scriptorium/infra/eventsourcing/ids';
import { dayKey } from '@scriptorium/infra/time';
import { budgetStream, evolve, heldCoins, noFreeBudget, roundCoins, totalAvailable } from './budget.ts';
import { budgetDecider, currentSnapshot, type BudgetCommand } from './decide.ts';

export { BUDGET_EXHAUSTED } from './budget.ts';

export interface BudgetGuardSettings {
  timeZone: string;
  tokensPerCoin: number;
  /** Tokens a model call holds before it starts. */
  holdTokens: number;
  holdTtlSeconds: number;
}

/** A budget command as callers give it; the guard adds the time and who acts. */
export type BudgetCommandInput = BudgetCommand extends infer C ? (C extends unknown ? Omit<C, 'metadata'> : never) : never;

/** Many holds and charges of one user may race; each conflict is decided again on the newer state. */
const MAX_ATTEMPTS = 200;

/**
 * The budget as the rest of the product uses it. Checks read the user's budget stream (not a read
 * model), so they see every hold and charge already decided. `ensureAvailable` refuses a request
 * before anything is written; `hold` is what a worker calls before a model call, and is the
 * decision that keeps concurrent calls within the budget.
 */
export class BudgetGuard {
  constructor(
    private readonly commands: CommandHandler,
    private readonly settings: BudgetGuardSettings,
    private readonly clock: () => Date,
  ) {}

  get tokensPerCoin(): number {
    return this.settings.tokensPerCoin;
  }

  today(now = this.clock()): string {
    return dayKey(now, this.settings.timeZone);
  }

  private async snapshot(userId: string) {
    const now = this.clock();
    const { state } = await this.commands.load(budgetDecider, budgetStream(userId));
    return { now, current: currentSnapshot(state, { userId, today: this.today(now) }, now, evolve) };
  }

  /** Free coins: total available less what running calls hold (other than `ownMessageId`'s reply). */
  async freeCoins(userId: string, ownMessageId?: string): Promise<number> {
    const { now, current } = await this.snapshot(userId);
    return roundCoins(totalAvailable(current) - heldCoins(current, now, ownMessageId));
  }

  async remainingTokens(userId: string, ownMessageId?: string): Promise<number> {
    return Math.floor((await this.freeCoins(userId, ownMessageId)) * this.settings.tokensPerCoin);
  }

  async ensureAvailable(userId: string): Promise<void> {
    const { now, current } = await this.snapshot(userId);
    if (roundCoins(totalAvailable(current) - heldCoins(current, now)) <= 0) throw noFreeBudget(current);
  }

  /**
   * Holds part of the free budget for the model calls of one reply, until their usage is charged
   * or the reply completes: `tokens` when the caller knows what its call can use (prompt and
   * completion cap), else the configured share; never more than is free. Refused when nothing is
   * free: the call must not start. Holding again for the same reply is a no-op, so a re-run job
   * does not hold twice.
   */
  async hold(userId: string, call: { sessionId: string | null; messageId: string; tokens?: number }): Promise<'held' | 'exhausted' | 'busy'> {
    try {
      await this.run(userId, {
        type: 'HoldBudget',
        data: {
          userId,
          today: this.today(),
          holdId: deterministicId('hold', call.messageId),
          sessionId: call.sessionId,
          messageId: call.messageId,
          holdTokens: call.tokens ?? this.settings.holdTokens,
          tokensPerCoin: this.settings.tokensPerCoin,
          ttlSeconds: this.settings.holdTtlSeconds,
        },
      });
      return 'held';
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'budget_exhausted') return 'exhausted';
      if (error instanceof DomainError && error.kind === 'budget_busy') return 'busy';
      throw error;
    }
  }

  /** Runs a budget command for `userId` now; `commandId` makes a retried command append nothing twice. */
  run(userId: string, command: BudgetCommandInput, options: { commandId?: string; actorId?: string } = {}) {
    return this.commands.handle(
      budgetDecider,
      budgetStream(userId),
      { ...command, metadata: { now: this.clock(), userId: options.actorId ?? userId } } as BudgetCommand,
      { maxAttempts: MAX_ATTEMPTS, ...(options.commandId !== undefined && { commandId: options.commandId }) },
    );
  }
}

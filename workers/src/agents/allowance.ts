import type { Usage } from '../model/port.ts';
import type { AgentDeps } from './deps.ts';

/** Thrown before a model call the user's budget no longer covers. */
export class BudgetExhaustedError extends Error {
  override readonly name = 'BudgetExhaustedError';
  constructor() {
    super('the token budget is exhausted');
  }
}

/**
 * The tokens a job may still spend. The budget read model lags the log (the projector applies
 * this job's usage a little later), so what the job itself spent is also counted here: a job that
 * goes over its budget mid-report is stopped at its next call, not a few calls later.
 */
export class Allowance {
  private spent = 0;
  private initial: number | undefined;
  private held = false;

  /**
   * With `reply`, the first check also holds budget for that reply (released when it completes),
   * so concurrent replies cannot start on budget another one has already reserved.
   */
  constructor(
    private readonly deps: Pick<AgentDeps, 'budget'>,
    private readonly userId: string,
    private readonly reply?: { sessionId: string; messageId: string },
  ) {}

  async remaining(): Promise<number> {
    const reported = await this.deps.budget.remainingTokens(this.userId);
    this.initial ??= reported + this.spent;
    return Math.min(reported, this.initial - this.spent);
  }

  /** Call before each model call. */
  async ensure(): Promise<void> {
    if (this.reply && !this.held) {
      if (!(await this.deps.budget.hold(this.userId, this.reply))) throw new BudgetExhaustedError();
      this.held = true;
    }
    if ((await this.remaining()) <= 0) throw new BudgetExhaustedError();
  }

  record(usage: Pick<Usage, 'promptTokens' | 'completionTokens'>): void {
    this.spent += usage.promptTokens + usage.completionTokens;
  }
}

import type { ModelRequest, Usage } from '../model/port.ts';
import { estimateMessageTokens, estimateTokens } from '../model/tokens.ts';
import type { AgentDeps } from './deps.ts';

/** The least completion a call that may start is allowed, so it can still say something. */
const MIN_COMPLETION_TOKENS = 16;

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
    private readonly reply?: { sessionId: string | null; messageId: string },
  ) {}

  async remaining(): Promise<number> {
    const reported = await this.deps.budget.remainingTokens(this.userId, this.reply?.messageId);
    this.initial ??= reported + this.spent;
    return Math.min(reported, this.initial - this.spent);
  }

  /**
   * Call before each model call; throws when nothing is left. Returns the request with its
   * completion capped to what is left after the prompt, so a call cannot stream past the budget:
   * at most its prompt and a minimal answer go over, and a last few tokens are never stranded
   * as "available" while every call is refused.
   */
  async ensure<R extends Pick<ModelRequest, 'messages' | 'context' | 'maxTokens'>>(request: R): Promise<R & { maxTokens: number }> {
    if (this.reply && !this.held) {
      if (!(await this.deps.budget.hold(this.userId, this.reply))) throw new BudgetExhaustedError();
      this.held = true;
    }
    const remaining = await this.remaining();
    const prompt = estimateMessageTokens(request.messages) + (request.context ?? []).reduce((sum, doc) => sum + estimateTokens(`${doc.title}\n${doc.text}`), 0);
    if (remaining <= 0) throw new BudgetExhaustedError();
    const cap = Math.max(remaining - prompt, MIN_COMPLETION_TOKENS);
    return { ...request, maxTokens: Math.min(request.maxTokens ?? cap, cap) };
  }

  /** Refuses when nothing is left, for work that is about to start a model call. */
  async check(): Promise<void> {
    await this.ensure({ messages: [] });
  }

  record(usage: Pick<Usage, 'promptTokens' | 'completionTokens'>): void {
    this.spent += usage.promptTokens + usage.completionTokens;
  }
}

import type { ModelRequest, Usage } from '@scriptorium/infra/model/port';
import { DEFAULT_PROFILE, type ModelProfile } from '@scriptorium/infra/model/profile';
import { estimateMessageTokens, estimateTokens } from '@scriptorium/infra/model/tokens';
import { fitToWindow } from '@scriptorium/infra/model/window';
import { errorText } from '../protocol/errors.ts';
import type { BudgetGuard } from './guard.ts';

/** The least completion a call that may start is allowed, so it can still say something. */
const MIN_COMPLETION_TOKENS = 16;

/**
 * Thrown before a model call the user's budget does not cover now: spent (`budget.exhausted`,
 * 402), or held by the user's other running calls (`budget.busy`, 429: try again soon).
 */
export class BudgetExhaustedError extends Error {
  override readonly name = 'BudgetExhaustedError';
  readonly code: 'budget.exhausted' | 'budget.busy';
  constructor(readonly busy = false) {
    super(busy ? 'the token budget is held by running calls' : 'the token budget is exhausted');
    this.code = busy ? 'budget.busy' : 'budget.exhausted';
  }

  /** The catalogue's text for the refusal, as the user is shown it. */
  get detail(): string {
    return errorText(this.code);
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
   * so concurrent replies cannot start on budget another one has already reserved. `profile` is the
   * model a call is fitted to when it names none (a job on one model gives it here once).
   */
  constructor(
    private readonly deps: { budget: BudgetGuard },
    private readonly userId: string,
    private readonly reply?: { sessionId: string | null; messageId: string },
    private readonly profile: ModelProfile = DEFAULT_PROFILE,
  ) {}

  async remaining(): Promise<number> {
    const reported = await this.deps.budget.remainingTokens(this.userId, this.reply?.messageId);
    this.initial ??= reported + this.spent;
    return Math.min(reported, this.initial - this.spent);
  }

  /**
   * Call before each model call; throws when nothing is left. Returns the request made to fit the
   * model (`fitToWindow`: the answer within the profile's output cap, the prompt within its window)
   * with its completion also capped to what is left after the prompt, so a call cannot stream past
   * the budget: at most its prompt and a minimal answer go over, and a last few tokens are never
   * stranded as "available" while every call is refused. Without a profile here or at construction
   * the conservative default stands in: a call never asks for more than some provider accepts.
   */
  async ensure<R extends Pick<ModelRequest, 'messages' | 'context' | 'maxTokens'>>(original: R, profile: ModelProfile = this.profile): Promise<R & { maxTokens: number }> {
    const request = fitToWindow(original, profile).request;
    const prompt = estimateMessageTokens(request.messages) + (request.context ?? []).reduce((sum, doc) => sum + estimateTokens(`${doc.title}\n${doc.text}`), 0);
    if (this.reply && !this.held) {
      // A call that asked for a completion cap can use at most its prompt and that cap: holding
      // more would refuse the user's other calls on budget this one can never spend. One that asked
      // none (a chat reply, a research run's first call) holds the configured share for the reply.
      const held = await this.deps.budget.hold(this.userId, { ...this.reply, ...(original.maxTokens !== undefined && { tokens: prompt + request.maxTokens }) });
      if (held !== 'held') throw new BudgetExhaustedError(held === 'busy');
      this.held = true;
    }
    const remaining = await this.remaining();
    if (remaining <= 0) throw new BudgetExhaustedError();
    const cap = Math.max(remaining - prompt, MIN_COMPLETION_TOKENS);
    return { ...request, maxTokens: Math.min(request.maxTokens, cap) };
  }

  /** Refuses when nothing is left, for work that is about to start a model call. */
  async check(): Promise<void> {
    await this.ensure({ messages: [] });
  }

  record(usage: Pick<Usage, 'promptTokens' | 'completionTokens'>): void {
    this.spent += usage.promptTokens + usage.completionTokens;
  }
}

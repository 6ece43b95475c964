import type { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import { refuse } from '../refuse.ts';
import { partialUsageOf, type Completion, type ModelProvider, type ModelRequest, type Usage } from '@scriptorium/infra/model/port';
import type { ModelProfile } from '@scriptorium/infra/model/profile';
import { Allowance, BudgetExhaustedError } from '../budget/allowance.ts';
import type { BudgetGuard } from '../budget/guard.ts';
import { modelCallDecider, modelCallStream, type ModelCallCommand } from './call.ts';

export interface AccountDeps {
  commands: CommandHandler;
  budget: BudgetGuard;
  clock: () => Date;
}

/** A model call the api makes outside any conversation, with its budget held and its usage to record. */
export interface AccountedCall {
  /** The request fitted to the model (its output cap and window) and capped to what the user's budget still covers. */
  request: ModelRequest;
  /** Records the usage (when the model reported any) and releases the hold; call it once, on every path. */
  settle(usage: Usage | null, outcome: 'completed' | 'failed'): Promise<void>;
}

/**
 * The one accounted path for the api's own model calls (the OpenAI-compatible endpoint, query
 * refinement) and the agents' single calls: hold budget before the call, fit it to the model's
 * `profile` and cap its completion, record `TokensConsumed` after it. A user with nothing left is
 * refused with the catalogue's 402 before the model is asked; one whose running calls hold what is
 * left, with 429 (busy).
 */
export async function openModelCall(deps: AccountDeps, userId: string, callId: string, request: ModelRequest, profile: ModelProfile): Promise<AccountedCall> {
  let capped: ModelRequest;
  try {
    capped = await new Allowance({ budget: deps.budget }, userId, { sessionId: null, messageId: callId }).ensure(request, profile);
  } catch (error) {
    if (error instanceof BudgetExhaustedError) throw error.busy ? refuse('budget_busy', 'budget.busy') : refuse('budget_exhausted', 'budget.exhausted');
    throw error;
  }
  const record = (command: Omit<ModelCallCommand, 'metadata'>) =>
    deps.commands.handle(modelCallDecider, modelCallStream(callId), { ...command, metadata: { now: deps.clock(), userId, correlationId: callId } } as ModelCallCommand);
  return {
    request: capped,
    async settle(usage, outcome) {
      if (usage) await record({ type: 'RecordCallUsage', data: { callId, userId, prompt: usage.promptTokens, completion: usage.completionTokens, model: usage.model } });
      await record({ type: 'FinishCall', data: { callId, userId, outcome } });
    },
  };
}

/** A whole (not streamed) accounted call, fitted to `model`'s profile; a call cut midway is charged what it cost. */
export async function completeAccounted(deps: AccountDeps, model: ModelProvider, userId: string, callId: string, request: ModelRequest): Promise<Completion> {
  const call = await openModelCall(deps, userId, callId, request, model.profile);
  try {
    const completion = await model.complete(call.request);
    await call.settle(completion.usage, 'completed');
    return completion;
  } catch (error) {
    await call.settle(partialUsageOf(error), 'failed');
    throw error;
  }
}

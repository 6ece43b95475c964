import { ModelError } from '@scriptorium/infra/model/port';
import { refusalOf } from '@scriptorium/infra/model/refusal';
import { BudgetExhaustedError } from '../budget/allowance.ts';
import { anyErrorText, type Lang } from '../protocol/errors.ts';

type FailureCode =
  | 'budget.exhausted'
  | 'budget.busy'
  | 'agent.model_busy' | 'agent.model_timeout' | 'agent.model_auth' | 'agent.model_bad_response' | 'agent.model_unavailable' | 'agent.model_refused' | 'agent.stopped' | 'agent.failed';

/** A failure as the catalogue words it: its code and, for a refusal, why (a word each language renders). */
export interface Failure {
  code: FailureCode;
  params: Record<string, string>;
}

/** Why a reply failed, as a catalogue code a client can render in its language; the log keeps the technical reason. */
export function failureCode(error: unknown): FailureCode {
  if (error instanceof BudgetExhaustedError) return error.code;
  if (error instanceof ModelError) {
    switch (error.kind) {
      case 'rate_limited':
        return 'agent.model_busy';
      case 'timeout':
        return 'agent.model_timeout';
      case 'auth':
        return 'agent.model_auth';
      case 'bad_response':
        return 'agent.model_bad_response';
      // The request was refused, not the answer unreadable: the user is told which, and the provider's reason.
      case 'refused':
        return 'agent.model_refused';
      case 'network':
      case 'server':
        return 'agent.model_unavailable';
      case 'aborted':
        return 'agent.stopped';
    }
  }
  return 'agent.failed';
}

export function failure(error: unknown): Failure {
  const reason = refusalOf(error);
  return { code: failureCode(error), params: reason === undefined ? {} : { reason } };
}

/** The text a user reads when a reply fails: Chinese unless another language is asked for. */
export const failureText = (error: unknown, lang: Lang = 'zh'): string => {
  const { code, params } = failure(error);
  return anyErrorText(code, params, lang);
};

/** The `error` item a failed reply records: the Chinese text beside its code and params, and 402 when the budget ran out. */
export function failureItem(error: unknown): { error_message: string; code: FailureCode; params?: Record<string, string>; status?: number } {
  const { code, params } = failure(error);
  return {
    error_message: anyErrorText(code, params),
    code,
    ...(Object.keys(params).length > 0 && { params }),
    ...(code === 'budget.exhausted' && { status: 402 }),
    ...(code === 'budget.busy' && { status: 429 }),
  };
}

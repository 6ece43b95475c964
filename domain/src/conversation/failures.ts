import { ModelError } from '@scriptorium/infra/model/port';
import { BudgetExhaustedError } from '../budget/allowance.ts';
import { errorText } from '../protocol/errors.ts';

type FailureCode =
  | 'budget.exhausted'
  | 'budget.busy'
  | 'agent.model_busy' | 'agent.model_timeout' | 'agent.model_auth' | 'agent.model_bad_response' | 'agent.model_unavailable' | 'agent.stopped' | 'agent.failed';

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
      case 'network':
      case 'server':
        return 'agent.model_unavailable';
      case 'aborted':
        return 'agent.stopped';
    }
  }
  return 'agent.failed';
}

/** The Chinese text a user reads when a reply fails. */
export const failureText = (error: unknown): string => errorText(failureCode(error));

/** The `error` item a failed reply records: the Chinese text beside its code, and 402 when the budget ran out. */
export function failureItem(error: unknown): { error_message: string; code: FailureCode; status?: number } {
  const code = failureCode(error);
  return { error_message: errorText(code), code, ...(code === 'budget.exhausted' && { status: 402 }), ...(code === 'budget.busy' && { status: 429 }) };
}

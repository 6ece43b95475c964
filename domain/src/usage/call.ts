import { assertNever, type Command, type Decider, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';
import type { TokensConsumed } from '../conversation/conversation.ts';

/**
 * A model call the api makes itself, outside any conversation or job (the OpenAI-compatible
 * endpoint of the command-line tool): stream `model-call-<callId>`. Its usage is a `TokensConsumed`
 * like every other call's, so budgets and usage views count it; its end releases its budget hold.
 */
export type ModelCallFinished = DomainEvent<'ModelCallFinished', { callId: string; userId: string; outcome: 'completed' | 'failed'; at: string }>;
export type ModelCallEvent = TokensConsumed | ModelCallFinished;

export type ModelCall = { status: 'open'; charged: number } | { status: 'finished' };

export type RecordCallUsage = Command<'RecordCallUsage', { callId: string; userId: string; prompt: number; completion: number; model: string }>;
export type FinishCall = Command<'FinishCall', { callId: string; userId: string; outcome: 'completed' | 'failed' }>;
export type ModelCallCommand = RecordCallUsage | FinishCall;

export const modelCallStream = (callId: string): string => `model-call-${callId}`;

export function evolve(state: ModelCall, event: ModelCallEvent): ModelCall {
  switch (event.type) {
    case 'TokensConsumed':
      return state.status === 'open' ? { ...state, charged: state.charged + 1 } : state;
    case 'ModelCallFinished':
      return { status: 'finished' };
    default:
      return assertNever(event);
  }
}

export function decide(command: ModelCallCommand, state: ModelCall): ModelCallEvent[] {
  if (state.status === 'finished') return [];
  const at = command.metadata.now.toISOString();
  switch (command.type) {
    case 'RecordCallUsage': {
      const { callId, userId, prompt, completion, model } = command.data;
      return [{ type: 'TokensConsumed', data: { userId, sessionId: null, messageId: callId, prompt, completion, model, at } }];
    }
    case 'FinishCall':
      return [{ type: 'ModelCallFinished', data: { ...command.data, at } }];
    default:
      return assertNever(command);
  }
}

export const modelCallDecider: Decider<ModelCall, ModelCallCommand, ModelCallEvent> = { initialState: () => ({ status: 'open', charged: 0 }), evolve, decide };

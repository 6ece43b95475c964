import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';
import type { TokensConsumed } from '../conversation/conversation.ts';
import type { CodedError } from '../protocol/errors.ts';
import type { CognitionSourceKind } from './cognition.ts';

/** One request to draw a cognition from material, run as a job (stream `cognition-extraction-<id>`). */

export interface ExtractionInput {
  kind: CognitionSourceKind;
  noteIds: string[];
  url: string | null;
  cognitionIds: string[];
}

export type CognitionExtractionRequested = DomainEvent<'CognitionExtractionRequested', ExtractionInput & { extractionId: string; userId: string; ownerName: string; at: string }>;
export type CognitionExtractionStarted = DomainEvent<'CognitionExtractionStarted', { extractionId: string; userId: string; at: string }>;
/** A failure's `error` is its Chinese text; `refusal`, when the catalogue words it, the code and params a reader's language needs. */
export type CognitionExtractionFinished = DomainEvent<
  'CognitionExtractionFinished',
  { extractionId: string; userId: string; outcome: 'completed' | 'failed'; cognitionId: string | null; error: string | null; refusal?: CodedError; at: string }
>;
export type ExtractionEvent = CognitionExtractionRequested | CognitionExtractionStarted | CognitionExtractionFinished | TokensConsumed;

type Requested = ExtractionInput & { extractionId: string; userId: string; ownerName: string };
export type Extraction =
  | { status: 'none' }
  | ({ status: 'pending' | 'running' } & Requested)
  | ({ status: 'completed'; cognitionId: string } & Requested)
  | ({ status: 'failed'; error: string } & Requested);

export const initialState = (): Extraction => ({ status: 'none' });

export const extractionStream = (extractionId: string): string => `cognition-extraction-${extractionId}`;

export function evolve(state: Extraction, event: ExtractionEvent): Extraction {
  switch (event.type) {
    case 'CognitionExtractionRequested': {
      const { at: _at, ...requested } = event.data;
      return { status: 'pending', ...requested };
    }
    case 'CognitionExtractionStarted':
      return state.status === 'pending' ? { ...state, status: 'running' } : state;
    case 'CognitionExtractionFinished': {
      if (state.status !== 'pending' && state.status !== 'running') return state;
      const { outcome, cognitionId, error } = event.data;
      return outcome === 'completed' && cognitionId ? { ...state, status: 'completed', cognitionId } : { ...state, status: 'failed', error: error ?? '' };
    }
    case 'TokensConsumed':
      return state;
    default:
      return assertNever(event);
  }
}

import type { CodedError } from '../protocol/errors.ts';
import { refuse } from '../refuse.ts';
import { assertNever, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { evolve, initialState, type Extraction, type ExtractionEvent, type ExtractionInput } from './extraction.ts';

export const MAX_EXTRACT_NOTES = 5;
export const MAX_SYNTHESIS = 5;
export const MIN_SYNTHESIS = 2;

export type RequestExtraction = Command<'RequestExtraction', ExtractionInput & { extractionId: string; userId: string; ownerName: string }>;
export type StartExtraction = Command<'StartExtraction', { userId: string }>;
export type RecordExtractionUsage = Command<'RecordExtractionUsage', { userId: string; prompt: number; completion: number; model: string }>;
export type FinishExtraction = Command<'FinishExtraction', { userId: string; cognitionId: string | null; error: string | null; refusal?: CodedError }>;
export type ExtractionCommand = RequestExtraction | StartExtraction | RecordExtractionUsage | FinishExtraction;

function checkInput(input: ExtractionInput): void {
  switch (input.kind) {
    case 'notes':
      if (input.noteIds.length === 0) throw refuse('invalid', 'extraction.select_first', {}, 'note_ids');
      if (input.noteIds.length > MAX_EXTRACT_NOTES) throw refuse('invalid', 'extraction.too_many_notes', {}, 'note_ids');
      return;
    case 'url':
      if (!input.url) throw refuse('invalid', 'extraction.url_required', {}, 'url');
      return;
    case 'synthesis':
      if (input.cognitionIds.length < MIN_SYNTHESIS) throw refuse('invalid', 'extraction.too_few_cognitions', { min: MIN_SYNTHESIS }, 'cognition_ids');
      if (input.cognitionIds.length > MAX_SYNTHESIS) throw refuse('invalid', 'extraction.too_many_cognitions', { max: MAX_SYNTHESIS }, 'cognition_ids');
      return;
    default:
      assertNever(input.kind);
  }
}

export const requestExtraction = (command: RequestExtraction, state: Extraction): ExtractionEvent[] => {
  if (state.status !== 'none') return [];
  checkInput(command.data);
  return [{ type: 'CognitionExtractionRequested', data: { ...command.data, at: command.metadata.now.toISOString() } }];
};

export const startExtraction = (command: StartExtraction, state: Extraction): ExtractionEvent[] => {
  if (state.status !== 'pending') return [];
  return [{ type: 'CognitionExtractionStarted', data: { extractionId: state.extractionId, userId: command.data.userId, at: command.metadata.now.toISOString() } }];
};

/** Usage is recorded while the job runs, so the budget is charged for a job that later fails. */
export const recordExtractionUsage = (command: RecordExtractionUsage, state: Extraction): ExtractionEvent[] => {
  if (state.status !== 'running') return [];
  const { userId, prompt, completion, model } = command.data;
  return [{ type: 'TokensConsumed', data: { userId, sessionId: null, messageId: state.extractionId, prompt, completion, model, at: command.metadata.now.toISOString() } }];
};

export const finishExtraction = (command: FinishExtraction, state: Extraction): ExtractionEvent[] => {
  if (state.status !== 'pending' && state.status !== 'running') return [];
  const { userId, cognitionId, error, refusal } = command.data;
  const failure = cognitionId ? { error: null } : { error: error ?? '认知提取失败', ...(refusal && { refusal }) };
  return [
    {
      type: 'CognitionExtractionFinished',
      data: { extractionId: state.extractionId, userId, outcome: cognitionId ? 'completed' : 'failed', cognitionId, ...failure, at: command.metadata.now.toISOString() },
    },
  ];
};

export function decide(command: ExtractionCommand, state: Extraction): ExtractionEvent[] {
  switch (command.type) {
    case 'RequestExtraction':
      return requestExtraction(command, state);
    case 'StartExtraction':
      return startExtraction(command, state);
    case 'RecordExtractionUsage':
      return recordExtractionUsage(command, state);
    case 'FinishExtraction':
      return finishExtraction(command, state);
    default:
      return assertNever(command);
  }
}

export const extractionDecider: Decider<Extraction, ExtractionCommand, ExtractionEvent> = { initialState, evolve, decide };

/** The queue job: name `cognition_extract`, job id the extraction id. */
export const COGNITION_JOB = 'cognition_extract';
export interface CognitionJobData {
  extractionId: string;
  userId: string;
}

import { assertNever, DomainError, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { evolve, initialState, type Extraction, type ExtractionEvent, type ExtractionInput } from './extraction.ts';

export const MAX_EXTRACT_NOTES = 5;
export const MAX_SYNTHESIS = 5;
export const MIN_SYNTHESIS = 2;
export const SELECT_FIRST = '请先选择文档';
export const TOO_MANY_NOTES = '最多只能选择5个文档进行认知提取';

export type RequestExtraction = Command<'RequestExtraction', ExtractionInput & { extractionId: string; userId: string; ownerName: string }>;
export type StartExtraction = Command<'StartExtraction', { userId: string }>;
export type RecordExtractionUsage = Command<'RecordExtractionUsage', { userId: string; prompt: number; completion: number; model: string }>;
export type FinishExtraction = Command<'FinishExtraction', { userId: string; cognitionId: string | null; error: string | null }>;
export type ExtractionCommand = RequestExtraction | StartExtraction | RecordExtractionUsage | FinishExtraction;

function checkInput(input: ExtractionInput): void {
  switch (input.kind) {
    case 'notes':
      if (input.noteIds.length === 0) throw new DomainError('invalid', SELECT_FIRST, 'note_ids');
      if (input.noteIds.length > MAX_EXTRACT_NOTES) throw new DomainError('invalid', TOO_MANY_NOTES, 'note_ids');
      return;
    case 'url':
      if (!input.url) throw new DomainError('invalid', '请提供网页地址', 'url');
      return;
    case 'synthesis':
      if (input.cognitionIds.length < MIN_SYNTHESIS) throw new DomainError('invalid', `至少选择 ${MIN_SYNTHESIS} 条认知进行综合`, 'cognition_ids');
      if (input.cognitionIds.length > MAX_SYNTHESIS) throw new DomainError('invalid', `最多选择 ${MAX_SYNTHESIS} 条认知进行综合`, 'cognition_ids');
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
  const { userId, cognitionId, error } = command.data;
  return [
    {
      type: 'CognitionExtractionFinished',
      data: { extractionId: state.extractionId, userId, outcome: cognitionId ? 'completed' : 'failed', cognitionId, error: cognitionId ? null : (error ?? '认知提取失败'), at: command.metadata.now.toISOString() },
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

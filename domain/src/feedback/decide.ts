import { refuse } from '../refuse.ts';
import { assertNever, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { FEEDBACK_MAX_LENGTH } from '../protocol/limits.ts';
import { evolve, initialState, type Feedback, type FeedbackEvent, type FeedbackType } from './feedback.ts';

export type SubmitFeedback = Command<
  'SubmitFeedback',
  { feedbackId: string; userId: string; username: string; email: string; feedbackType: FeedbackType; text: string }
>;
export type FeedbackCommand = SubmitFeedback;

export const submitFeedback = (command: SubmitFeedback, state: Feedback): FeedbackEvent[] => {
  if (state.status === 'submitted') return [];
  const text = command.data.text.trim();
  if (!text) throw refuse('invalid', 'feedback.text_empty', {}, 'feedback_text');
  if (text.length > FEEDBACK_MAX_LENGTH) throw refuse('invalid', 'feedback.text_too_long', { max: FEEDBACK_MAX_LENGTH }, 'feedback_text');
  return [{ type: 'FeedbackSubmitted', data: { ...command.data, text, at: command.metadata.now.toISOString() } }];
};

export function decide(command: FeedbackCommand, state: Feedback): FeedbackEvent[] {
  switch (command.type) {
    case 'SubmitFeedback':
      return submitFeedback(command, state);
    default:
      return assertNever(command.type);
  }
}

export const feedbackDecider: Decider<Feedback, FeedbackCommand, FeedbackEvent> = { initialState, evolve, decide };

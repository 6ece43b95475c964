import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';
import type { FEEDBACK_TYPES } from '../protocol/limits.ts';

export type FeedbackType = (typeof FEEDBACK_TYPES)[number];

export type FeedbackSubmitted = DomainEvent<
  'FeedbackSubmitted',
  { feedbackId: string; userId: string; username: string; email: string; feedbackType: FeedbackType; text: string; at: string }
>;

export type FeedbackEvent = FeedbackSubmitted;

export type Feedback = { status: 'none' } | { status: 'submitted'; feedbackId: string; userId: string };

export const initialState = (): Feedback => ({ status: 'none' });

export function evolve(_state: Feedback, event: FeedbackEvent): Feedback {
  switch (event.type) {
    case 'FeedbackSubmitted':
      return { status: 'submitted', feedbackId: event.data.feedbackId, userId: event.data.userId };
    default:
      return assertNever(event.type);
  }
}

export const feedbackStream = (feedbackId: string): string => `feedback-${feedbackId}`;

import { refuse } from '../refuse.ts';
import { assertNever, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import type { ReviewEngine, ReviewLanguage, SlideContent, SlideReview } from '../protocol/deckReview.ts';
import { evolve, initialState, type DeckReview, type DeckReviewEvent } from './deckreview.ts';

export type UploadDeck = Command<
  'UploadDeck',
  { reviewId: string; userId: string; filename: string; size: number; sha256: string; blobKey: string; language: ReviewLanguage; slides: SlideContent[] }
>;
export type StartDeckReview = Command<'StartDeckReview', { engine: ReviewEngine }>;
export type RecordSlideReview = Command<'RecordSlideReview', { n: number; review: SlideReview }>;
export type RecordSlideFailure = Command<'RecordSlideFailure', { n: number; reason: string }>;
export type CompleteDeckReview = Command<'CompleteDeckReview', { score: number; reasons: string[] }>;
export type FailDeckReview = Command<'FailDeckReview', { code: string | null; reason: string }>;
export type DeckReviewCommand = UploadDeck | StartDeckReview | RecordSlideReview | RecordSlideFailure | CompleteDeckReview | FailDeckReview;

const at = (command: { metadata: { now: Date } }) => command.metadata.now.toISOString();

export const uploadDeck = (command: UploadDeck, state: DeckReview): DeckReviewEvent[] => {
  // The same upload command again (a retried request) finds its review already there.
  if (state.status !== 'none') return [];
  if (command.data.slides.length === 0) throw refuse('invalid', 'deck.no_slides', {}, 'file');
  return [{ type: 'DeckUploaded', data: { ...command.data, at: at(command) } }];
};

export const startDeckReview = (command: StartDeckReview, state: DeckReview): DeckReviewEvent[] => {
  if (state.status !== 'uploaded') return [];
  return [{ type: 'DeckReviewStarted', data: { reviewId: state.reviewId, userId: state.userId, engine: command.data.engine, at: at(command) } }];
};

/** A slide gets one result: a retried job that reviews it again records nothing. */
function slideToRecord(state: DeckReview, n: number): Extract<DeckReview, { status: 'reviewing' }> | null {
  if (state.status !== 'reviewing') return null;
  if (!state.slides.some((slide) => slide.n === n)) throw refuse('invalid', 'deck.slide_unknown', { n });
  return state.outcomes[n] ? null : state;
}

export const recordSlideReview = (command: RecordSlideReview, state: DeckReview): DeckReviewEvent[] => {
  const reviewing = slideToRecord(state, command.data.n);
  if (!reviewing) return [];
  return [{ type: 'SlideReviewed', data: { reviewId: reviewing.reviewId, userId: reviewing.userId, n: command.data.n, review: command.data.review, at: at(command) } }];
};

export const recordSlideFailure = (command: RecordSlideFailure, state: DeckReview): DeckReviewEvent[] => {
  const reviewing = slideToRecord(state, command.data.n);
  if (!reviewing) return [];
  return [{ type: 'SlideReviewFailed', data: { reviewId: reviewing.reviewId, userId: reviewing.userId, n: command.data.n, reason: command.data.reason, at: at(command) } }];
};

export const completeDeckReview = (command: CompleteDeckReview, state: DeckReview): DeckReviewEvent[] => {
  if (state.status !== 'reviewing') return [];
  const missing = state.slides.filter((slide) => !state.outcomes[slide.n]).length;
  if (missing > 0) throw refuse('conflict', 'deck.review_incomplete', { missing });
  const score = Math.round(command.data.score);
  if (!(score >= 0 && score <= 100)) throw refuse('invalid', 'deck.score_invalid');
  return [{ type: 'DeckReviewCompleted', data: { reviewId: state.reviewId, userId: state.userId, score, reasons: command.data.reasons, at: at(command) } }];
};

export const failDeckReview = (command: FailDeckReview, state: DeckReview): DeckReviewEvent[] => {
  if (state.status !== 'uploaded' && state.status !== 'reviewing') return [];
  return [{ type: 'DeckReviewFailed', data: { reviewId: state.reviewId, userId: state.userId, code: command.data.code, reason: command.data.reason, at: at(command) } }];
};

export function decide(command: DeckReviewCommand, state: DeckReview): DeckReviewEvent[] {
  switch (command.type) {
    case 'UploadDeck':
      return uploadDeck(command, state);
    case 'StartDeckReview':
      return startDeckReview(command, state);
    case 'RecordSlideReview':
      return recordSlideReview(command, state);
    case 'RecordSlideFailure':
      return recordSlideFailure(command, state);
    case 'CompleteDeckReview':
      return completeDeckReview(command, state);
    case 'FailDeckReview':
      return failDeckReview(command, state);
    default:
      return assertNever(command);
  }
}

export const deckReviewDecider: Decider<DeckReview, DeckReviewCommand, DeckReviewEvent> = { initialState, evolve, decide };

/** The queue job: name `deck_review`, job id from the review id. */
export const DECK_REVIEW_JOB = 'deck_review';
export interface DeckReviewJobData {
  reviewId: string;
  userId: string;
}
export const deckReviewJobId = (reviewId: string): string => `deck-review:${reviewId}`;

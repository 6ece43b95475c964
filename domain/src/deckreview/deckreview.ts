import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';
import type { ReviewEngine, ReviewLanguage, SlideContent, SlideReview } from '../protocol/deckReview.ts';

/**
 * One review of an uploaded presentation (stream `deckreview-<id>`): uploaded → reviewing (a result
 * per slide appended as each arrives) → completed with an overall score, or failed with a reason.
 */

export type DeckUploaded = DomainEvent<
  'DeckUploaded',
  { reviewId: string; userId: string; filename: string; size: number; sha256: string; blobKey: string; language: ReviewLanguage; slides: SlideContent[]; at: string }
>;
export type DeckReviewStarted = DomainEvent<'DeckReviewStarted', { reviewId: string; userId: string; engine: ReviewEngine; at: string }>;
export type SlideReviewed = DomainEvent<'SlideReviewed', { reviewId: string; userId: string; n: number; review: SlideReview; at: string }>;
export type SlideReviewFailed = DomainEvent<'SlideReviewFailed', { reviewId: string; userId: string; n: number; reason: string; at: string }>;
export type DeckReviewCompleted = DomainEvent<'DeckReviewCompleted', { reviewId: string; userId: string; score: number; reasons: string[]; at: string }>;
/** `code`: the catalogue's code when the reason is one of its refusals (an exhausted budget). */
export type DeckReviewFailed = DomainEvent<'DeckReviewFailed', { reviewId: string; userId: string; code: string | null; reason: string; at: string }>;

export type DeckReviewEvent = DeckUploaded | DeckReviewStarted | SlideReviewed | SlideReviewFailed | DeckReviewCompleted | DeckReviewFailed;

export type SlideOutcome = { status: 'reviewed'; review: SlideReview } | { status: 'failed'; reason: string };

interface Deck {
  reviewId: string;
  userId: string;
  filename: string;
  language: ReviewLanguage;
  slides: SlideContent[];
}

export type DeckReview =
  | { status: 'none' }
  | ({ status: 'uploaded' } & Deck)
  | ({ status: 'reviewing'; engine: ReviewEngine; outcomes: Record<number, SlideOutcome> } & Deck)
  | ({ status: 'completed'; engine: ReviewEngine; outcomes: Record<number, SlideOutcome>; score: number } & Deck)
  | ({ status: 'failed'; reason: string } & Deck);

export const initialState = (): DeckReview => ({ status: 'none' });

export const deckReviewStream = (reviewId: string): string => `deckreview-${reviewId}`;

export function evolve(state: DeckReview, event: DeckReviewEvent): DeckReview {
  switch (event.type) {
    case 'DeckUploaded': {
      const { reviewId, userId, filename, language, slides } = event.data;
      return { status: 'uploaded', reviewId, userId, filename, language, slides };
    }
    case 'DeckReviewStarted':
      return state.status === 'uploaded' ? { ...state, status: 'reviewing', engine: event.data.engine, outcomes: {} } : state;
    case 'SlideReviewed':
      return state.status === 'reviewing' ? { ...state, outcomes: { ...state.outcomes, [event.data.n]: { status: 'reviewed', review: event.data.review } } } : state;
    case 'SlideReviewFailed':
      return state.status === 'reviewing' ? { ...state, outcomes: { ...state.outcomes, [event.data.n]: { status: 'failed', reason: event.data.reason } } } : state;
    case 'DeckReviewCompleted':
      return state.status === 'reviewing' ? { ...state, status: 'completed', score: event.data.score } : state;
    case 'DeckReviewFailed': {
      if (state.status !== 'uploaded' && state.status !== 'reviewing') return state;
      const { reviewId, userId, filename, language, slides } = state;
      return { status: 'failed', reviewId, userId, filename, language, slides, reason: event.data.reason };
    }
    default:
      return assertNever(event);
  }
}

/** The slides that have no result yet, in show order: what a (resumed) review still has to do. */
export const pendingSlides = (state: Extract<DeckReview, { status: 'reviewing' }>): SlideContent[] => state.slides.filter((slide) => !state.outcomes[slide.n]);

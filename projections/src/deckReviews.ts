import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import type { DeckReviewEvent } from '@scriptorium/domain/deckreview/deckreview';
import type { DeckReviewStatus, ReviewEngine, ReviewLanguage, SlideReview, SlideReviewStatus } from '@scriptorium/domain/protocol/deckReview';
import type { Projection } from './projection.ts';

/** A presentation review as "my reviews" lists it. */
export interface DeckReviewDoc extends Doc {
  user_id: string;
  filename: string;
  status: DeckReviewStatus;
  engine: ReviewEngine | null;
  language: ReviewLanguage;
  slide_count: number;
  reviewed_count: number;
  failed_count: number;
  score: number | null;
  reasons: string[];
  error_code: string | null;
  error_detail: string | null;
  created_at: string;
  updated_at: string;
}

/** One slide of a review, with its result once it has landed (`_id` is `<reviewId>:<n>`). */
export interface DeckSlideDoc extends Doc {
  review_id: string;
  user_id: string;
  n: number;
  title: string | null;
  paragraphs: string[];
  notes: string;
  images: number;
  status: SlideReviewStatus;
  review: SlideReview | null;
  failure: string | null;
}

export const DECK_REVIEWS = 'deck_reviews';
export const DECK_SLIDES = 'deck_review_slides';

export const slideDocId = (reviewId: string, n: number): string => `${reviewId}:${n}`;

export const deckReviewsProjection: Projection = {
  name: 'deck-reviews',
  collections: [DECK_REVIEWS, DECK_SLIDES],
  handles: ['DeckUploaded', 'DeckReviewStarted', 'SlideReviewed', 'SlideReviewFailed', 'DeckReviewCompleted', 'DeckReviewFailed'] satisfies DeckReviewEvent['type'][],
  async setup(store) {
    await store.collection(DECK_REVIEWS).ensureIndex({ fields: { user_id: 1, created_at: -1 } });
    await store.collection(DECK_SLIDES).ensureIndex({ fields: { review_id: 1, n: 1 } });
  },
  async apply(recorded: RecordedEvent, tx) {
    const event = { type: recorded.type, data: recorded.data } as DeckReviewEvent;
    const reviews = tx.collection<DeckReviewDoc>(DECK_REVIEWS);
    const slides = tx.collection<DeckSlideDoc>(DECK_SLIDES);
    // Counted from the slides themselves, so an event applied twice counts once.
    const counts = async (reviewId: string) => ({
      reviewed_count: await slides.count({ review_id: reviewId, status: 'reviewed' }),
      failed_count: await slides.count({ review_id: reviewId, status: 'failed' }),
    });
    switch (event.type) {
      case 'DeckUploaded': {
        const { reviewId, userId, filename, language, slides: content, at } = event.data;
        await reviews.put({
          _id: reviewId,
          user_id: userId,
          filename,
          status: 'uploaded',
          engine: null,
          language,
          slide_count: content.length,
          reviewed_count: 0,
          failed_count: 0,
          score: null,
          reasons: [],
          error_code: null,
          error_detail: null,
          created_at: at,
          updated_at: at,
        });
        for (const slide of content) await slides.put({ _id: slideDocId(reviewId, slide.n), review_id: reviewId, user_id: userId, ...slide, status: 'pending', review: null, failure: null });
        return;
      }
      case 'DeckReviewStarted':
        await reviews.update(event.data.reviewId, { $set: { status: 'reviewing', engine: event.data.engine, updated_at: event.data.at } });
        return;
      case 'SlideReviewed': {
        const { reviewId, n, review, at } = event.data;
        await slides.update(slideDocId(reviewId, n), { $set: { status: 'reviewed', review, failure: null } });
        await reviews.update(reviewId, { $set: { ...(await counts(reviewId)), updated_at: at } });
        return;
      }
      case 'SlideReviewFailed': {
        const { reviewId, n, reason, at } = event.data;
        await slides.update(slideDocId(reviewId, n), { $set: { status: 'failed', review: null, failure: reason } });
        await reviews.update(reviewId, { $set: { ...(await counts(reviewId)), updated_at: at } });
        return;
      }
      case 'DeckReviewCompleted':
        await reviews.update(event.data.reviewId, { $set: { status: 'completed', score: event.data.score, reasons: event.data.reasons, updated_at: event.data.at } });
        return;
      case 'DeckReviewFailed':
        await reviews.update(event.data.reviewId, { $set: { status: 'failed', error_code: event.data.code, error_detail: event.data.reason, updated_at: event.data.at } });
        return;
      default:
        assertNever(event);
    }
  },
};

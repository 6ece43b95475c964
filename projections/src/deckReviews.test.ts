import test from 'ava';
import type { DeckReviewEvent } from '@scriptorium/domain/deckreview/deckreview';
import type { SlideReview } from '@scriptorium/domain/protocol/deckReview';
import { DECK_REVIEWS, DECK_SLIDES, deckReviewsProjection } from './deckReviews.ts';
import { T1, T2, T3 } from './fixtures.ts';
import { projectionSpec } from './testing.ts';

const spec = projectionSpec<DeckReviewEvent>(deckReviewsProjection);
const review: SlideReview = {
  score: 82,
  clarity: { rating: 'good', points: [] },
  structure: { rating: 'fair', points: ['先讲结论'] },
  consistency: { rating: 'good', points: [] },
  spelling: { rating: 'good', points: [] },
  rewrite: '季度复盘\n收入同比增长 18%',
};
const uploaded = (reviewId = 'r1', userId = 'u1', at = T1): DeckReviewEvent => ({
  type: 'DeckUploaded',
  data: {
    reviewId,
    userId,
    filename: 'q1.pptx',
    size: 100,
    sha256: 'abc',
    blobKey: `decks/${userId}/${reviewId}.pptx`,
    language: 'zh',
    slides: [
      { n: 1, title: '季度复盘', paragraphs: ['收入增长'], notes: '先讲结论', images: 1 },
      { n: 2, title: null, paragraphs: [], notes: '', images: 0 },
    ],
    at,
  },
});
const started: DeckReviewEvent = { type: 'DeckReviewStarted', data: { reviewId: 'r1', userId: 'u1', engine: 'offline', at: T2 } };
const slide1: DeckReviewEvent = { type: 'SlideReviewed', data: { reviewId: 'r1', userId: 'u1', n: 1, review, at: T2 } };
const slide2: DeckReviewEvent = { type: 'SlideReviewFailed', data: { reviewId: 'r1', userId: 'u1', n: 2, reason: '模型调用失败', at: T2 } };

test('an uploaded deck lists as uploaded, each slide pending with what it holds', async (t) => {
  const scenario = spec.given(uploaded());
  await scenario.thenDoc(t, DECK_REVIEWS, 'r1', { user_id: 'u1', filename: 'q1.pptx', status: 'uploaded', engine: null, slide_count: 2, reviewed_count: 0, failed_count: 0, score: null });
  await scenario.thenDoc(t, DECK_SLIDES, 'r1:1', { review_id: 'r1', n: 1, title: '季度复盘', paragraphs: ['收入增长'], notes: '先讲结论', images: 1, status: 'pending', review: null });
});

test('slide results land one by one while the review runs, counted once even when replayed', async (t) => {
  const scenario = spec.given(uploaded(), started).when(slide1);
  await scenario.thenDoc(t, DECK_REVIEWS, 'r1', { status: 'reviewing', engine: 'offline', reviewed_count: 1, failed_count: 0 });
  await scenario.thenDoc(t, DECK_SLIDES, 'r1:1', { status: 'reviewed', review, failure: null });
  await scenario.thenDoc(t, DECK_SLIDES, 'r1:2', { status: 'pending' });
  const replayed = spec.given(uploaded(), started).when(slide1, slide2).replayed();
  await replayed.thenDoc(t, DECK_REVIEWS, 'r1', { reviewed_count: 1, failed_count: 1 });
  await replayed.thenDoc(t, DECK_SLIDES, 'r1:2', { status: 'failed', failure: '模型调用失败', review: null });
});

test('a completed review carries its score and reasons; a failed one its reason', async (t) => {
  await spec
    .given(uploaded(), started, slide1, slide2, { type: 'DeckReviewCompleted', data: { reviewId: 'r1', userId: 'u1', score: 64, reasons: ['第 2 页没有标题'], at: T3 } })
    .thenDoc(t, DECK_REVIEWS, 'r1', { status: 'completed', score: 64, reasons: ['第 2 页没有标题'], updated_at: T3 });
  await spec
    .given(uploaded(), started, { type: 'DeckReviewFailed', data: { reviewId: 'r1', userId: 'u1', code: 'budget.exhausted', reason: 'Token使用额度已用尽，请联系管理员进行充值', at: T3 } })
    .thenDoc(t, DECK_REVIEWS, 'r1', { status: 'failed', error_code: 'budget.exhausted', error_detail: 'Token使用额度已用尽，请联系管理员进行充值' });
});

test('each user’s reviews list newest first', async (t) => {
  await spec
    .given(uploaded('r1', 'u1', T1), uploaded('r2', 'u2', T2), uploaded('r3', 'u1', T3))
    .then(t, DECK_REVIEWS, [{ _id: 'r3' }, { _id: 'r1' }], { filter: { user_id: 'u1' }, sort: { created_at: -1 } });
});

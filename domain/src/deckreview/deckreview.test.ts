import test from 'ava';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import type { SlideContent, SlideReview } from '../protocol/deckReview.ts';
import { deckReviewDecider, type DeckReviewCommand } from './decide.ts';
import { pendingSlides, type DeckReviewEvent } from './deckreview.ts';

const spec = deciderSpec(deckReviewDecider);
const now = '2026-03-01T02:00:00.000Z';
const meta = at(now);
const slides: SlideContent[] = [
  { n: 1, title: '季度复盘', paragraphs: ['收入增长 18%'], notes: '先讲结论', images: 1 },
  { n: 2, title: null, paragraphs: ['没有标题'], notes: '', images: 0 },
];
const deck = { reviewId: 'r1', userId: 'u1', filename: 'q1.pptx', size: 1234, sha256: 'abc', blobKey: 'decks/u1/r1.pptx', language: 'zh' as const, slides };
const review: SlideReview = {
  score: 80,
  clarity: { rating: 'good', points: [] },
  structure: { rating: 'fair', points: ['要点顺序可以调整'] },
  consistency: { rating: 'good', points: [] },
  spelling: { rating: 'good', points: [] },
  rewrite: '',
};

const uploaded: DeckReviewEvent = { type: 'DeckUploaded', data: { ...deck, at: now } };
const started: DeckReviewEvent = { type: 'DeckReviewStarted', data: { reviewId: 'r1', userId: 'u1', engine: 'offline', at: now } };
const slide1: DeckReviewEvent = { type: 'SlideReviewed', data: { reviewId: 'r1', userId: 'u1', n: 1, review, at: now } };
const slide2Failed: DeckReviewEvent = { type: 'SlideReviewFailed', data: { reviewId: 'r1', userId: 'u1', n: 2, reason: '模型两次返回的评审格式都不正确，本页未能评审', at: now } };
const command = (c: Omit<DeckReviewCommand, 'metadata'>) => ({ ...c, metadata: meta }) as DeckReviewCommand;

test('an uploaded deck is recorded once, and a deck without slides is refused', (t) => {
  spec([]).when(command({ type: 'UploadDeck', data: deck })).then(t, [uploaded]);
  spec([uploaded]).when(command({ type: 'UploadDeck', data: deck })).then(t, []);
  spec([]).when(command({ type: 'UploadDeck', data: { ...deck, slides: [] } })).thenThrows(t, 'invalid', '演示文稿中没有幻灯片');
});

test('a review starts once, with the engine that does it', (t) => {
  spec([uploaded]).when(command({ type: 'StartDeckReview', data: { engine: 'offline' } })).then(t, [started]);
  spec([uploaded, started]).when(command({ type: 'StartDeckReview', data: { engine: 'model' } })).then(t, []);
  spec([]).when(command({ type: 'StartDeckReview', data: { engine: 'model' } })).then(t, []);
});

test('each slide gets one result, appended as it arrives; a slide the deck lacks is refused', (t) => {
  spec([uploaded, started]).when(command({ type: 'RecordSlideReview', data: { n: 1, review } })).then(t, [slide1]);
  spec([uploaded, started, slide1]).when(command({ type: 'RecordSlideReview', data: { n: 1, review: { ...review, score: 10 } } })).then(t, []);
  spec([uploaded, started, slide1]).when(command({ type: 'RecordSlideFailure', data: { n: 1, reason: 'x' } })).then(t, []);
  spec([uploaded, started]).when(command({ type: 'RecordSlideFailure', data: { n: 2, reason: slide2Failed.data.reason } })).then(t, [slide2Failed]);
  spec([uploaded, started]).when(command({ type: 'RecordSlideReview', data: { n: 3, review } })).thenThrows(t, 'invalid', '演示文稿中没有第 3 页');
  // Before the review has started there is nothing to record into.
  spec([uploaded]).when(command({ type: 'RecordSlideReview', data: { n: 1, review } })).then(t, []);
});

test('a review completes only when every slide has a result, with a score from 0 to 100', (t) => {
  const completed: DeckReviewEvent = { type: 'DeckReviewCompleted', data: { reviewId: 'r1', userId: 'u1', score: 73, reasons: ['第 2 页没有标题'], at: now } };
  spec([uploaded, started, slide1]).when(command({ type: 'CompleteDeckReview', data: { score: 73, reasons: ['第 2 页没有标题'] } })).thenThrows(t, 'conflict', '还有 1 页没有评审结果');
  spec([uploaded, started, slide1, slide2Failed]).when(command({ type: 'CompleteDeckReview', data: { score: 72.6, reasons: ['第 2 页没有标题'] } })).then(t, [completed]);
  spec([uploaded, started, slide1, slide2Failed]).when(command({ type: 'CompleteDeckReview', data: { score: 140, reasons: [] } })).thenThrows(t, 'invalid');
  spec([uploaded, started, slide1, slide2Failed, completed]).when(command({ type: 'CompleteDeckReview', data: { score: 10, reasons: [] } })).then(t, []);
});

test('a review that cannot go on fails with its reason, once, and takes no more results', (t) => {
  const failed: DeckReviewEvent = { type: 'DeckReviewFailed', data: { reviewId: 'r1', userId: 'u1', code: 'budget.exhausted', reason: 'Token使用额度已用尽，请联系管理员进行充值', at: now } };
  spec([uploaded, started, slide1]).when(command({ type: 'FailDeckReview', data: { code: 'budget.exhausted', reason: failed.data.reason } })).then(t, [failed]);
  spec([uploaded, started, failed]).when(command({ type: 'FailDeckReview', data: { code: null, reason: 'again' } })).then(t, []);
  spec([uploaded, started, failed]).when(command({ type: 'RecordSlideReview', data: { n: 2, review } })).then(t, []);
});

test('a resumed review knows which slides are still to do', (t) => {
  const state = [uploaded, started, slide1].reduce(deckReviewDecider.evolve, deckReviewDecider.initialState());
  if (state.status !== 'reviewing') return t.fail();
  t.deepEqual(pendingSlides(state).map((slide) => slide.n), [2]);
});

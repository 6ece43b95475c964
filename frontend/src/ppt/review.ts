import { isUnderway, type DeckReviewStatus, type Rating } from '@scriptorium/domain/protocol/deckReview';

/** How often the page re-reads a review still running: each slide's result shows within this. */
export const LIVE_REFRESH_MS = 800;

/** The colour a score is shown in, by the same bands a rating uses. */
export function scoreTone(score: number): Rating {
  if (score >= 80) return 'good';
  if (score >= 60) return 'fair';
  return 'poor';
}

/** The first paragraphs a card shows, and how many it leaves out. */
export function excerpt(paragraphs: readonly string[], max = 4): { shown: string[]; hidden: number } {
  return { shown: paragraphs.slice(0, max), hidden: Math.max(0, paragraphs.length - max) };
}

/** A query's refetch interval: on while the review may still change, off once it has ended. */
export const refreshWhile = (status: DeckReviewStatus | undefined): number | false => (status !== undefined && isUnderway(status) ? LIVE_REFRESH_MS : false);

export const PPTX_ACCEPT = '.pptx,application/vnd.openxmlformats-officedocument.presentationml.presentation';

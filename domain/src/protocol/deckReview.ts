import { z } from 'zod';

/**
 * The wire shapes of a presentation review, shared by the api, the worker and the client: a deck's
 * slides as read from the file, each slide's review (what the model must answer, checked with these
 * schemas), and the review as the page and the exports show it.
 */

export const DECK_REVIEW_STATUSES = ['uploaded', 'reviewing', 'completed', 'failed'] as const;
export type DeckReviewStatus = (typeof DECK_REVIEW_STATUSES)[number];
/** `offline`: the rule-based review the product gives when no model is configured. */
export const REVIEW_ENGINES = ['model', 'offline'] as const;
export type ReviewEngine = (typeof REVIEW_ENGINES)[number];
export const REVIEW_LANGUAGES = ['zh', 'en'] as const;
export type ReviewLanguage = (typeof REVIEW_LANGUAGES)[number];
export const REVIEW_ASPECTS = ['clarity', 'structure', 'consistency', 'spelling'] as const;
export type ReviewAspect = (typeof REVIEW_ASPECTS)[number];
export const RATINGS = ['good', 'fair', 'poor'] as const;
export type Rating = (typeof RATINGS)[number];

export const REVIEW_LIMITS = { point: 400, points: 6, rewrite: 3000, reasons: 8, reason: 400 } as const;

const point = z.string().trim().min(1).max(REVIEW_LIMITS.point);
export const aspectReviewSchema = z.object({
  rating: z.enum(RATINGS),
  points: z.array(point).max(REVIEW_LIMITS.points),
});
export type AspectReview = z.infer<typeof aspectReviewSchema>;

/** One slide's review: a score, four aspects each with a rating and its points, and a suggested rewrite. */
export const slideReviewSchema = z.object({
  score: z.number().int().min(0).max(100),
  clarity: aspectReviewSchema,
  structure: aspectReviewSchema,
  consistency: aspectReviewSchema,
  spelling: aspectReviewSchema,
  /** The slide rewritten: a title line, then one line per point. Empty when the slide is fine as it is. */
  rewrite: z.string().trim().max(REVIEW_LIMITS.rewrite),
});
export type SlideReview = z.infer<typeof slideReviewSchema>;

/** What a slide holds, as read from the file. */
export interface SlideContent {
  n: number;
  title: string | null;
  paragraphs: string[];
  notes: string;
  images: number;
}

export type SlideReviewStatus = 'pending' | 'reviewed' | 'failed';

// The replies of the review routes: declared by the routes (their OpenAPI responses) and inferred here for the client.
export const deckSlideSchema = z.object({
  n: z.number().int(),
  title: z.string().nullable(),
  paragraphs: z.array(z.string()),
  notes: z.string(),
  images: z.number().int(),
  status: z.enum(['pending', 'reviewed', 'failed']),
  review: slideReviewSchema.nullable(),
  /** Why the slide could not be reviewed. */
  failure: z.string().nullable(),
});
export type DeckSlideDto = z.infer<typeof deckSlideSchema>;

export const deckReviewSummarySchema = z.object({
  review_id: z.string(),
  filename: z.string(),
  status: z.enum(DECK_REVIEW_STATUSES),
  /** Known once the review starts. */
  engine: z.enum(REVIEW_ENGINES).nullable(),
  language: z.enum(REVIEW_LANGUAGES),
  slide_count: z.number().int(),
  reviewed_count: z.number().int(),
  failed_count: z.number().int(),
  score: z.number().nullable(),
  /** Why the whole review stopped, in the catalogue's words. */
  error: z.object({ code: z.string().nullable(), detail: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DeckReviewSummaryDto = z.infer<typeof deckReviewSummarySchema>;

export const deckReviewSchema = deckReviewSummarySchema.extend({ reasons: z.array(z.string()), slides: z.array(deckSlideSchema) });
export type DeckReviewDto = z.infer<typeof deckReviewSchema>;

export const deckReviewListSchema = z.object({ reviews: z.array(deckReviewSummarySchema) });
export type DeckReviewListDto = z.infer<typeof deckReviewListSchema>;

/** A review that may still change: the page keeps reading it. */
export const isUnderway = (status: DeckReviewStatus): boolean => status === 'uploaded' || status === 'reviewing';

/** What a review is exported as (GET /api/ppt/reviews/:id/export?format=…). */
export const deckExportQuery = z.object({ format: z.enum(['md', 'pdf'], { error: 'deck.format_invalid' }) });
export type DeckExportQuery = z.input<typeof deckExportQuery>;

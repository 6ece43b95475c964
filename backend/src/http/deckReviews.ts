import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import { z } from 'zod';
import { DeckError, type DeckReader } from '@scriptorium/infra/deck/port';
import { OoxmlDeckReader, PPTX_MIME } from '@scriptorium/infra/deck/ooxml';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import { DECK_REVIEWS, DECK_SLIDES, type DeckReviewDoc, type DeckSlideDoc } from '@scriptorium/projections/deckReviews';
import { deckReviewDecider } from '@scriptorium/domain/deckreview/decide';
import { deckReviewStream } from '@scriptorium/domain/deckreview/deckreview';
import { reviewMarkdown } from '@scriptorium/domain/deckreview/report';
import { deckExportQuery, deckReviewListSchema, deckReviewSchema, REVIEW_LANGUAGES, type DeckReviewDto, type DeckReviewSummaryDto } from '@scriptorium/domain/protocol/deckReview';
import { anyErrorText, coded, isErrorCode } from '@scriptorium/domain/protocol/errors';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { HttpError, httpError, invalidField, validationError } from './errors.ts';
import { readMultipart, safeFilename } from './files.ts';
import { sendPdf } from './exports.ts';
import { parseParams, parseQuery } from './validate.ts';
import { contract } from './contract.ts';

const reviewParams = z.object({ id: z.uuid('deck.id_invalid') });
const uploadFields = z.object({ language: z.enum(REVIEW_LANGUAGES, { error: 'deck.language_invalid' }).default('zh') });

function deckError(error: DeckError): HttpError {
  const code = isErrorCode(error.code) ? error.code : 'deck.corrupt';
  const text = anyErrorText(code, error.params);
  switch (error.reason) {
    case 'too_large':
      return new HttpError(413, text, code, error.params);
    case 'unsupported_type':
      return new HttpError(415, text, code, error.params);
    default:
      return new HttpError(422, [{ loc: ['body', 'file'], msg: text, type: error.reason, ...coded(code, error.params) }], code, error.params);
  }
}

export const summaryDto = (doc: DeckReviewDoc): DeckReviewSummaryDto => ({
  review_id: doc._id,
  filename: doc.filename,
  status: doc.status,
  engine: doc.engine,
  language: doc.language,
  slide_count: doc.slide_count,
  reviewed_count: doc.reviewed_count,
  failed_count: doc.failed_count,
  score: doc.score,
  error: doc.error_detail ? { code: doc.error_code, detail: doc.error_detail } : null,
  created_at: doc.created_at,
  updated_at: doc.updated_at,
});

/**
 * Presentation review: a .pptx is checked and read before anything is kept, its slides recorded
 * as the review's first event (which queues the review job), and the page reads the review back
 * from the read model as each slide's result lands. Exports render the same read model.
 */
export function deckReviewRoutes(services: Services, progress: ProjectionProgress, reader: DeckReader = new OoxmlDeckReader()): Router {
  const router = new Router();
  const reviews = () => services.readStore.collection<DeckReviewDoc>(DECK_REVIEWS);
  const slides = () => services.readStore.collection<DeckSlideDoc>(DECK_SLIDES);

  /** Another user's review is answered as missing, so ids tell nothing. */
  async function owned(userId: string, reviewId: string): Promise<DeckReviewDto> {
    const doc = await reviews().get(reviewId);
    if (!doc || doc.user_id !== userId) throw httpError(404, 'deck.not_found');
    const slideDocs = await slides().find({ review_id: reviewId }, { sort: { n: 1 } });
    // Two reads while the review runs: the slides, read second, may be newer than the review. Its
    // counts come from them, so the page never lists a scored slide under "0 reviewed" or "queued".
    const reviewed = slideDocs.filter((slide) => slide.status === 'reviewed').length;
    const failed = slideDocs.filter((slide) => slide.status === 'failed').length;
    const started = doc.status === 'uploaded' && reviewed + failed > 0;
    return {
      ...summaryDto(doc),
      ...(started && { status: 'reviewing' as const }),
      reviewed_count: Math.max(doc.reviewed_count, reviewed),
      failed_count: Math.max(doc.failed_count, failed),
      reasons: doc.reasons,
      slides: slideDocs.map(({ n, title, paragraphs, notes, images, status, review, failure }) => ({ n, title, paragraphs, notes, images, status, review, failure })),
    };
  }

  router.post('/api/ppt/reviews', contract({ summary: 'Upload a .pptx and start its review', access: 'user', multipart: uploadFields, responses: { 202: deckReviewSchema }, refusals: [402, 413, 415, 429] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { file, fields } = await readMultipart(ctx);
    const parsed = uploadFields.safeParse(fields);
    if (!parsed.success) throw validationError(parsed.error.issues, 'body');
    if (!file) throw invalidField(['file'], 'files.missing', {}, 'missing');
    const filename = safeFilename(file.originalname);
    let deck;
    try {
      deck = await reader.read(file.buffer, { filename, mimeType: file.mimetype });
    } catch (error) {
      throw error instanceof DeckError ? deckError(error) : error;
    }
    // The offline engine's rules cost nothing; a model review is refused up front when nothing is left.
    if (!services.model.offline) await services.budget.ensureAvailable(user.id);
    const reviewId = randomUUID();
    const blobKey = `decks/${user.id}/${reviewId}.pptx`;
    const stored = await services.blobs.put(blobKey, file.buffer, { contentType: PPTX_MIME, metadata: { filename } });
    let position: number;
    try {
      const result = await services.commands.handle(deckReviewDecider, deckReviewStream(reviewId), {
        type: 'UploadDeck',
        data: { reviewId, userId: user.id, filename, size: stored.size, sha256: stored.sha256, blobKey, language: parsed.data.language, slides: deck.slides },
        metadata: { now: services.clock(), userId: user.id, correlationId: reviewId },
      });
      position = result.position;
    } catch (error) {
      await services.blobs.delete(blobKey).catch((cause: unknown) => ctx.state.log.warn({ err: cause, blobKey }, 'blob left behind'));
      throw error;
    }
    await progress.waitFor(position);
    ctx.status = 202;
    ctx.body = await owned(user.id, reviewId);
  });

  router.get('/api/ppt/reviews', contract({ summary: 'My presentation reviews, newest first', access: 'user', responses: { 200: deckReviewListSchema } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const docs = await reviews().find({ user_id: user.id }, { sort: { created_at: -1 }, limit: 200 });
    ctx.body = { reviews: docs.map(summaryDto) };
  });

  router.get('/api/ppt/reviews/:id', contract({ summary: 'A review with every slide and its result so far', access: 'user', params: reviewParams, responses: { 200: deckReviewSchema }, refusals: [404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, reviewParams);
    ctx.body = await owned(user.id, id);
  });

  router.get('/api/ppt/reviews/:id/export', contract({ summary: 'The review as Markdown or PDF', access: 'user', params: reviewParams, query: deckExportQuery, responses: { 200: { type: ['text/markdown', 'application/pdf'] } }, refusals: [404, 503] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, reviewParams);
    const { format } = parseQuery(ctx, deckExportQuery);
    const review = await owned(user.id, id);
    const markdown = reviewMarkdown(review);
    const name = `${review.filename.replace(/\.pptx$/i, '')}-review`;
    if (format === 'pdf') {
      await sendPdf(ctx, markdown, name);
      return;
    }
    ctx.attachment(`${name}.md`);
    ctx.type = 'text/markdown; charset=utf-8';
    ctx.body = markdown;
  });

  return router;
}

import type { DeckReviewDto, DeckReviewListDto, ReviewLanguage } from '@scriptorium/domain/protocol/deckReview';
import { api } from './client.ts';
import { attachmentName } from './disposition.ts';
import { rawRequest } from './research.ts';

const path = (reviewId: string) => `/api/ppt/reviews/${encodeURIComponent(reviewId)}`;

export type ExportFormat = 'md' | 'pdf';

export const pptApi = {
  list: () => api.get<DeckReviewListDto>('/api/ppt/reviews'),
  get: (reviewId: string) => api.get<DeckReviewDto>(path(reviewId)),
  /** Refusals (not a .pptx, damaged, too large, no budget) come back as the catalogue's errors, before anything is kept. */
  upload(file: File, language: ReviewLanguage) {
    const form = new FormData();
    form.set('language', language);
    form.set('file', file);
    return api.post<DeckReviewDto>('/api/ppt/reviews', { multipart: form });
  },
  async export(reviewId: string, format: ExportFormat): Promise<{ blob: Blob; filename: string | null }> {
    const response = await rawRequest(`${path(reviewId)}/export?format=${format}`, { method: 'GET' });
    return { blob: await response.blob(), filename: attachmentName(response.headers.get('Content-Disposition')) };
  },
};

import type { DeckExportQuery, DeckReviewDto, DeckReviewListDto, ReviewLanguage } from '@scriptorium/domain/protocol/deckReview';
import { api, type DownloadedFile } from '../api/client.ts';

const path = (reviewId: string) => `/api/ppt/reviews/${encodeURIComponent(reviewId)}`;

export type ExportFormat = DeckExportQuery['format'];

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
  export: (reviewId: string, format: ExportFormat): Promise<DownloadedFile> => api.getFile<DeckExportQuery>(`${path(reviewId)}/export`, { query: { format } }),
};

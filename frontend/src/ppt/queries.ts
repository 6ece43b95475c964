import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { isUnderway, type DeckReviewDto } from '@scriptorium/domain/protocol/deckReview';
import { queryClient, queryKeys, useApiMutation, useApiQuery } from '../api/query.ts';
import { downloadBlob } from '../api/research.ts';
import { currentLanguage } from '../i18n/index.ts';
import { pptApi, type ExportFormat } from './api.ts';
import { LIVE_REFRESH_MS, refreshWhile } from './review.ts';

/** The user's reviews, read again while any of them is under way (more slowly than the open one). */
export const useReviewList = () =>
  useApiQuery({
    queryKey: queryKeys.ppt('list'),
    queryFn: pptApi.list,
    refetchInterval: (query) => (query.state.data?.reviews.some((review) => isUnderway(review.status)) ? LIVE_REFRESH_MS * 2 : false),
  });

/**
 * One review, read again while it is under way so each slide shows once its result is in the read
 * model; once it ends, the list (which shows its status too) is read again at once.
 */
export function useReview(reviewId: string | undefined) {
  const review = useApiQuery({
    queryKey: queryKeys.ppt('review', reviewId),
    queryFn: () => pptApi.get(reviewId!),
    enabled: reviewId !== undefined,
    refetchInterval: (query) => refreshWhile(query.state.data?.status),
  });
  const status = review.data?.status;
  useEffect(() => {
    if (status && !isUnderway(status)) void queryClient.invalidateQueries({ queryKey: queryKeys.ppt('list') });
  }, [status]);
  return review;
}

/** Uploads a deck for review in the page's language and opens the review it started. */
export function useUploadDeck() {
  const navigate = useNavigate();
  return useApiMutation({
    mutationFn: (file: File) => pptApi.upload(file, currentLanguage()),
    onSuccess: async (created) => {
      queryClient.setQueryData(queryKeys.ppt('review', created.review_id), created);
      await queryClient.invalidateQueries({ queryKey: queryKeys.ppt('list') });
      navigate(`/ppt/${encodeURIComponent(created.review_id)}`);
    },
  });
}

/** Downloads a review as Markdown or PDF, under the name the server gives it. */
export const useExportReview = (review: DeckReviewDto) =>
  useApiMutation({
    mutationFn: (format: ExportFormat) => pptApi.export(review.review_id, format),
    onSuccess: (file, format) => downloadBlob(file.blob, file.filename ?? `${review.filename.replace(/\.pptx$/i, '')}-review.${format}`),
  });

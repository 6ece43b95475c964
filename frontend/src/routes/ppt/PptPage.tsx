import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { isUnderway } from '@scriptorium/domain/protocol/deckReview';
import { pptApi } from '../../api/ppt.ts';
import { queryKeys, useApiMutation, useApiQuery } from '../../api/query.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import { ReviewList } from '../../ppt/ReviewList.tsx';
import { ReviewView } from '../../ppt/ReviewView.tsx';
import { UploadZone } from '../../ppt/UploadZone.tsx';
import { LIVE_REFRESH_MS, refreshWhile } from '../../ppt/review.ts';
import { ArrowLeftIcon } from '../../ui/icons.ts';
import '../../ppt/ppt.css';
import '../../ui/ui.css';

/** /ppt: upload a deck, the user's reviews, and `/ppt/:reviewId` one review as its slides land. */
export default function PptPage() {
  const { t } = useTranslation('ppt');
  const { reviewId } = useParams();
  const navigate = useNavigate();
  const queries = useQueryClient();

  const list = useApiQuery({
    queryKey: queryKeys.ppt('list'),
    queryFn: pptApi.list,
    refetchInterval: (query) => (query.state.data?.reviews.some((review) => isUnderway(review.status)) ? LIVE_REFRESH_MS * 2 : false),
  });
  const review = useApiQuery({
    queryKey: queryKeys.ppt('review', reviewId),
    queryFn: () => pptApi.get(reviewId!),
    enabled: reviewId !== undefined,
    refetchInterval: (query) => refreshWhile(query.state.data?.status),
  });

  // The list shows each review's status too: once the open one ends, it is read again at once.
  const status = review.data?.status;
  useEffect(() => {
    if (status && !isUnderway(status)) void queries.invalidateQueries({ queryKey: queryKeys.ppt('list') });
  }, [status, queries]);

  const upload = useApiMutation({
    mutationFn: (file: File) => pptApi.upload(file, currentLanguage()),
    onSuccess: async (created) => {
      queries.setQueryData(queryKeys.ppt('review', created.review_id), created);
      await queries.invalidateQueries({ queryKey: queryKeys.ppt('list') });
      navigate(`/ppt/${encodeURIComponent(created.review_id)}`);
    },
  });

  return (
    <div className={`ppt-page${reviewId ? ' ppt-page-detail' : ''}`}>
      <header className="page-head ppt-page-head">
        <h1>{t('title')}</h1>
        <p className="muted">{t('subtitle')}</p>
      </header>
      <div className="ppt-layout">
        <section className="ppt-side" aria-label={t('list.title')}>
          <UploadZone busy={upload.isPending} onFile={(file) => upload.mutate(file)} />
          {upload.error && <ErrorBanner error={upload.error} />}
          <h2 className="ppt-side-title">{t('list.title')}</h2>
          {list.error ? <ErrorBanner error={list.error} /> : list.data ? <ReviewList reviews={list.data.reviews} selectedId={reviewId} /> : <span className="spinner" />}
        </section>
        <section className="ppt-main" aria-label={t('title')}>
          {reviewId && (
            <Link className="link-button ppt-back" to="/ppt">
              <ArrowLeftIcon size={14} />
              {t('review.back')}
            </Link>
          )}
          {!reviewId ? (
            <p className="muted ppt-empty">{t('review.pick')}</p>
          ) : review.error ? (
            review.error.status === 404 ? <p className="muted ppt-empty">{t('review.notFound')}</p> : <ErrorBanner error={review.error} />
          ) : review.data ? (
            <ReviewView review={review.data} />
          ) : (
            <span className="spinner" />
          )}
        </section>
      </div>
    </div>
  );
}

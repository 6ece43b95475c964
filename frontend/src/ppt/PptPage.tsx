import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { ReviewList } from './ReviewList.tsx';
import { ReviewView } from './ReviewView.tsx';
import { UploadZone } from './UploadZone.tsx';
import { useReview, useReviewList, useUploadDeck } from './queries.ts';
import { ArrowLeftIcon } from '../ui/icons.ts';
import './ppt.css';
import '../ui/ui.css';

/** /ppt: upload a deck, the user's reviews, and `/ppt/:reviewId` one review as its slides land. */
export default function PptPage() {
  const { t } = useTranslation('ppt');
  const { reviewId } = useParams();
  const list = useReviewList();
  const review = useReview(reviewId);
  const upload = useUploadDeck();

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

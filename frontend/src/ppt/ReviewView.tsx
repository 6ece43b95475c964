import { useTranslation } from 'react-i18next';
import { isUnderway, type DeckReviewDto } from '@scriptorium/domain/protocol/deckReview';
import { useExportReview } from './queries.ts';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { Menu } from '../ui/Menu.tsx';
import { Tooltip } from '../ui/Tooltip.tsx';
import { ChevronDownIcon, DownloadIcon, InfoIcon, SparklesIcon } from '../ui/icons.ts';
import { SlideCard } from './SlideCard.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import { scoreTone } from './review.ts';

/** A review as it stands: read from the read model, so each slide appears once its result is stored. */
export function ReviewView({ review }: { review: DeckReviewDto }) {
  const { t } = useTranslation('ppt');
  const exporting = useExportReview(review);
  const done = review.reviewed_count + review.failed_count;

  return (
    <div className="ppt-review">
      <header className="ppt-review-head">
        <div className="ppt-review-title">
          <h2 title={review.filename}>{review.filename}</h2>
          <div className="ppt-review-meta">
            <StatusBadge status={review.status} />
            {review.engine && (
              <span className={`badge ${review.engine === 'offline' ? 'badge-warning' : 'badge-primary'}`} data-testid="ppt-engine">
                {review.engine === 'offline' ? <InfoIcon size={12} /> : <SparklesIcon size={12} />}
                {t(`engine.${review.engine}`)}
              </span>
            )}
            <span className="muted">{t('review.progress', { done, total: review.slide_count })}</span>
          </div>
        </div>
        <Menu
          trigger={
            <button type="button" className="button button-secondary button-small" disabled={exporting.isPending || review.status === 'uploaded'}>
              {exporting.isPending ? <span className="spinner spinner-small" /> : <DownloadIcon size={14} />}
              {exporting.isPending ? t('review.exporting') : t('review.export')}
              <ChevronDownIcon size={14} />
            </button>
          }
          items={[
            { label: t('review.markdown'), onSelect: () => exporting.mutate('md') },
            { label: t('review.pdf'), onSelect: () => exporting.mutate('pdf') },
          ]}
        />
      </header>
      {exporting.error && <ErrorBanner error={exporting.error} />}
      {review.engine === 'offline' && (
        <p className="ppt-offline-note" role="note">
          <InfoIcon size={14} />
          {t('engine.offlineNote')}
        </p>
      )}
      {review.error && (
        <div className="banner banner-error" role="alert">
          <div>
            <strong>{t('status.failed')}</strong>
            <p>{review.error.detail}</p>
          </div>
        </div>
      )}
      {isUnderway(review.status) && (
        <div className="ppt-progress" role="progressbar" aria-valuemin={0} aria-valuemax={review.slide_count} aria-valuenow={done} aria-label={t('review.progress', { done, total: review.slide_count })}>
          <span style={{ width: `${review.slide_count ? (done / review.slide_count) * 100 : 0}%` }} />
        </div>
      )}
      {review.score !== null && (
        <section className="ppt-overall" data-testid="ppt-overall">
          <Tooltip label={t('review.score')}>
            <div className={`ppt-score tone-${scoreTone(review.score)}`} aria-label={`${t('review.score')} ${review.score}`}>
              <strong>{review.score}</strong>
              <span>/ 100</span>
            </div>
          </Tooltip>
          <div>
            <h3>{t('review.reasons')}</h3>
            <ul>
              {review.reasons.map((reason, index) => (
                <li key={index}>{reason}</li>
              ))}
            </ul>
          </div>
        </section>
      )}
      <div className="ppt-slides">
        {review.slides.map((slide) => (
          <SlideCard key={slide.n} slide={slide} />
        ))}
      </div>
    </div>
  );
}

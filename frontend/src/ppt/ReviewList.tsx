import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { DeckReviewSummaryDto } from '@scriptorium/domain/protocol/deckReview';
import { useRelativeTime } from '../ui/useRelativeTime.ts';
import { StatusBadge } from './StatusBadge.tsx';
import { scoreTone } from './review.ts';

export function ReviewList({ reviews, selectedId }: { reviews: DeckReviewSummaryDto[]; selectedId: string | undefined }) {
  const { t } = useTranslation('ppt');
  const time = useRelativeTime();
  if (reviews.length === 0) return <p className="muted ppt-empty">{t('list.empty')}</p>;
  return (
    <ul className="ppt-reviews">
      {reviews.map((review) => (
        <li key={review.review_id}>
          <Link to={`/ppt/${encodeURIComponent(review.review_id)}`} className={`ppt-review-link${review.review_id === selectedId ? ' active' : ''}`} aria-current={review.review_id === selectedId ? 'page' : undefined}>
            <span className="ppt-review-name" title={review.filename}>
              {review.filename}
            </span>
            <span className="ppt-review-meta">
              <StatusBadge status={review.status} />
              <span>{t('list.slides', { count: review.slide_count })}</span>
              <span>· {time(review.created_at)}</span>
            </span>
            {review.score !== null && <span className={`ppt-score-pill tone-${scoreTone(review.score)}`}>{review.score}</span>}
          </Link>
        </li>
      ))}
    </ul>
  );
}

import { useTranslation } from 'react-i18next';
import type { DeckReviewStatus } from '@scriptorium/domain/protocol/deckReview';

const CLASS: Record<DeckReviewStatus, string> = { uploaded: 'badge-muted', reviewing: 'badge-primary', completed: 'badge-success', failed: 'ppt-badge-failed' };

export function StatusBadge({ status }: { status: DeckReviewStatus }) {
  const { t } = useTranslation('ppt');
  return <span className={`badge ${CLASS[status]}`}>{t(`status.${status}`)}</span>;
}

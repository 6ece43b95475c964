import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { PageLoading, ShareGone } from '../components/PageState.tsx';
import { CognitionArticle } from './CognitionArticle.tsx';
import { displayPath } from './CognitionCard.tsx';
import { isMissing, useCognition } from './queries.ts';
import { ArrowRightIcon, Share2Icon } from '../ui/icons.ts';
import './cognition.css';

/** A shared cognition (/share/cognition/:id), read-only and full-screen, for readers who may have no account. */
export default function SharedCognitionPage() {
  const { t } = useTranslation('cognition');
  const { id = '' } = useParams();
  const loaded = useCognition(id);

  if (loaded.isPending) return <PageLoading />;
  if (loaded.isError && !isMissing(loaded.error)) return <ShareGone status={loaded.error.status} />;
  // The owner can read their own private cognition, but a share link only stands for a public one.
  const cognition = loaded.data?.public ? loaded.data : null;
  if (!cognition) return <ShareGone status={404} title={t('sharePage.notFound')} text={t('sharePage.notFoundText')} />;
  return (
    <div className="cog-share-page">
      <div className="cog-share-banner">
        <span>
          <Share2Icon size={15} />
          {t('sharePage.sharedBy', { owner: cognition.owner })}
        </span>
        <Link to={displayPath(cognition.id)} className="button button-secondary button-small">
          {t('sharePage.openInApp')}
          <ArrowRightIcon size={14} />
        </Link>
      </div>
      <div className="cog-share-sheet">
        <CognitionArticle cognition={cognition} />
      </div>
    </div>
  );
}

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { getCognition, type Cognition } from '../../api/cognition.ts';
import { toApiError, type ApiError } from '../../api/client.ts';
import { PageLoading, ShareGone } from '../../components/PageState.tsx';
import { CognitionArticle } from '../../cognition/CognitionArticle.tsx';
import { displayPath } from '../../cognition/CognitionCard.tsx';
import { ArrowRightIcon, Share2Icon } from '../../ui/icons.ts';
import '../../cognition/cognition.css';

type Loaded = { status: 'loading' } | { status: 'ready'; cognition: Cognition } | { status: 'missing' } | { status: 'failed'; error: ApiError };

/** A shared cognition (/share/cognition/:id), read-only and full-screen, for readers who may have no account. */
export default function ShareCognitionPage() {
  const { t } = useTranslation('cognition');
  const { id = '' } = useParams();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    setLoaded({ status: 'loading' });
    getCognition(id, controller.signal).then(
      (cognition) =>
        // The owner can read their own private cognition, but a share link only stands for a public one.
        setLoaded(cognition.public ? { status: 'ready', cognition } : { status: 'missing' }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const apiError = toApiError(error);
        setLoaded(apiError.status === 404 || apiError.status === 422 ? { status: 'missing' } : { status: 'failed', error: apiError });
      },
    );
    return () => controller.abort();
  }, [id]);

  switch (loaded.status) {
    case 'loading':
      return <PageLoading />;
    case 'missing':
      return <ShareGone status={404} title={t('sharePage.notFound')} text={t('sharePage.notFoundText')} />;
    case 'failed':
      return <ShareGone status={loaded.error.status} />;
    case 'ready':
      return (
        <div className="cog-share-page">
          <div className="cog-share-banner">
            <span>
              <Share2Icon size={15} />
              {t('sharePage.sharedBy', { owner: loaded.cognition.owner })}
            </span>
            <Link to={displayPath(loaded.cognition.id)} className="button button-secondary button-small">
              {t('sharePage.openInApp')}
              <ArrowRightIcon size={14} />
            </Link>
          </div>
          <div className="cog-share-sheet">
            <CognitionArticle cognition={loaded.cognition} />
          </div>
        </div>
      );
  }
}

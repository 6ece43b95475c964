import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { ApiError, toApiError } from '../../api/client.ts';
import { research, type SharedConversationDto } from '../../api/research.ts';
import { Icon } from '../../components/Icon.tsx';
import { PageLoading, PageState } from '../../components/PageState.tsx';
import { ResearchView } from '../../panels/ResearchView.tsx';
import { researchStore, useResearch } from '../../research/store.ts';
import { sharedSessionId } from '../../research/sessions.ts';

type Load = { state: 'loading' } | { state: 'ready'; share: SharedConversationDto; sessionId: string } | { state: 'missing' } | { state: 'failed'; status: number };

/** /share/conversation/:shareId — the research view, read-only, for anyone with the link. */
export default function ShareConversationPage() {
  const { t } = useTranslation();
  const { shareId = '' } = useParams();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const { sessions } = useResearch();

  useEffect(() => {
    let live = true;
    let opened: string | null = null;
    research
      .shared(shareId)
      .then((share) => {
        if (!live) return;
        // The owner may have this session open too; the shared copy must not replace it.
        const sessionId = sharedSessionId(share.share_id);
        const history = { position: share.position ?? 0, messages: share.messages };
        researchStore.openShared({ ...share.session, session_id: sessionId }, history, share.canvas);
        opened = sessionId;
        setLoad({ state: 'ready', share, sessionId });
      })
      .catch((error: unknown) => {
        if (!live) return;
        const failure = toApiError(error);
        setLoad(failure instanceof ApiError && (failure.status === 404 || failure.status === 410) ? { state: 'missing' } : { state: 'failed', status: failure.status });
      });
    return () => {
      live = false;
      if (opened) researchStore.closeShared(opened);
    };
  }, [shareId]);

  if (load.state === 'loading') return <PageLoading />;
  if (load.state === 'missing' || load.state === 'failed') {
    return (
      <PageState
        icon="link"
        tone="danger"
        title={load.state === 'missing' ? t('shared.missingTitle') : t('shared.failedTitle')}
        actions={
          <Link className="button button-primary" to="/research">
            <Icon name="arrowRight" size={16} />
            {t('shared.toResearch')}
          </Link>
        }
      >
        <p>{load.state === 'missing' ? t('shared.missingText') : `${t('shared.loadFailed')} ${load.status || ''}`.trim()}</p>
      </PageState>
    );
  }
  const session = sessions.find((candidate) => candidate.id === load.sessionId) ?? null;
  const { share } = load;
  return (
    <div className="shared-page">
      {share.description && (
        <div className="shared-banner">
          <Icon name="info" size={14} />
          <span>{share.description}</span>
          {share.expires_at && <span className="muted small">· {t('shared.expires', { date: new Date(share.expires_at).toLocaleDateString() })}</span>}
        </div>
      )}
      <ResearchView session={session} signedIn={false} readOnly heading={share.title || session?.title || session?.name} />
    </div>
  );
}

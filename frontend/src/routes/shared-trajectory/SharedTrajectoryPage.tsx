import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { toApiError, type ApiError } from '../../api/client.ts';
import { downloadPath, downloadTrajectory, trajectoriesApi } from '../../api/trajectories.ts';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import { Icon } from '../../components/Icon.tsx';
import { useShared } from '../../components/useShared.ts';
import { PageLoading, ShareGone } from '../../components/PageState.tsx';
import { shortTitle } from '../../trajectories/list.ts';
import { Timeline } from '../../trajectories/Timeline.tsx';
import '../../styles/cli.css';

/** /shared/trajectory/:token: a shared CLI session, read-only, downloadable when its owner allowed it. */
export default function SharedTrajectoryPage() {
  const { t, i18n } = useTranslation('cli');
  const { token = '' } = useParams();
  const shared = useShared(() => trajectoriesApi.shared(token), token);
  const [error, setError] = useState<ApiError | null>(null);


  if (shared === null) return <PageLoading />;
  if (shared === 'missing') {
    return <ShareGone title={t('shared.missingTitle')} text={t('shared.missingText')} action={t('shared.toApp')} />;
  }
  const date = (iso: string) => new Intl.DateTimeFormat(i18n.language === 'en' ? 'en' : 'zh-CN', { dateStyle: 'medium' }).format(new Date(iso));
  return (
    <article className="cli-shared">
      <header>
        <span className="chip">
          <Icon name="terminal" size={12} />
          {t('shared.badge')}
        </span>
        <h1 title={shared.title}>{shortTitle(shared.title)}</h1>
        <p className="muted">
          {[shared.metadata.project_name, t('panel.events', { count: shared.trajectory_count }), shared.expires_at ? t('shared.expires', { date: date(shared.expires_at) }) : null].filter(Boolean).join(' · ')}
        </p>
        {shared.share_settings.allow_download && (
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => downloadTrajectory(downloadPath.shared(token), shared.filename).catch((failure: unknown) => setError(toApiError(failure)))}
          >
            <Icon name="download" size={14} />
            {t('detail.download')}
          </button>
        )}
      </header>
      {error && <ErrorBanner error={error} />}
      <Timeline events={shared.events} />
    </article>
  );
}

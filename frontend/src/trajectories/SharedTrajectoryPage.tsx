import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { downloadPath } from './api.ts';
import { useDownloadTrajectory, useSharedTrajectory } from './queries.ts';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { PageLoading, ShareGone } from '../components/PageState.tsx';
import { shortTitle } from './list.ts';
import { Timeline } from './Timeline.tsx';
import './cli.css';
import { DownloadIcon, TerminalIcon } from '../ui/icons.ts';
import { intlLocale } from '../i18n/language.ts';

/** /shared/trajectory/:token: a shared CLI session, read-only, downloadable when its owner allowed it. */
export default function SharedTrajectoryPage() {
  const { t, i18n } = useTranslation('cli');
  const { token = '' } = useParams();
  const query = useSharedTrajectory(token);
  const downloading = useDownloadTrajectory();

  if (query.isPending) return <PageLoading />;
  if (query.isError) {
    return <ShareGone status={query.error.status} />;
  }
  const shared = query.data;
  const date = (iso: string) => new Intl.DateTimeFormat(intlLocale(i18n.language), { dateStyle: 'medium' }).format(new Date(iso));
  return (
    <article className="cli-shared">
      <header>
        <span className="chip">
          <TerminalIcon size={12} />
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
            onClick={() => downloading.mutate({ path: downloadPath.shared(token), fallbackName: shared.filename })}
          >
            <DownloadIcon size={14} />
            {t('detail.download')}
          </button>
        )}
      </header>
      {downloading.error && <ErrorBanner error={downloading.error} />}
      <Timeline events={shared.events} />
    </article>
  );
}

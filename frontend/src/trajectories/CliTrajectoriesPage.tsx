import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { downloadPath, type TrajectoryFile } from './api.ts';
import { useRelativeTime } from '../ui/useRelativeTime.ts';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { filterFiles, shortTitle } from './list.ts';
import { useDownloadTrajectory, useRemoveTrajectory, useSetFavorite, useTrajectory, useTrajectoryList } from './queries.ts';
import { ShareTrajectoryButton, TrajectorySharesSection } from './ShareTrajectoryDialog.tsx';
import { Timeline } from './Timeline.tsx';
import './cli.css';
import { ArrowLeftIcon, DownloadIcon, TerminalIcon } from '../ui/icons.ts';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import '../ui/listDetail.css';
import '../ui/ui.css';

/** /cli/trajectories: the user's recorded CLI sessions; `?file_id=` selects one. */
export default function CliTrajectoriesPage() {
  const { t } = useTranslation('cli');
  const time = useRelativeTime();
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('file_id');
  const list = useTrajectoryList();
  const files = list.data?.files ?? null;
  const [query, setQuery] = useState('');
  const [favoritesOnly, setFavoritesOnly] = useState(false);
  const shownFile = useTrajectory(selectedId);
  const detail = shownFile.data ?? null;
  const [deleting, setDeleting] = useState<TrajectoryFile | null>(null);
  const favorite = useSetFavorite();
  const removal = useRemoveTrajectory();
  const downloading = useDownloadTrajectory();
  const error = list.error ?? shownFile.error ?? favorite.error ?? removal.error ?? downloading.error;

  const select = (id: string | null) => setParams(id ? { file_id: id } : {}, { replace: false });
  const setFavorite = (file: TrajectoryFile) => favorite.mutate({ fileId: file.file_id, favorite: !file.favorite });
  const remove = async (file: TrajectoryFile) => {
    await removal.mutateAsync(file.file_id).then(
      () => select(null),
      () => undefined,
    );
  };
  const download = (file: TrajectoryFile) => downloading.mutate({ path: downloadPath.own(file.file_id), fallbackName: file.filename });

  const shown = files ? filterFiles(files, { favoritesOnly, query }) : [];
  const current = files?.find((file) => file.file_id === selectedId) ?? null;

  return (
    <div className="cli-page">
      <header className="cli-page-head page-head">
        <h1>{t('list.title')}</h1>
        <p className="muted">{t('list.subtitle')}</p>
      </header>
      {error && <ErrorBanner error={error} />}
      {selectedId && (
        <Link to="/cli/trajectories" className="list-detail-back">
          <ArrowLeftIcon size={14} />
          {t('list.title')}
        </Link>
      )}
      <div className={`cli-layout${selectedId ? ' has-selection' : ''}`}>
        <section className="cli-list-pane" aria-label={t('list.title')}>
          <div className="cli-list-tools">
            <input className="input" type="search" value={query} placeholder={t('list.search')} aria-label={t('list.search')} onChange={(event) => setQuery(event.target.value)} />
            <label className="cli-fav-filter">
              <input type="checkbox" checked={favoritesOnly} onChange={(event) => setFavoritesOnly(event.target.checked)} />
              {t('list.favorites')}
            </label>
          </div>
          {files === null ? (
            !error && <span className="spinner" />
          ) : files.length === 0 ? (
            <div className="cli-empty">
              <TerminalIcon size={24} />
              <p>{t('list.empty')}</p>
              <p className="muted">{t('list.emptyHint')}</p>
            </div>
          ) : shown.length === 0 ? (
            <p className="muted cli-empty">{t('list.noMatch')}</p>
          ) : (
            <ul className="cli-files">
              {shown.map((file) => (
                <li key={file.file_id} className={file.file_id === selectedId ? 'active' : undefined}>
                  <button type="button" className="cli-file" onClick={() => select(file.file_id)} aria-current={file.file_id === selectedId}>
                    <span className="cli-file-title" title={file.title}>
                      {shortTitle(file.title)}
                    </span>
                    <span className="cli-file-meta">
                      {file.metadata.project_name && <span className="chip chip-small">{file.metadata.project_name}</span>}
                      {file.active && <span className="badge badge-primary">{t('list.activeBadge')}</span>}
                      <span>{time(file.updated_at)}</span>
                      <span>· {t('panel.events', { count: file.trajectory_count })}</span>
                    </span>
                    {file.preview_data.length > 1 && <span className="cli-file-preview">{file.preview_data.slice(1, 3).map((item) => item.query).join(' · ')}</span>}
                  </button>
                  <button
                    type="button"
                    className={`icon-button cli-star${file.favorite ? ' on' : ''}`}
                    aria-pressed={file.favorite}
                    aria-label={file.favorite ? t('list.unfavorite') : t('list.favorite')}
                    title={file.favorite ? t('list.unfavorite') : t('list.favorite')}
                    onClick={() => setFavorite(file)}
                  >
                    {file.favorite ? '★' : '☆'}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="cli-detail-pane">
          {!selectedId ? (
            <p className="muted cli-empty">{t('list.pick')}</p>
          ) : !detail ? (
            <span className="spinner" />
          ) : (
            <article className="cli-detail">
              <header>
                <h2 title={detail.title}>{shortTitle(detail.title)}</h2>
                <div className="cli-detail-actions">
                  <button type="button" className="button button-secondary button-small" onClick={() => download(detail)}>
                    <DownloadIcon size={14} />
                    {t('detail.download')}
                  </button>
                  <ShareTrajectoryButton fileId={detail.file_id} />
                  <button type="button" className="button button-secondary button-small danger" onClick={() => setDeleting(current ?? detail)}>
                    {t('detail.delete')}
                  </button>
                </div>
              </header>
              <dl className="cli-meta">
                <div>
                  <dt>{t('detail.project')}</dt>
                  <dd>{detail.metadata.project_name || '—'}</dd>
                </div>
                <div>
                  <dt>{t('detail.file')}</dt>
                  <dd>{detail.filename}</dd>
                </div>
                <div>
                  <dt>{t('detail.events')}</dt>
                  <dd>{detail.trajectory_count}</dd>
                </div>
                <div>
                  <dt>{t('detail.updated')}</dt>
                  <dd>{time(detail.updated_at)}</dd>
                </div>
              </dl>
              <TrajectorySharesSection fileId={detail.file_id} />
              <Timeline events={detail.events} />
            </article>
          )}
        </section>
      </div>
      {deleting && <ConfirmDialog title={t('detail.deleteTitle')} text={t('detail.deleteText')} confirmLabel={t('detail.delete')} onConfirm={() => remove(deleting)} onClose={() => setDeleting(null)} />}
    </div>
  );
}

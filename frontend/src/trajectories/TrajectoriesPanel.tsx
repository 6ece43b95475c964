import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useAuth } from '../app/auth/index.ts';
import { useRelativeTime } from '../ui/useRelativeTime.ts';
import { recentFiles, shortTitle } from './list.ts';
import { useTrajectoryList } from './queries.ts';
import './cli.css';
import { TerminalIcon } from '../ui/icons.ts';

/** The CLI sub-panel (spec 02 §2): totals, active sessions and the three most recent trajectories. */
export function TrajectoriesPanel() {
  const { t } = useTranslation('cli');
  const auth = useAuth();
  const time = useRelativeTime();
  const signedIn = auth.status === 'authenticated';
  // The page's favourites and deletes update this through the shared cache; a failed read shows as empty.
  const list = useTrajectoryList(signedIn);
  const data = list.data ? { files: list.data.files, total: list.data.total, active: list.data.active_sessions } : list.isError ? { files: [], total: 0, active: 0 } : null;

  if (auth.status === 'pending') return <span className="spinner spinner-small" />;
  if (!signedIn) {
    return (
      <div className="cli-panel">
        <p className="muted">{t('panel.signIn')}</p>
        <Link className="button button-primary button-small" to={`/login?redirect=${encodeURIComponent('/cli/trajectories')}`}>
          {t('panel.login')}
        </Link>
      </div>
    );
  }
  if (!data) return <span className="spinner spinner-small" />;
  return (
    <div className="cli-panel">
      <div className="cli-panel-stats">
        <div>
          <strong>{data.total}</strong>
          <span>{t('panel.total')}</span>
        </div>
        <div>
          <strong>{data.active}</strong>
          <span>{t('panel.active')}</span>
        </div>
      </div>
      <h3>{t('panel.recent')}</h3>
      {data.files.length === 0 ? (
        <p className="muted cli-panel-empty">{t('panel.empty')}</p>
      ) : (
        <ul className="cli-recent">
          {recentFiles(data.files).map((file) => (
            <li key={file.file_id}>
              <Link to={`/cli/trajectories?file_id=${encodeURIComponent(file.file_id)}`} title={file.title}>
                <TerminalIcon size={14} />
                <span className="cli-recent-title">{shortTitle(file.title)}</span>
                <span className="cli-recent-meta">
                  {time(file.updated_at)} · {t('panel.events', { count: file.trajectory_count })}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Link className="link-button" to="/cli/trajectories">
        {t('panel.all')}
      </Link>
    </div>
  );
}

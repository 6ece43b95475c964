import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useLeaderboard } from './queries.ts';
import { useRelativeTime } from '../ui/useRelativeTime.ts';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { CliHero } from './CliHero.tsx';
import './cli.css';
import '../ui/ui.css';

/** /cli-leaderboard: public ranking of command-line assistant use. */
export default function CliLeaderboardPage() {
  const { t } = useTranslation('cli');
  const time = useRelativeTime();
  const leaderboard = useLeaderboard();
  const board = leaderboard.data ?? null;
  const error = leaderboard.error;

  return (
    <div className="cli-landing">
      <CliHero title={t('leaderboard.title')} subtitle={t('leaderboard.subtitle')} />
      {error && <ErrorBanner error={error} />}
      <section className="surface-card cli-card">
        {!board ? (
          !error && <span className="spinner" />
        ) : board.leaders.length === 0 ? (
          <p className="muted">{t('leaderboard.empty')}</p>
        ) : (
          <>
            <table className="cli-table cli-leaders">
              <thead>
                <tr>
                  <th>{t('leaderboard.rank')}</th>
                  <th>{t('leaderboard.user')}</th>
                  <th>{t('leaderboard.sessions')}</th>
                  <th>{t('leaderboard.events')}</th>
                  <th>{t('leaderboard.lastActive')}</th>
                </tr>
              </thead>
              <tbody>
                {board.leaders.map((leader) => (
                  <tr key={leader.rank}>
                    <td>
                      <span className={`cli-rank rank-${Math.min(leader.rank, 4)}`}>{leader.rank}</span>
                    </td>
                    <td>{leader.username}</td>
                    <td>{leader.sessions}</td>
                    <td>{leader.events}</td>
                    <td className="muted">{time(leader.last_active)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p className="muted small">{t('leaderboard.users', { count: board.total_users })}</p>
          </>
        )}
      </section>
      <Link className="button button-secondary" to="/cli">
        {t('leaderboard.start')}
      </Link>
    </div>
  );
}

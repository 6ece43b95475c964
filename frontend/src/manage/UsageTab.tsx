import { useState } from 'react';
import { queryKeys, useApiQuery } from '../api/query.ts';
import { useTranslation } from 'react-i18next';
import { adminApi } from './api.ts';
import { BarChart } from './BarChart.tsx';
import { Pager, TableState, useDateFormat, useNumberFormat } from './shared.tsx';
import { LevelBadge } from './UsersTab.tsx';

const PAGE_SIZE = 20;
// The spec's page of session token usage.
const SESSION_PAGE = 100;
const CHART_USERS = 10;

export function UsageTab() {
  const { t } = useTranslation('account');
  const number = useNumberFormat();
  const date = useDateFormat();
  const [view, setView] = useState<'users' | 'sessions'>('users');
  const [skip, setSkip] = useState(0);
  const [sessionSkip, setSessionSkip] = useState(0);
  const overview = useApiQuery({ queryKey: queryKeys.manage('overview', String(skip)), queryFn: () => adminApi.tokenOverview(skip, PAGE_SIZE) });
  const tokens = useApiQuery({ queryKey: queryKeys.manage('tokens', 'top'), queryFn: () => adminApi.allTokenUsage(0, CHART_USERS) });
  const sessions = useApiQuery({ queryKey: queryKeys.manage('sessions', `${view}:${sessionSkip}`), queryFn: () => (view === 'sessions' ? adminApi.sessionsTokenUsage(sessionSkip, SESSION_PAGE) : Promise.resolve(null)) });
  const top = (tokens.data?.users ?? []).map((user) => ({ label: user.username ?? user.user_id.slice(0, 8), value: user.total_tokens }));
  const rows = overview.data?.users ?? [];
  const sessionRows = sessions.data?.sessions ?? [];

  return (
    <div className="manage-panel">
      <div className="stat-cards">
        <div className="stat-card">
          <span>{t('manage.usage.users')}</span>
          <strong>{number(overview.data?.total)}</strong>
        </div>
        <div className="stat-card">
          <span>{t('manage.usage.todayTotal')}</span>
          <strong>{number(overview.data?.page_today_usage)}</strong>
        </div>
        <div className="stat-card">
          <span>{t('manage.usage.allTotal')}</span>
          <strong>{number(overview.data?.page_all_usage)}</strong>
        </div>
      </div>

      <section className="chart-card">
        <h3>{t('manage.usage.chartTitle', { count: CHART_USERS })}</h3>
        {top.some((point) => point.value > 0) ? <BarChart points={top} label={t('manage.usage.chartTitle', { count: CHART_USERS })} format={number} /> : <p className="muted table-message">{tokens.isFetching ? t('manage.common.loading') : t('manage.usage.chartEmpty')}</p>}
      </section>

      <div className="manage-toolbar">
        <div className="segmented" role="group" aria-label={t('manage.usage.overview')}>
          <button type="button" className={view === 'users' ? 'active' : undefined} aria-pressed={view === 'users'} onClick={() => setView('users')}>
            {t('manage.usage.perUser')}
          </button>
          <button type="button" className={view === 'sessions' ? 'active' : undefined} aria-pressed={view === 'sessions'} onClick={() => setView('sessions')}>
            {t('manage.usage.perSession')}
          </button>
        </div>
      </div>

      {view === 'users' ? (
        <>
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th>{t('manage.usage.columns.user')}</th>
                  <th>{t('manage.usage.columns.level')}</th>
                  <th className="num">{t('manage.usage.columns.today')}</th>
                  <th className="num">{t('manage.usage.columns.all')}</th>
                  <th className="num">{t('manage.usage.columns.remaining')}</th>
                </tr>
              </thead>
              <tbody>
                <TableState loading={overview.isFetching} empty={rows.length === 0} error={overview.error} columns={5} />
                {rows.map((row) => (
                  <tr key={row.id}>
                    <td data-label={t('manage.usage.columns.user')}>
                      <div className="user-cell-name">{row.username}</div>
                      <div className="user-cell-email">{row.email}</div>
                    </td>
                    <td data-label={t('manage.usage.columns.level')}>
                      <LevelBadge level={row.user_level} />
                    </td>
                    <td data-label={t('manage.usage.columns.today')} className="num">{number(row.today_usage)}</td>
                    <td data-label={t('manage.usage.columns.all')} className="num">{number(row.all_usage)}</td>
                    <td data-label={t('manage.usage.columns.remaining')} className="num">{number(row.token_remaining)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {overview.data && <Pager total={overview.data.total} skip={skip} limit={PAGE_SIZE} onSkip={setSkip} />}
        </>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th>{t('manage.usage.columns.session')}</th>
                  <th>{t('manage.usage.columns.user')}</th>
                  <th className="num">{t('manage.usage.columns.prompt')}</th>
                  <th className="num">{t('manage.usage.columns.completion')}</th>
                  <th className="num">{t('manage.usage.columns.tokens')}</th>
                  <th className="num">{t('manage.usage.columns.calls')}</th>
                  <th>{t('manage.usage.columns.updated')}</th>
                </tr>
              </thead>
              <tbody>
                <TableState loading={sessions.isFetching} empty={sessionRows.length === 0} error={sessions.error} columns={7} />
                {sessionRows.map((session) => (
                  <tr key={session.session_id}>
                    <td data-label={t('manage.usage.columns.session')}>
                      <div className="user-cell-name">{session.title || t('manage.usage.untitled')}</div>
                      <div className="user-cell-email mono">{session.session_id}</div>
                    </td>
                    <td data-label={t('manage.usage.columns.user')}>{session.username ?? session.user_id.slice(0, 8)}</td>
                    <td data-label={t('manage.usage.columns.prompt')} className="num">{number(session.prompt_tokens)}</td>
                    <td data-label={t('manage.usage.columns.completion')} className="num">{number(session.completion_tokens)}</td>
                    <td data-label={t('manage.usage.columns.tokens')} className="num strong">{number(session.total_tokens)}</td>
                    <td data-label={t('manage.usage.columns.calls')} className="num">{number(session.calls)}</td>
                    <td data-label={t('manage.usage.columns.updated')}>{date(session.updated_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {sessions.data && <Pager total={sessions.data.total} skip={sessionSkip} limit={SESSION_PAGE} onSkip={setSessionSkip} />}
        </>
      )}
    </div>
  );
}

import type { Dashboard } from '@scriptorium/domain/protocol/http/admin';
import { useTranslation } from 'react-i18next';
import { queryKeys, useApiQuery } from '../api/query.ts';
import { api } from '../api/client.ts';
import { BarChart } from './BarChart.tsx';
import { TableState, useDateFormat, useNumberFormat } from './shared.tsx';
import '../account/account.css';
import './manage.css';
import { RefreshCwIcon } from '../ui/icons.ts';

/** /admin/dashboard: the whole product in numbers, for administrators (the server refuses anyone else). */
export default function AdminDashboardPage() {
  const { t } = useTranslation('account');
  const number = useNumberFormat();
  const date = useDateFormat();
  const load = useApiQuery({ queryKey: queryKeys.manage('dashboard'), queryFn: () => api.get<Dashboard>('/auth/admin/dashboard') });
  const data = load.data;
  const cards: Array<[string, number | undefined]> = data
    ? [
        [t('dashboard.users'), data.users.total],
        [t('dashboard.active'), data.users.active],
        [t('dashboard.verified'), data.users.verified],
        [t('dashboard.new24h'), data.users.new_24h],
        [t('dashboard.new7d'), data.users.new_7d],
        [t('dashboard.conversations'), data.conversations.total],
        [t('dashboard.conversationsNew'), data.conversations.new_7d],
        [t('dashboard.shared'), data.conversations.shared],
        [t('dashboard.notes'), data.content.notes],
        [t('dashboard.cognitions'), data.content.cognitions],
        [t('dashboard.publicCognitions'), data.content.public_cognitions],
        [t('dashboard.trajectories'), data.content.trajectories],
        [t('dashboard.visitorsToday'), data.activity.visitors_today],
        [t('dashboard.pageViewsToday'), data.activity.page_views_today],
        [t('dashboard.tokensToday'), data.tokens.today],
        [t('dashboard.tokens7d'), data.tokens.last_7d],
      ]
    : [];
  const points = (data?.tokens.series ?? []).map((row) => ({ label: row.day.slice(5), value: row.total_tokens }));

  return (
    <div className="manage">
      <header className="manage-head">
        <div>
          <h1>{t('dashboard.title')}</h1>
          <p className="muted">
            {t('dashboard.subtitle')}
            {data && ` ${t('dashboard.generatedAt', { time: date(data.generated_at) })}`}
          </p>
        </div>
        <button type="button" className="button button-secondary button-small" onClick={() => void load.refetch()} disabled={load.isFetching}>
          <RefreshCwIcon size={14} />
          {t('dashboard.refresh')}
        </button>
      </header>
      <div className="manage-body">
        {!data ? (
          <table className="data-table">
            <tbody>
              <TableState loading={load.isFetching} empty error={load.error} columns={1} />
            </tbody>
          </table>
        ) : (
          <div className="manage-panel">
            <div className="stat-cards dashboard-cards">
              {cards.map(([label, value]) => (
                <div key={label} className="stat-card">
                  <span>{label}</span>
                  <strong>{number(value)}</strong>
                </div>
              ))}
            </div>
            <section className="chart-card">
              <h3>{t('dashboard.chartTitle')}</h3>
              {points.some((point) => point.value > 0) ? <BarChart points={points} label={t('dashboard.chartTitle')} format={number} /> : <p className="muted table-message">{t('dashboard.chartEmpty')}</p>}
            </section>
          </div>
        )}
      </div>
    </div>
  );
}

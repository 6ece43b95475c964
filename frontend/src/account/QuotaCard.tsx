import { useTranslation } from 'react-i18next';
import type { TokenInfo } from './api.ts';
import { formatAmount, groupOf, quotaView, refreshText } from './quota.ts';
import { readDate } from '../ui/relativeTime.ts';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ApiError } from '../api/client.ts';
import { ChartColumnIcon, GaugeIcon } from '../ui/icons.ts';
import { intlLocale } from '../i18n/language.ts';
import { AccountCardHead } from './AccountCardHead.tsx';


function CardSkeleton({ lines }: { lines: number }) {
  return (
    <div className="skeleton-stack" aria-hidden="true">
      {Array.from({ length: lines }, (_, index) => (
        <span key={index} className="skeleton" />
      ))}
    </div>
  );
}

export function QuotaCard({ info }: { info: UseQueryResult<TokenInfo, ApiError> }) {
  const { t } = useTranslation('account');
  return (
    <section className="account-card">
      <AccountCardHead icon={<GaugeIcon />} title={t('quota.title')}>
        <span className="account-card-note">{t('quota.refreshes')}</span>
      </AccountCardHead>
      {info.status === 'pending' && <CardSkeleton lines={2} />}
      {info.status === 'error' && <p className="account-empty">{t('usage.empty')}</p>}
      {info.status === 'success' && <QuotaBody info={info.data} />}
    </section>
  );
}

function QuotaBody({ info }: { info: TokenInfo }) {
  const { t, i18n } = useTranslation('account');
  const amount = (value: number) => formatAmount(value, intlLocale(i18n.language));
  const view = quotaView(info);
  const percent = Math.round(view.percent);
  const high = percent >= 90 ? ' quota-high' : '';
  return (
    <>
      <div className="quota-figures">
        <span className="quota-used">{t('quota.used', { used: amount(view.todayUsage), limit: amount(view.dailyLimit) })}</span>
        <span className={`quota-percent${high}`}>{t('quota.percent', { percent })}</span>
      </div>
      <div className="quota-bar" role="progressbar" aria-label={t('quota.barLabel')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
        <span className={`quota-fill${high}`} style={{ width: `${view.percent}%` }} />
      </div>
      <dl className="quota-facts">
        <div>
          <dt>{t('quota.dailyLimit')}</dt>
          <dd>{amount(view.dailyLimit)}</dd>
        </div>
        <div>
          <dt>{t('quota.todayUsage')}</dt>
          <dd>{amount(view.todayUsage)}</dd>
        </div>
        {view.showExtra && (
          <>
            <div>
              <dt>{t('quota.extraBudget')}</dt>
              <dd>{amount(view.extraBudget)}</dd>
            </div>
            <div>
              <dt>{t('quota.totalAvailable')}</dt>
              <dd>{amount(view.totalAvailable)}</dd>
            </div>
          </>
        )}
      </dl>
    </>
  );
}

export function UsageStats({ info }: { info: UseQueryResult<TokenInfo, ApiError> }) {
  const { t, i18n } = useTranslation('account');
  const locale = intlLocale(i18n.language);
  const dateText = (value: string | undefined, timeZone: string | undefined) => {
    const read = readDate(value);
    if (read.kind === 'unknown') return t('usage.unknown');
    if (read.kind === 'invalid') return t('usage.invalidDate');
    return refreshText(read.date, timeZone, locale);
  };
  return (
    <section className="account-card">
      <AccountCardHead icon={<ChartColumnIcon />} title={t('usage.title')} />
      {info.status === 'pending' && <CardSkeleton lines={2} />}
      {info.status === 'error' && (
        <div className="account-empty">
          <ChartColumnIcon size={22} />
          <span>{t('usage.empty')}</span>
        </div>
      )}
      {info.status === 'success' && (
        <dl className="usage-grid">
          <div>
            <dt>{t('usage.userLevel')}</dt>
            <dd>{t(`group.${groupOf(info.data.user_level)}`)}</dd>
          </div>
          <div>
            <dt>{t('usage.todayUsage')}</dt>
            <dd>{formatAmount(info.data.today_usage ?? 0, locale)}</dd>
          </div>
          <div>
            <dt>{t('usage.allUsage')}</dt>
            <dd>{formatAmount(info.data.all_usage ?? 0, locale)}</dd>
          </div>
          <div>
            <dt>{t('usage.lastRefresh')}</dt>
            <dd>{dateText(info.data.last_refresh_date, info.data.time_zone)}</dd>
          </div>
        </dl>
      )}
    </section>
  );
}

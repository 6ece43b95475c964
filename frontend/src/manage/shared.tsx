import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../api/client.ts';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { pageInfo } from './model.ts';
import { CheckIcon, CircleAlertIcon, XIcon } from '../ui/icons.ts';
import { intlLocale } from '../i18n/language.ts';

/** A read model of the console, as the query client holds it. */
export type Load<T> = UseQueryResult<T, ApiError>;

export function Pager({ total, skip, limit, onSkip }: { total: number; skip: number; limit: number; onSkip: (skip: number) => void }) {
  const { t } = useTranslation('account');
  const info = pageInfo(total, skip, limit);
  return (
    <nav className="pager" aria-label={t('manage.common.page', { page: info.page, pages: info.pages, total })}>
      <span className="pager-text">{t('manage.common.page', { page: info.page, pages: info.pages, total })}</span>
      <button className="button button-secondary button-small" type="button" disabled={!info.hasPrev} onClick={() => onSkip(Math.max(0, skip - limit))}>
        {t('manage.common.prev')}
      </button>
      <button className="button button-secondary button-small" type="button" disabled={!info.hasNext} onClick={() => onSkip(skip + limit)}>
        {t('manage.common.next')}
      </button>
    </nav>
  );
}

export type NoticeState = { kind: 'success' | 'warning'; text: string } | { kind: 'error'; error: ApiError } | null;

export function Notice({ notice, onDismiss }: { notice: NoticeState; onDismiss: () => void }) {
  const { t } = useTranslation('account');
  if (!notice) return null;
  if (notice.kind === 'error')
    return (
      <div className="manage-notice">
        <ErrorBanner error={notice.error} />
        <button className="icon-button" type="button" onClick={onDismiss} aria-label={t('manage.common.close')}>
          <XIcon size={16} />
        </button>
      </div>
    );
  return (
    <div className="manage-notice">
      <p className={`account-notice account-notice-${notice.kind === 'success' ? 'success' : 'error'}`} role="status">
        {notice.kind === 'success' ? <CheckIcon size={15} /> : <CircleAlertIcon size={15} />}
        {notice.text}
      </p>
      <button className="icon-button" type="button" onClick={onDismiss} aria-label={t('manage.common.close')}>
        <XIcon size={16} />
      </button>
    </div>
  );
}

export function TableState({ loading, empty, error, columns, children }: { loading: boolean; empty: boolean; error: ApiError | null; columns: number; children?: ReactNode }) {
  const { t } = useTranslation('account');
  if (error && empty)
    return (
      <tr>
        <td colSpan={columns}>
          <ErrorBanner error={error} />
        </td>
      </tr>
    );
  if (loading && empty)
    return (
      <tr>
        <td colSpan={columns} className="table-message">
          <span className="spinner" aria-hidden="true" /> {t('manage.common.loading')}
        </td>
      </tr>
    );
  if (empty)
    return (
      <tr>
        <td colSpan={columns} className="table-message">
          {children ?? t('manage.common.empty')}
        </td>
      </tr>
    );
  return null;
}

export function useDateFormat() {
  const { t, i18n } = useTranslation('account');
  const format = new Intl.DateTimeFormat(intlLocale(i18n.language), { dateStyle: 'medium', timeStyle: 'short' });
  return (value: string | null | undefined) => {
    if (!value) return t('manage.common.never');
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? t('usage.invalidDate') : format.format(date);
  };
}

export function useNumberFormat() {
  const { i18n } = useTranslation();
  const format = new Intl.NumberFormat(intlLocale(i18n.language), { maximumFractionDigits: 2 });
  return (value: number | null | undefined) => format.format(value ?? 0);
}

import { useState, type FormEvent } from 'react';
import { queryKeys, useApiMutation, useApiQuery } from '../api/query.ts';
import { useTranslation } from 'react-i18next';
import { groupOf } from '../account/quota.ts';
import { useAuth } from '../app/auth/index.ts';
import { initials } from '../app/shell/navigation.ts';
import { adminApi, LEVEL_DAILY_LIMITS, LEVELS, type DailyLimitChoice, type Level, type UserRow } from './api.ts';
import { fromLocalInput, parseNumber, toggle, togglePage } from './model.ts';
import { Notice, Pager, TableState, useDateFormat, useNumberFormat, type NoticeState } from './shared.tsx';
import { UserEditor } from './UserEditor.tsx';
import { CheckIcon, RefreshCwIcon, SearchIcon, SquarePenIcon } from '../ui/icons.ts';
import { Select } from '../ui/Select.tsx';

const PAGE_SIZE = 20;

type BatchAction = 'limit' | 'extra' | 'level' | 'refresh' | 'activate' | 'deactivate';
const BATCH_ACTIONS: readonly BatchAction[] = ['limit', 'extra', 'level', 'refresh', 'activate', 'deactivate'];

export function LevelBadge({ level }: { level: string }) {
  const { t } = useTranslation('account');
  const group = groupOf(level);
  return <span className={`account-group account-group-${group}`}>{t(`group.${group}`)}</span>;
}

function Switch({ checked, disabled, label, onChange }: { checked: boolean; disabled: boolean; label: string; onChange: () => void }) {
  return (
    <label className="switch" title={label}>
      <input type="checkbox" checked={checked} disabled={disabled} onChange={onChange} aria-label={label} />
      <span className="switch-track" aria-hidden="true" />
    </label>
  );
}

export function UsersTab() {
  const { t } = useTranslation('account');
  const { user: me } = useAuth();
  const date = useDateFormat();
  const number = useNumberFormat();
  const [searchText, setSearchText] = useState('');
  const [filters, setFilters] = useState<{ search: string; level: Level | ''; active: '' | 'true' | 'false' }>({ search: '', level: '', active: '' });
  const [skip, setSkip] = useState(0);
  const [selection, setSelection] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState<UserRow | null>(null);
  const [notice, setNotice] = useState<NoticeState>(null);
  const [batch, setBatch] = useState<{ action: BatchAction; value: string; level: Level; expiry: string; dailyLimit: DailyLimitChoice }>({ action: 'limit', value: '', level: 'premium', expiry: '', dailyLimit: 'keep' });

  const users = useApiQuery({
    queryKey: queryKeys.manage('users', skip, filters),
    queryFn: () =>
      adminApi.users({
        skip,
        limit: PAGE_SIZE,
        search: filters.search || undefined,
        level: filters.level || undefined,
        is_active: filters.active || undefined,
      }),
  });
  const rows = users.data?.users ?? [];
  const pageIds = rows.map((row) => row.id);
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selection.has(id));

  function applyFilters(next: Partial<typeof filters>) {
    setFilters((current) => ({ ...current, ...next }));
    setSkip(0);
  }

  const running = useApiMutation({
    mutationFn: ({ action }: { action: () => Promise<unknown>; success: string }) => action(),
    onMutate: () => setNotice(null),
    onSuccess: (_, { success }) => {
      setNotice({ kind: 'success', text: success });
      void users.refetch();
    },
    onError: (error) => setNotice({ kind: 'error', error }),
  });

  /** Settles once the change has; the notice says how it went. */
  function run(action: () => Promise<unknown>, success: string): Promise<void> {
    return running.mutateAsync({ action, success }).then(
      () => undefined,
      () => undefined,
    );
  }

  function runBatch(event: FormEvent) {
    event.preventDefault();
    const ids = [...selection];
    const done = t('manage.users.batch.done', { count: ids.length });
    const amount = parseNumber(batch.value) ?? Number.NaN;
    switch (batch.action) {
      case 'limit':
        return run(() => adminApi.batchTokenLimit(ids, amount), done);
      case 'extra':
        return run(() => adminApi.batchExtraBudget(ids, amount), done);
      case 'level':
        return run(() => adminApi.batchLevel(ids.map((user_id) => ({ user_id, level: batch.level, membership_expires_at: fromLocalInput(batch.expiry), daily_limit: batch.dailyLimit }))), done);
      case 'refresh':
        return run(() => adminApi.batchRefresh(ids), done);
      case 'activate':
      case 'deactivate':
        return run(() => adminApi.batchActive(ids, batch.action === 'activate'), done);
    }
  }

  const needsAmount = batch.action === 'limit' || batch.action === 'extra';

  return (
    <div className="manage-panel">
      <div className="manage-toolbar">
        <form
          className="search-box"
          role="search"
          onSubmit={(event) => {
            event.preventDefault();
            applyFilters({ search: searchText.trim() });
          }}
        >
          <SearchIcon size={16} />
          <input type="search" value={searchText} onChange={(event) => setSearchText(event.target.value)} placeholder={t('manage.users.search')} aria-label={t('manage.users.search')} />
        </form>
        <Select
          value={filters.level}
          onChange={(level) => applyFilters({ level })}
          label={t('manage.users.columns.level')}
          options={[{ value: '' as const, label: t('manage.users.allLevels') }, ...LEVELS.map((level) => ({ value: level, label: t(`group.${level}`) }))]}
        />
        <Select
          value={filters.active}
          onChange={(active) => applyFilters({ active })}
          label={t('manage.users.columns.active')}
          options={[
            { value: '' as const, label: t('manage.users.allStates') },
            { value: 'true' as const, label: t('manage.users.activeOnly') },
            { value: 'false' as const, label: t('manage.users.inactiveOnly') },
          ]}
        />
        <button className="button button-secondary button-small toolbar-end" type="button" onClick={() => void users.refetch()}>
          <RefreshCwIcon size={14} />
          {t('manage.common.refresh')}
        </button>
      </div>

      {selection.size > 0 && (
        <form className="batch-bar" onSubmit={runBatch}>
          <strong>{t('manage.users.selected', { count: selection.size })}</strong>
          <Select
            value={batch.action}
            onChange={(action) => setBatch((current) => ({ ...current, action, value: '' }))}
            label={t('manage.users.columns.actions')}
            options={BATCH_ACTIONS.map((action) => ({ value: action, label: t(`manage.users.batch.${action}`) }))}
          />
          {needsAmount && (
            <input
              className="input input-narrow"
              type="number"
              min={0}
              step="any"
              value={batch.value}
              onChange={(event) => setBatch((current) => ({ ...current, value: event.target.value }))}
              aria-label={t(`manage.users.batch.${batch.action}`)}
              required
            />
          )}
          {batch.action === 'level' && (
            <>
              <Select value={batch.level} onChange={(level) => setBatch((current) => ({ ...current, level }))} label={t('manage.users.editor.level')} options={LEVELS.map((level) => ({ value: level, label: t(`group.${level}`) }))} />
              <input
                className="input"
                type="datetime-local"
                value={batch.expiry}
                onChange={(event) => setBatch((current) => ({ ...current, expiry: event.target.value }))}
                aria-label={t('manage.users.editor.expiry')}
                title={t('manage.users.editor.expiryHint')}
              />
              <Select
                value={batch.dailyLimit}
                onChange={(dailyLimit) => setBatch((current) => ({ ...current, dailyLimit }))}
                label={t('manage.users.batch.dailyLimit')}
                options={[
                  { value: 'keep' as const, label: t('manage.users.batch.keepLimits') },
                  { value: 'level_default' as const, label: t('manage.users.batch.levelDefault', { limit: number(LEVEL_DAILY_LIMITS[batch.level]) }) },
                ]}
              />
            </>
          )}
          <button className="button button-primary button-small" type="submit" disabled={running.isPending}>
            {t('manage.common.apply')}
          </button>
          <button className="button button-secondary button-small toolbar-end" type="button" onClick={() => setSelection(new Set())}>
            {t('manage.users.clearSelection')}
          </button>
        </form>
      )}

      <Notice notice={notice} onDismiss={() => setNotice(null)} />

      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th className="col-check">
                <input type="checkbox" checked={allOnPage} onChange={() => setSelection((current) => togglePage(current, pageIds))} aria-label={t('manage.users.selectAll')} />
              </th>
              <th>{t('manage.users.columns.user')}</th>
              <th>{t('manage.users.columns.level')}</th>
              <th className="num">{t('manage.users.columns.limit')}</th>
              <th className="num">{t('manage.users.columns.today')}</th>
              <th className="num">{t('manage.users.columns.extra')}</th>
              <th>{t('manage.users.columns.expiry')}</th>
              <th>{t('manage.users.columns.auditor')}</th>
              <th>{t('manage.users.columns.active')}</th>
              <th className="col-actions">{t('manage.users.columns.actions')}</th>
            </tr>
          </thead>
          <tbody>
            <TableState loading={users.isFetching} empty={rows.length === 0} error={users.error} columns={10} />
            {rows.map((row) => (
              <tr key={row.id} className={selection.has(row.id) ? 'row-selected' : undefined}>
                <td className="col-check">
                  <input type="checkbox" checked={selection.has(row.id)} onChange={() => setSelection((current) => toggle(current, row.id))} aria-label={t('manage.users.selectUser', { name: row.username })} />
                </td>
                <td data-label={t('manage.users.columns.user')}>
                  <div className="user-cell">
                    <span className="avatar avatar-small" aria-hidden="true">
                      {initials(row.username)}
                    </span>
                    <div>
                      <div className="user-cell-name">
                        {row.username}
                        {row.is_admin && <span className="mini-badge mini-badge-primary">{t('manage.users.adminBadge')}</span>}
                        {row.is_auditor && <span className="mini-badge">{t('manage.users.auditorBadge')}</span>}
                        {row.email_verified && <CheckIcon size={13} className="verified-mark" />}
                      </div>
                      <div className="user-cell-email">{row.email}</div>
                    </div>
                  </div>
                </td>
                <td data-label={t('manage.users.columns.level')}>
                  <LevelBadge level={row.user_level} />
                </td>
                <td data-label={t('manage.users.columns.limit')} className="num strong">{number(row.token_level_limit)}</td>
                <td data-label={t('manage.users.columns.today')} className="num">{number(row.today_usage)}</td>
                <td data-label={t('manage.users.columns.extra')} className="num">{number(row.extra_budget)}</td>
                <td data-label={t('manage.users.columns.expiry')}>{date(row.membership_expires_at)}</td>
                <td data-label={t('manage.users.columns.auditor')}>
                  <Switch
                    checked={row.is_auditor}
                    disabled={running.isPending || row.is_admin}
                    label={t(row.is_auditor ? 'manage.users.revokeAuditor' : 'manage.users.grantAuditor', { name: row.username })}
                    onChange={() => run(() => adminApi.setAuditor(row.id, !row.is_auditor), t('manage.common.saved'))}
                  />
                </td>
                <td data-label={t('manage.users.columns.active')}>
                  <Switch
                    checked={row.is_active}
                    // The server refuses it; an administrator who could lock themselves out would have no one to let them back in.
                    disabled={running.isPending || row.id === me?.id}
                    label={t(row.id === me?.id ? 'manage.users.cannotDeactivateSelf' : row.is_active ? 'manage.users.deactivate' : 'manage.users.activate')}
                    onChange={() => run(() => adminApi.setActive(row.id, !row.is_active), t('manage.common.saved'))}
                  />
                </td>
                <td data-label={t('manage.users.columns.actions')} className="col-actions">
                  <button className="button button-secondary button-small" type="button" onClick={() => setEditing(row)} aria-label={`${t('manage.users.edit')} ${row.username}`}>
                    <SquarePenIcon size={14} />
                    {t('manage.users.edit')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {users.data && <Pager total={users.data.total} skip={skip} limit={PAGE_SIZE} onSkip={setSkip} />}

      {editing && (
        <UserEditor
          user={editing}
          onChanged={() => void users.refetch()}
          onClose={() => setEditing(null)}
        />
      )}
    </div>
  );
}

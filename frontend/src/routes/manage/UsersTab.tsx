import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { groupOf } from '../../account/quota.ts';
import { toApiError } from '../../api/client.ts';
import { initials } from '../../app/shell/navigation.ts';
import { Icon } from '../../components/Icon.tsx';
import { adminApi, LEVELS, type Level, type UserRow } from './api.ts';
import { fromLocalInput, parseNumber, toggle, togglePage } from './model.ts';
import { Notice, Pager, TableState, useDateFormat, useLoad, useNumberFormat, type NoticeState } from './shared.tsx';
import { UserEditor } from './UserEditor.tsx';

const PAGE_SIZE = 20;

type BatchAction = 'limit' | 'extra' | 'level' | 'refresh' | 'activate' | 'deactivate';
const BATCH_ACTIONS: readonly BatchAction[] = ['limit', 'extra', 'level', 'refresh', 'activate', 'deactivate'];

export function LevelBadge({ level }: { level: string }) {
  const { t } = useTranslation('account');
  const group = groupOf(level);
  return <span className={`account-group account-group-${group}`}>{t(`group.${group}`)}</span>;
}

export function UsersTab() {
  const { t } = useTranslation('account');
  const date = useDateFormat();
  const number = useNumberFormat();
  const [searchText, setSearchText] = useState('');
  const [filters, setFilters] = useState<{ search: string; level: Level | ''; active: '' | 'true' | 'false' }>({ search: '', level: '', active: '' });
  const [skip, setSkip] = useState(0);
  const [selection, setSelection] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState<UserRow | null>(null);
  const [notice, setNotice] = useState<NoticeState>(null);
  const [busy, setBusy] = useState(false);
  const [batch, setBatch] = useState<{ action: BatchAction; value: string; level: Level; expiry: string }>({ action: 'limit', value: '', level: 'premium', expiry: '' });

  const users = useLoad(
    () =>
      adminApi.users({
        skip,
        limit: PAGE_SIZE,
        search: filters.search || undefined,
        level: filters.level || undefined,
        is_active: filters.active === '' ? undefined : filters.active === 'true',
      }),
    JSON.stringify({ skip, filters }),
  );
  const rows = users.data?.users ?? [];
  const pageIds = rows.map((row) => row.id);
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selection.has(id));

  function applyFilters(next: Partial<typeof filters>) {
    setFilters((current) => ({ ...current, ...next }));
    setSkip(0);
  }

  async function run(action: () => Promise<unknown>, success: string) {
    setBusy(true);
    setNotice(null);
    try {
      await action();
      setNotice({ kind: 'success', text: success });
      users.reload();
    } catch (error) {
      setNotice({ kind: 'error', error: toApiError(error) });
    } finally {
      setBusy(false);
    }
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
        return run(() => adminApi.batchLevel(ids.map((user_id) => ({ user_id, level: batch.level, membership_expires_at: fromLocalInput(batch.expiry) }))), done);
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
          <Icon name="search" size={16} />
          <input type="search" value={searchText} onChange={(event) => setSearchText(event.target.value)} placeholder={t('manage.users.search')} aria-label={t('manage.users.search')} />
        </form>
        <select className="select" value={filters.level} onChange={(event) => applyFilters({ level: event.target.value as Level | '' })} aria-label={t('manage.users.columns.level')}>
          <option value="">{t('manage.users.allLevels')}</option>
          {LEVELS.map((level) => (
            <option key={level} value={level}>
              {t(`group.${level}`)}
            </option>
          ))}
        </select>
        <select className="select" value={filters.active} onChange={(event) => applyFilters({ active: event.target.value as '' | 'true' | 'false' })} aria-label={t('manage.users.columns.active')}>
          <option value="">{t('manage.users.allStates')}</option>
          <option value="true">{t('manage.users.activeOnly')}</option>
          <option value="false">{t('manage.users.inactiveOnly')}</option>
        </select>
        <button className="button button-secondary button-small toolbar-end" type="button" onClick={users.reload}>
          <Icon name="refresh" size={14} />
          {t('manage.common.refresh')}
        </button>
      </div>

      {selection.size > 0 && (
        <form className="batch-bar" onSubmit={runBatch}>
          <strong>{t('manage.users.selected', { count: selection.size })}</strong>
          <select className="select" value={batch.action} onChange={(event) => setBatch((current) => ({ ...current, action: event.target.value as BatchAction, value: '' }))} aria-label={t('manage.users.columns.actions')}>
            {BATCH_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {t(`manage.users.batch.${action}`)}
              </option>
            ))}
          </select>
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
              <select className="select" value={batch.level} onChange={(event) => setBatch((current) => ({ ...current, level: event.target.value as Level }))} aria-label={t('manage.users.editor.level')}>
                {LEVELS.map((level) => (
                  <option key={level} value={level}>
                    {t(`group.${level}`)}
                  </option>
                ))}
              </select>
              <input
                className="input"
                type="datetime-local"
                value={batch.expiry}
                onChange={(event) => setBatch((current) => ({ ...current, expiry: event.target.value }))}
                aria-label={t('manage.users.editor.expiry')}
                title={t('manage.users.editor.expiryHint')}
              />
            </>
          )}
          <button className="button button-primary button-small" type="submit" disabled={busy}>
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
              <th>{t('manage.users.columns.active')}</th>
              <th className="col-actions">{t('manage.users.columns.actions')}</th>
            </tr>
          </thead>
          <tbody>
            <TableState loading={users.loading} empty={rows.length === 0} error={users.error} columns={9} />
            {rows.map((row) => (
              <tr key={row.id} className={selection.has(row.id) ? 'row-selected' : undefined}>
                <td className="col-check">
                  <input type="checkbox" checked={selection.has(row.id)} onChange={() => setSelection((current) => toggle(current, row.id))} aria-label={t('manage.users.selectUser', { name: row.username })} />
                </td>
                <td>
                  <div className="user-cell">
                    <span className="avatar avatar-small" aria-hidden="true">
                      {initials(row.username)}
                    </span>
                    <div>
                      <div className="user-cell-name">
                        {row.username}
                        {row.is_admin && <span className="mini-badge mini-badge-primary">{t('manage.users.adminBadge')}</span>}
                        {row.email_verified && <Icon name="check" size={13} className="verified-mark" />}
                      </div>
                      <div className="user-cell-email">{row.email}</div>
                    </div>
                  </div>
                </td>
                <td>
                  <LevelBadge level={row.user_level} />
                </td>
                <td className="num strong">{number(row.token_level_limit)}</td>
                <td className="num">{number(row.today_usage)}</td>
                <td className="num">{number(row.extra_budget)}</td>
                <td>{date(row.membership_expires_at)}</td>
                <td>
                  <label className="switch" title={t(row.is_active ? 'manage.users.deactivate' : 'manage.users.activate')}>
                    <input
                      type="checkbox"
                      checked={row.is_active}
                      disabled={busy}
                      onChange={() => run(() => adminApi.setActive(row.id, !row.is_active), t('manage.common.saved'))}
                      aria-label={t(row.is_active ? 'manage.users.deactivate' : 'manage.users.activate')}
                    />
                    <span className="switch-track" aria-hidden="true" />
                  </label>
                </td>
                <td className="col-actions">
                  <button className="button button-secondary button-small" type="button" onClick={() => setEditing(row)} aria-label={`${t('manage.users.edit')} ${row.username}`}>
                    <Icon name="edit" size={14} />
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
          onChanged={users.reload}
          onClose={() => setEditing(null)}
        />
      )}
    </div>
  );
}

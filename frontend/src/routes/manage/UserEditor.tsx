import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError } from '../../api/client.ts';
import { Icon } from '../../components/Icon.tsx';
import { adminApi, LEVELS, type Level, type UserRow } from './api.ts';
import { BarChart } from './BarChart.tsx';
import { fromLocalInput, parseNumber, toLocalInput } from './model.ts';
import { Notice, useLoad, useNumberFormat, type NoticeState } from './shared.tsx';

/** One user's level, limits and quota, with the last 30 days of usage. */
export function UserEditor({ user, onChanged, onClose }: { user: UserRow; onChanged: () => void; onClose: () => void }) {
  const { t } = useTranslation('account');
  const number = useNumberFormat();
  const ref = useRef<HTMLDialogElement>(null);
  const [row, setRow] = useState(user);
  const [level, setLevel] = useState<Level>((LEVELS as readonly string[]).includes(user.user_level) ? (user.user_level as Level) : 'basic');
  const [expiry, setExpiry] = useState(toLocalInput(user.membership_expires_at));
  const [limit, setLimit] = useState(String(user.token_level_limit));
  const [extra, setExtra] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<NoticeState>(null);
  const usage = useLoad(() => adminApi.userUsage(user.id), user.id);

  useEffect(() => {
    const dialog = ref.current;
    dialog?.showModal();
    return () => dialog?.close();
  }, []);

  async function save(event: FormEvent | null, action: () => Promise<UserRow>) {
    event?.preventDefault();
    setBusy(true);
    setNotice(null);
    try {
      const updated = await action();
      setRow(updated);
      setLimit(String(updated.token_level_limit));
      setNotice({ kind: 'success', text: t('manage.common.saved') });
      onChanged();
    } catch (error) {
      setNotice({ kind: 'error', error: toApiError(error) });
    } finally {
      setBusy(false);
    }
  }

  const daily = [...(usage.data?.daily ?? [])].reverse().map((day) => ({ label: day.day.slice(5), value: day.total_tokens }));

  return (
    <dialog ref={ref} className="dialog manage-dialog" aria-label={t('manage.users.editor.title', { name: user.username })} onClose={onClose} onClick={(event) => event.target === event.currentTarget && onClose()}>
      <button className="icon-button dialog-close" type="button" onClick={onClose} aria-label={t('manage.common.close')}>
        <Icon name="close" size={18} />
      </button>
      <h2 className="manage-dialog-title">{t('manage.users.editor.title', { name: user.username })}</h2>
      <p className="muted manage-dialog-sub">
        {t('manage.users.editor.current', { limit: number(row.token_level_limit), used: number(row.today_usage), extra: number(row.extra_budget), total: number(row.total_available) })}
      </p>
      <Notice notice={notice} onDismiss={() => setNotice(null)} />

      <form className="editor-row" onSubmit={(event) => save(event, () => adminApi.setLevel(user.id, level, fromLocalInput(expiry)))}>
        <label className="editor-field">
          <span>{t('manage.users.editor.level')}</span>
          <select className="select" value={level} onChange={(event) => setLevel(event.target.value as Level)}>
            {LEVELS.map((value) => (
              <option key={value} value={value}>
                {t(`group.${value}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="editor-field editor-grow">
          <span>{t('manage.users.editor.expiry')}</span>
          <input className="input" type="datetime-local" value={expiry} onChange={(event) => setExpiry(event.target.value)} title={t('manage.users.editor.expiryHint')} />
        </label>
        <button className="button button-secondary" type="submit" disabled={busy}>
          {t('manage.users.editor.setLevel')}
        </button>
      </form>

      <form className="editor-row" onSubmit={(event) => save(event, () => adminApi.setTokenLimit(user.id, parseNumber(limit) ?? Number.NaN))}>
        <label className="editor-field editor-grow">
          <span>{t('manage.users.editor.limit')}</span>
          <input className="input" type="number" min={0} step={1} value={limit} onChange={(event) => setLimit(event.target.value)} required />
        </label>
        <button className="button button-primary" type="submit" disabled={busy}>
          {t('manage.users.editor.setLimit')}
        </button>
      </form>

      <form
        className="editor-row"
        onSubmit={(event) =>
          save(event, async () => {
            const updated = await adminApi.addExtraBudget(user.id, parseNumber(extra) ?? Number.NaN);
            setExtra('');
            return updated;
          })
        }
      >
        <label className="editor-field editor-grow">
          <span>{t('manage.users.editor.extra')}</span>
          <input className="input" type="number" min={0} step="any" value={extra} onChange={(event) => setExtra(event.target.value)} required />
        </label>
        <button className="button button-secondary" type="submit" disabled={busy}>
          <Icon name="plus" size={14} />
          {t('manage.users.editor.addExtra')}
        </button>
      </form>

      <div className="editor-row editor-refresh">
        <div className="editor-grow">
          <strong>{t('manage.users.editor.refresh')}</strong>
          <p className="muted">{t('manage.users.editor.refreshHint')}</p>
        </div>
        <button className="button button-secondary" type="button" disabled={busy} onClick={() => save(null, () => adminApi.refreshTokens(user.id))}>
          <Icon name="refresh" size={14} />
          {t('manage.users.batch.refresh')}
        </button>
      </div>

      <section className="editor-usage">
        <h3>{t('manage.users.editor.usage')}</h3>
        {daily.length > 0 ? <BarChart points={daily} label={t('manage.usage.daily')} format={number} /> : <p className="muted table-message">{usage.loading ? t('manage.common.loading') : t('manage.usage.chartEmpty')}</p>}
      </section>
    </dialog>
  );
}

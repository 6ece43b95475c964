import { useState, type FormEvent } from 'react';
import { queryKeys, useApiMutation, useApiQuery } from '../api/query.ts';
import { PASSWORD_MIN_LENGTH } from '../account/password.ts';
import { useTranslation } from 'react-i18next';
import { catalogueText } from '../i18n/catalogue.ts';
import { adminApi, LEVEL_DAILY_LIMITS, LEVELS, type DailyLimitChoice, type Level, type UserRow } from './api.ts';
import { BarChart } from './BarChart.tsx';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { dailyBars, fromLocalInput, parseNumber, toLocalInput } from './model.ts';
import { Notice, useNumberFormat, type NoticeState } from './shared.tsx';
import { KeyRoundIcon, PlusIcon, RefreshCwIcon } from '../ui/icons.ts';
import { Select } from '../ui/Select.tsx';

const USAGE_DAYS = 30;

/** One user's level, limits and quota, with the last 30 days of usage. */
export function UserEditor({ user, onChanged, onClose }: { user: UserRow; onChanged: () => void; onClose: () => void }) {
  const { t } = useTranslation('account');
  const number = useNumberFormat();
  const [row, setRow] = useState(user);
  const [level, setLevel] = useState<Level>((LEVELS as readonly string[]).includes(user.user_level) ? (user.user_level as Level) : 'basic');
  const [expiry, setExpiry] = useState(toLocalInput(user.membership_expires_at));
  const [limit, setLimit] = useState(String(user.token_level_limit));
  const [extra, setExtra] = useState('');
  const [notice, setNotice] = useState<NoticeState>(null);
  // A level change that would move the daily limit waits here for the admin to say apply or keep.
  const [limitQuestion, setLimitQuestion] = useState(false);
  const usage = useApiQuery({ queryKey: queryKeys.manage('usage', user.id), queryFn: () => adminApi.userUsage(user.id) });
  const [newPassword, setNewPassword] = useState('');
  const resetPassword = useApiMutation({
    mutationFn: () => adminApi.resetPassword(user.id, newPassword),
    onMutate: () => setNotice(null),
    onSuccess: () => {
      setNewPassword('');
      setNotice({ kind: 'success', text: t('password.adminDone', { name: user.username }) });
    },
    onError: (error) => setNotice({ kind: 'error', error }),
  });

  function submitPassword(event: FormEvent) {
    event.preventDefault();
    if (newPassword.length < PASSWORD_MIN_LENGTH) return setNotice({ kind: 'warning', text: t('password.tooShort') });
    resetPassword.mutate();
  }

  const saving = useApiMutation({
    mutationFn: (action: () => Promise<UserRow>) => action(),
    onMutate: () => setNotice(null),
    onSuccess: (updated) => {
      setRow(updated);
      setLimit(String(updated.token_level_limit));
      setNotice({ kind: 'success', text: t('manage.common.saved') });
      onChanged();
    },
    onError: (error) => setNotice({ kind: 'error', error }),
  });

  /** Settles once the change has (the notice says how it went), so the level question stays busy until then. */
  function save(event: FormEvent | null, action: () => Promise<UserRow>): Promise<void> {
    event?.preventDefault();
    return saving.mutateAsync(action).then(
      () => undefined,
      () => undefined,
    );
  }

  // An error answered an earlier value: once the value changes it only misleads (the browser may block the next submit itself).
  const edited = () => setNotice((current) => (current?.kind === 'error' ? null : current));
  const setLevelWith = (dailyLimit: DailyLimitChoice) => save(null, () => adminApi.setLevel(user.id, level, fromLocalInput(expiry), dailyLimit));
  const levelDefault = LEVEL_DAILY_LIMITS[level];

  function submitLevel(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    // A past expiry is refused by the server anyway: say so before asking about the daily limit.
    const expiresAt = fromLocalInput(expiry);
    if (expiresAt !== null && Date.parse(expiresAt) <= Date.now()) {
      setNotice({ kind: 'warning', text: catalogueText('budget.expiry_in_past') });
      return;
    }
    if (row.token_level_limit === levelDefault) void setLevelWith('level_default');
    else setLimitQuestion(true);
  }

  const daily = usage.data ? dailyBars(usage.data.daily, usage.data.today.day, USAGE_DAYS) : [];

  return (
    <Dialog title={t('manage.users.editor.title', { name: user.username })} description={t('manage.users.editor.current', { limit: number(row.token_level_limit), used: number(row.today_usage), extra: number(row.extra_budget), total: number(row.total_available) })} onClose={onClose} className="manage-dialog">
      <Notice notice={notice} onDismiss={() => setNotice(null)} />

      <form className="editor-row" onSubmit={submitLevel}>
        <div className="editor-field">
          <span>{t('manage.users.editor.level')}</span>
          <Select value={level} onChange={setLevel} label={t('manage.users.editor.level')} options={LEVELS.map((value) => ({ value, label: t(`group.${value}`) }))} />
        </div>
        <label className="editor-field editor-grow">
          <span>{t('manage.users.editor.expiry')}</span>
          <input
            className="input"
            type="datetime-local"
            value={expiry}
            onChange={(event) => {
              setExpiry(event.target.value);
              edited();
            }}
            title={t('manage.users.editor.expiryHint')}
          />
        </label>
        <button className="button button-secondary" type="submit" disabled={saving.isPending}>
          {t('manage.users.editor.setLevel')}
        </button>
      </form>

      <form className="editor-row" onSubmit={(event) => save(event, () => adminApi.setTokenLimit(user.id, parseNumber(limit) ?? Number.NaN))}>
        <label className="editor-field editor-grow">
          <span>{t('manage.users.editor.limit')}</span>
          <input
            className="input"
            type="number"
            min={0}
            step={1}
            value={limit}
            onChange={(event) => {
              setLimit(event.target.value);
              edited();
            }}
            required
          />
        </label>
        <button className="button button-primary" type="submit" disabled={saving.isPending}>
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
          <input
            className="input"
            type="number"
            // The server takes a positive amount only.
            min={0.01}
            step="any"
            value={extra}
            onChange={(event) => {
              setExtra(event.target.value);
              edited();
            }}
            required
          />
        </label>
        <button className="button button-secondary" type="submit" disabled={saving.isPending}>
          <PlusIcon size={14} />
          {t('manage.users.editor.addExtra')}
        </button>
      </form>

      <div className="editor-row editor-refresh">
        <div className="editor-grow">
          <strong>{t('manage.users.editor.refresh')}</strong>
          <p className="muted">{t('manage.users.editor.refreshHint')}</p>
        </div>
        <button className="button button-secondary" type="button" disabled={saving.isPending} onClick={() => save(null, () => adminApi.refreshTokens(user.id))}>
          <RefreshCwIcon size={14} />
          {t('manage.users.batch.refresh')}
        </button>
      </div>

      <form className="editor-row editor-password" onSubmit={submitPassword}>
        <label className="editor-field editor-grow">
          <span>{t('password.adminTitle')}</span>
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            placeholder={t('password.nextHint')}
            value={newPassword}
            onChange={(event) => {
              setNewPassword(event.target.value);
              edited();
            }}
            aria-describedby="editor-password-hint"
          />
        </label>
        <button className="button button-secondary" type="submit" disabled={resetPassword.isPending || newPassword === ''}>
          <KeyRoundIcon size={14} />
          {t('password.adminReset')}
        </button>
        <p id="editor-password-hint" className="muted editor-password-hint">
          {t('password.adminHint')}
        </p>
      </form>

      {limitQuestion && (
        <ConfirmDialog
          tone="primary"
          title={t('manage.users.editor.limitQuestion.title')}
          text={t('manage.users.editor.limitQuestion.text', { level: t(`group.${level}`), levelLimit: number(levelDefault), name: user.username, current: number(row.token_level_limit) })}
          confirmLabel={t('manage.users.editor.limitQuestion.apply', { limit: number(levelDefault) })}
          alternative={{ label: t('manage.users.editor.limitQuestion.keep', { limit: number(row.token_level_limit) }), onConfirm: () => setLevelWith('keep') }}
          onConfirm={() => setLevelWith('level_default')}
          onClose={() => setLimitQuestion(false)}
        />
      )}

      <section className="editor-usage">
        <h3>{t('manage.users.editor.usage')}</h3>
        {daily.some((day) => day.value > 0) ? <BarChart points={daily} label={t('manage.usage.daily')} format={number} /> : <p className="muted table-message">{usage.isFetching ? t('manage.common.loading') : t('manage.usage.chartEmpty')}</p>}
      </section>
    </Dialog>
  );
}

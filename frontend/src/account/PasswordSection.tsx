import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../api/query.ts';
import { replaceToken } from '../api/token.ts';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { Field } from '../components/Field.tsx';
import { LockIcon } from '../ui/icons.ts';
import { useToast } from '../ui/Toast.tsx';
import { accountApi } from './api.ts';
import { NewPasswordField } from './NewPasswordField.tsx';
import { newPasswordProblem } from './password.ts';
import { AccountCardHead } from './AccountCardHead.tsx';

/** The status dialog's password card: change it with the current one; every other sign-in ends. */
export function PasswordSection() {
  const { t } = useTranslation('account');
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [problem, setProblem] = useState<ReturnType<typeof newPasswordProblem>>(null);
  const change = useApiMutation({
    // The change ends this browser's sign-in too and closes its socket, maybe before the answer
    // arrives: replaceToken stores the new token and makes that close wait for it, then reconnect.
    mutationFn: () => replaceToken(async () => (await accountApi.changePassword(current, next)).access_token),
    onSuccess: () => {
      toast({ title: t('password.changed'), tone: 'success' });
      close();
    },
  });

  function close() {
    setOpen(false);
    setCurrent('');
    setNext('');
    setRepeat('');
    setProblem(null);
    change.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = newPasswordProblem(next, repeat);
    setProblem(found);
    if (found === null && current !== '') change.mutate();
  }

  return (
    <section className="account-card account-password" aria-labelledby="account-password-title">
      <AccountCardHead icon={<LockIcon />} title={t('password.title')} titleId="account-password-title">
        {!open && (
          <button className="button button-secondary button-small account-card-action" type="button" onClick={() => setOpen(true)}>
            {t('password.change')}
          </button>
        )}
      </AccountCardHead>
      <p className="muted small">{t('password.hint')}</p>
      {open && (
        <form className="account-password-form" onSubmit={submit} noValidate>
          {change.error && <ErrorBanner error={change.error} form />}
          <Field label={t('password.current')} type="password" autoComplete="current-password" name="current_password" value={current} onChange={(event) => setCurrent(event.target.value)} required autoFocus />
          <NewPasswordField value={next} onChange={(event) => setNext(event.target.value)} tooShort={problem === 'tooShort'} required />
          <Field label={t('password.repeat')} type="password" autoComplete="new-password" name="repeat_password" value={repeat} onChange={(event) => setRepeat(event.target.value)} error={problem === 'mismatch' ? t('password.mismatch') : undefined} required />
          <div className="account-password-actions">
            <button className="button button-secondary" type="button" onClick={close}>
              {t('password.cancel')}
            </button>
            <button className="button button-primary" type="submit" disabled={change.isPending || current === ''}>
              {change.isPending ? t('password.saving') : t('password.save')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

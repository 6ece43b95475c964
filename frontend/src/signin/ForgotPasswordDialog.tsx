import { useMachine } from '@xstate/react';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { useApiMutation } from '../api/query.ts';
import { accountApi } from '../account/api.ts';
import { NewPasswordField } from '../account/NewPasswordField.tsx';
import { codeRequestMachine } from '../account/machines/codeRequest.ts';
import { CODE_LENGTH } from '@scriptorium/domain/protocol/limits';
import { isCompleteCode, sanitiseCode } from '../account/machines/emailVerification.ts';
import { PASSWORD_MIN_LENGTH } from '../account/password.ts';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { Field } from '../components/Field.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { CheckIcon, KeyRoundIcon } from '../ui/icons.ts';
import '../account/account.css';

/**
 * "Forgot your password?": a code mailed to the account's address sets a new password. The server
 * answers any address alike, so the dialog says "sent" whatever the address was.
 */
export function ForgotPasswordDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('account');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [tooShort, setTooShort] = useState(false);
  const machine = useMemo(() => codeRequestMachine.provide({ actors: { sendCode: fromPromise(({ input }) => accountApi.requestPasswordReset(input.email)) } }), []);
  const [request, sendRequest] = useMachine(machine);
  const reset = useApiMutation({ mutationFn: () => accountApi.resetPassword(email.trim(), code, password) });
  const { secondsLeft, message } = request.context;

  function submit(event: FormEvent) {
    event.preventDefault();
    const short = password.length < PASSWORD_MIN_LENGTH;
    setTooShort(short);
    if (!short && isCompleteCode(code)) reset.mutate();
  }

  return (
    <Dialog title={t('password.resetTitle')} description={reset.isSuccess ? undefined : t('password.resetIntro')} icon={<KeyRoundIcon size={22} />} onClose={onClose} busy={reset.isPending} className="verify-dialog">
      {reset.isSuccess ? (
        <div className="verify-form">
          <p className="account-notice account-notice-success" role="status">
            <CheckIcon size={15} />
            {t('password.resetDone')}
          </p>
          <button className="button button-primary button-block" type="button" onClick={onClose}>
            {t('password.backToLogin')}
          </button>
        </div>
      ) : (
        <form className="verify-form" onSubmit={submit} noValidate>
          {reset.error && <ErrorBanner error={reset.error} form />}
          <div className="forgot-email-row">
            <Field label={t('password.email')} type="email" autoComplete="email" name="email" value={email} onChange={(event) => setEmail(event.target.value)} autoFocus />
            <button className="button button-secondary" type="button" disabled={!request.can({ type: 'code.send', email })} onClick={() => sendRequest({ type: 'code.send', email })}>
              {request.matches('sending') ? t('verify.sending') : secondsLeft > 0 ? t('password.resendIn', { seconds: secondsLeft }) : t('password.sendCode')}
            </button>
          </div>
          {message && (
            <p className={`account-notice account-notice-${message.key === 'sendFailed' ? 'error' : 'success'}`} role={message.key === 'sendFailed' ? 'alert' : 'status'}>
              {message.key === 'sendFailed' ? (message.detail ?? t('verify.messages.sendFailed')) : t('password.codeSent')}
            </p>
          )}
          <Field
            label={t('password.code')}
            placeholder={t('password.codePlaceholder')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={CODE_LENGTH}
            name="code"
            value={code}
            onChange={(event) => setCode(sanitiseCode(event.target.value))}
          />
          <NewPasswordField value={password} onChange={(event) => setPassword(event.target.value)} tooShort={tooShort} />
          <button className="button button-primary button-block" type="submit" disabled={reset.isPending || !isCompleteCode(code) || email.trim() === ''}>
            {reset.isPending ? t('password.resetting') : t('password.reset')}
          </button>
        </form>
      )}
    </Dialog>
  );
}

import { useMachine } from '@xstate/react';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { accountApi } from './api.ts';
import { codeRequestMachine } from './machines/codeRequest.ts';
import { CODE_LENGTH } from '@scriptorium/domain/protocol/limits';
import { sanitiseCode } from './machines/emailVerification.ts';
import './account.css';

/** The registration form's optional e-mail code, with a button that mails one to the address above it. */
export function EmailCodeField({ email, value, onChange, error, required }: { email: string; value: string; onChange: (value: string) => void; error?: string | undefined; required: boolean }) {
  const { t } = useTranslation('account');
  const { t: tMain } = useTranslation();
  const id = useId();
  const machine = useMemo(() => codeRequestMachine.provide({ actors: { sendCode: fromPromise(({ input }) => accountApi.sendVerificationEmail(input.email)) } }), []);
  const [snapshot, send] = useMachine(machine);
  const { secondsLeft, message } = snapshot.context;
  const noEmail = email.trim() === '';
  const status = message ? (message.key === 'sendFailed' ? (message.detail ?? t('verify.messages.sendFailed')) : t(`verify.messages.${message.key}`)) : null;
  const shownError = error ?? (message?.key === 'sendFailed' ? status : undefined);

  return (
    <div className={`field${shownError ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>
        {t('register.emailCode')}
        {!required && <span className="field-optional">{tMain('auth.fields.optional')}</span>}
      </label>
      <div className="email-code-row">
        <input
          id={id}
          name="email_verification_code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={CODE_LENGTH}
          placeholder={t('register.emailCodePlaceholder')}
          value={value}
          onChange={(event) => onChange(sanitiseCode(event.target.value))}
          aria-invalid={shownError ? true : undefined}
          aria-describedby={`${id}-status`}
        />
        <button
          className="button button-secondary email-code-send"
          type="button"
          disabled={noEmail || !snapshot.can({ type: 'code.send', email })}
          title={noEmail ? t('register.needEmail') : undefined}
          onClick={() => send({ type: 'code.send', email })}
        >
          {snapshot.matches('sending') ? t('verify.sending') : secondsLeft > 0 ? t('register.resendIn', { seconds: secondsLeft }) : t('register.sendCode')}
        </button>
      </div>
      <p id={`${id}-status`} className={shownError ? 'field-error' : 'field-hint'} role={shownError ? 'alert' : 'status'}>
        {shownError ?? (message && message.key !== 'sendFailed' ? status : null)}
      </p>
    </div>
  );
}

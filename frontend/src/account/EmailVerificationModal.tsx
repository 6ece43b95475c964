import { useMachine } from '@xstate/react';
import { useEffect, useId, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { Icon } from '../components/Icon.tsx';
import { accountApi } from './api.ts';
import { CODE_LENGTH, emailVerificationMachine, isCompleteCode } from './machines/emailVerification.ts';

/** The e-mail verification modal (max width 500): a code is requested as it opens. */
export function EmailVerificationModal({ email, onVerified, onClose }: { email: string; onVerified: () => void; onClose: () => void }) {
  const { t } = useTranslation('account');
  const ref = useRef<HTMLDialogElement>(null);
  const codeId = useId();
  const machine = useMemo(
    () =>
      emailVerificationMachine.provide({
        actors: {
          sendCode: fromPromise(({ input }) => (input.resend ? accountApi.resendVerificationEmail(input.email) : accountApi.sendVerificationEmail(input.email))),
          verifyCode: fromPromise(({ input }) => accountApi.verifyEmail(input.email, input.code)),
        },
      }),
    [],
  );
  const [snapshot, send] = useMachine(machine, { input: { email } });
  const { code, secondsLeft, message } = snapshot.context;
  const verified = snapshot.matches({ verification: 'verified' });
  const verifying = snapshot.matches({ verification: 'verifying' });
  const delivering = snapshot.matches({ delivery: 'requesting' }) || snapshot.matches({ delivery: 'resending' });

  useEffect(() => {
    const dialog = ref.current;
    dialog?.showModal();
    return () => dialog?.close();
  }, []);

  useEffect(() => {
    if (verified) onVerified();
  }, [verified, onVerified]);

  const tone = message && (message.key === 'sent' || message.key === 'verified') ? 'success' : 'error';
  const messageText = message ? (message.key === 'sendFailed' || message.key === 'invalidCode' ? (message.detail ?? t(`verify.messages.${message.key}`)) : t(`verify.messages.${message.key}`)) : null;

  return (
    <dialog
      ref={ref}
      className="dialog verify-dialog"
      aria-labelledby={`${codeId}-title`}
      onClose={(event) => {
        // React carries `close` up its tree: without this the status dialog behind would close too.
        event.stopPropagation();
        onClose();
      }}
      onClick={(event) => event.target === event.currentTarget && onClose()}
    >
      <button className="icon-button dialog-close" type="button" onClick={onClose} aria-label={t('dialog.close')} title={t('dialog.close')}>
        <Icon name="close" size={18} />
      </button>
      <div className="verify-icon">
        <Icon name="mail" size={24} />
      </div>
      <h2 id={`${codeId}-title`}>{t('verify.title')}</h2>
      <p className="muted verify-intro">{t('verify.intro', { email })}</p>
      {messageText && (
        <p className={`account-notice account-notice-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
          <Icon name={tone === 'success' ? 'check' : 'alert'} size={15} />
          {messageText}
        </p>
      )}
      {verified ? (
        <div className="verify-actions">
          <button className="button button-primary button-block" type="button" onClick={onClose}>
            {t('verify.done')}
          </button>
        </div>
      ) : (
        <form
          className="verify-form"
          onSubmit={(event) => {
            event.preventDefault();
            send({ type: 'code.verify' });
          }}
        >
          <label htmlFor={codeId}>{t('verify.codeLabel')}</label>
          <div className="verify-row">
            <input
              id={codeId}
              className="verify-code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={CODE_LENGTH}
              placeholder={t('verify.codePlaceholder')}
              value={code}
              onChange={(event) => send({ type: 'code.change', value: event.target.value })}
              readOnly={verifying}
              autoFocus
            />
            <button className="button button-secondary verify-resend" type="button" disabled={!snapshot.can({ type: 'code.resend' })} onClick={() => send({ type: 'code.resend' })}>
              {delivering ? t('verify.sending') : secondsLeft > 0 ? t('verify.resendIn', { seconds: secondsLeft }) : t('verify.resend')}
            </button>
          </div>
          <button className="button button-primary button-block" type="submit" disabled={!isCompleteCode(code) || verifying}>
            {verifying ? t('verify.verifying') : t('verify.verify')}
          </button>
        </form>
      )}
    </dialog>
  );
}

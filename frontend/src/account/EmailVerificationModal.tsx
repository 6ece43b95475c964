import { useMachine } from '@xstate/react';
import { useEffect, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { Dialog } from '../ui/Dialog.tsx';
import { accountApi } from './api.ts';
import { CODE_LENGTH } from '@scriptorium/domain/protocol/limits';
import { emailVerificationMachine, isCompleteCode } from './machines/emailVerification.ts';
import { CheckIcon, CircleAlertIcon, MailIcon } from '../ui/icons.ts';

/**
 * The e-mail verification modal (max width 500): a code is requested as it opens; reopened within
 * the resend countdown, it keeps the code already mailed (see the machine).
 */
export function EmailVerificationModal({ email, onVerified, onClose }: { email: string; onVerified: () => void; onClose: () => void }) {
  const { t } = useTranslation('account');
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
    if (verified) onVerified();
  }, [verified, onVerified]);

  const tone = message && (message.key === 'sent' || message.key === 'alreadySent' || message.key === 'verified') ? 'success' : 'error';
  const messageText = message ? (message.key === 'sendFailed' || message.key === 'invalidCode' ? (message.detail ?? t(`verify.messages.${message.key}`)) : t(`verify.messages.${message.key}`)) : null;

  return (
    <Dialog title={t('verify.title')} description={t('verify.intro', { email })} icon={<MailIcon size={22} />} onClose={onClose} className="verify-dialog">
      {messageText && (
        <p className={`account-notice account-notice-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
          {tone === 'success' ? <CheckIcon size={15} /> : <CircleAlertIcon size={15} />}
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
    </Dialog>
  );
}

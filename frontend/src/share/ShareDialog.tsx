import { useMachine } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { research } from '../api/research.ts';
import { Icon } from '../components/Icon.tsx';
import { shareDialogMachine, type ShareRequest } from '../machines/shareDialog.ts';

const machine = shareDialogMachine.provide({
  actors: {
    createShare: fromPromise<{ share_id: string }, ShareRequest>(({ input }) => research.share(input)),
    copyLink: fromPromise<void, { link: string }>(({ input }) => navigator.clipboard.writeText(input.link)),
  },
});

const EXPIRY_CHOICES: ReadonlyArray<number | null> = [null, 1, 7, 30];

/** The share button and its dialog; all of its states live in the shareDialog machine. */
export function ShareButton({ sessionId, sessionName, sessionKnown, disabled }: { sessionId: string | null; sessionName: string; sessionKnown: boolean; disabled: boolean }) {
  const { t } = useTranslation();
  const [snapshot, send] = useMachine(machine);
  const dialog = useRef<HTMLDialogElement>(null);
  const isOpen = !snapshot.matches('closed');
  const { context } = snapshot;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (isOpen && !element.open) element.showModal();
    if (!isOpen && element.open) element.close();
  }, [isOpen]);

  const messageText = context.message ? (context.message.key === 'createFailed' && context.message.detail ? context.message.detail : t(`share.${context.message.key}`)) : null;
  const messageTone = context.message && ['created', 'copied'].includes(context.message.key) ? 'success' : 'error';

  return (
    <>
      <button type="button" className="button button-secondary button-small" disabled={disabled} onClick={() => send({ type: 'dialog.open', sessionId, sessionName, sessionKnown })}>
        <Icon name="share" size={14} />
        {t('share.button')}
      </button>
      <dialog ref={dialog} className="dialog share-dialog" aria-label={t('share.title')} onClose={() => isOpen && send({ type: 'dialog.close' })}>
        <button className="icon-button dialog-close" type="button" onClick={() => send({ type: 'dialog.close' })} aria-label={t('user.close')}>
          <Icon name="close" size={18} />
        </button>
        <h2 className="dialog-title">{t('share.title')}</h2>
        <p className="muted small">{t('share.subtitle')}</p>
        <div className="share-form">
          <label className="field">
            <span>{t('share.fieldTitle')}</span>
            <input value={context.title} disabled={!snapshot.matches({ open: 'editing' })} onChange={(event) => send({ type: 'field.title', value: event.target.value })} />
          </label>
          <label className="field">
            <span>{t('share.fieldDescription')}</span>
            <textarea rows={3} value={context.description} disabled={!snapshot.matches({ open: 'editing' })} onChange={(event) => send({ type: 'field.description', value: event.target.value })} />
          </label>
          <label className="field">
            <span>{t('share.fieldExpiry')}</span>
            <select
              value={context.expiresDays === null ? '' : String(context.expiresDays)}
              disabled={!snapshot.matches({ open: 'editing' })}
              onChange={(event) => send({ type: 'field.expiry', value: event.target.value === '' ? null : Number(event.target.value) })}
            >
              {EXPIRY_CHOICES.map((days) => (
                <option key={String(days)} value={days === null ? '' : String(days)}>
                  {days === null ? t('share.never') : t('share.days', { count: days })}
                </option>
              ))}
            </select>
          </label>
          {context.link && (
            <div className="share-link">
              <Icon name="link" size={16} />
              <input readOnly value={context.link} aria-label={t('share.link')} onFocus={(event) => event.target.select()} />
              <button type="button" className="icon-button" title={t('share.copy')} aria-label={t('share.copy')} onClick={() => send({ type: 'link.copy' })}>
                <Icon name="copy" size={16} />
              </button>
            </div>
          )}
          {context.link && (
            <a className="share-report-link" href={context.link.replace('/share/conversation/', '/share/report/')} target="_blank" rel="noreferrer">
              <Icon name="file" size={14} />
              {t('share.reportOnly')}
            </a>
          )}
          {messageText && (
            <p className={`share-message ${messageTone}`} role="status">
              <Icon name={messageTone === 'success' ? 'check' : 'alert'} size={14} />
              {messageText}
            </p>
          )}
        </div>
        <div className="dialog-actions">
          <button type="button" className="button button-secondary" onClick={() => send({ type: 'dialog.close' })}>
            {t('user.close')}
          </button>
          {!context.link && (
            <button type="button" className="button button-primary" disabled={snapshot.matches({ open: 'creating' })} onClick={() => send({ type: 'link.create' })}>
              {snapshot.matches({ open: 'creating' }) ? <span className="spinner spinner-small" /> : <Icon name="link" size={16} />}
              {t('share.create')}
            </button>
          )}
        </div>
      </dialog>
    </>
  );
}

import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ShareDialogEvent, shareDialogMachine } from '../machines/shareDialog.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Select } from '../ui/Select.tsx';
import { CheckIcon, CircleAlertIcon, CopyIcon, FileIcon, LinkIcon } from '../ui/icons.ts';
import { useFocusWhenLost } from '../ui/returnFocus.ts';

const EXPIRY_CHOICES: ReadonlyArray<number | null> = [null, 1, 7, 30];

/**
 * The share dialog of a research session, shown while its shareDialog child is open. A chunk of its
 * own (`ShareButton` loads it on opening): its list box brings Radix's select and floating-ui, which
 * the research page's first load can do without.
 */
export default function ShareSessionDialog({ dialogActor }: { dialogActor: ActorRefFrom<typeof shareDialogMachine> }) {
  const { t } = useTranslation();
  const snapshot = useSelector(dialogActor, (current) => current);
  const send = (event: ShareDialogEvent) => dialogActor.send(event);
  const { context } = snapshot;

  const messageText = context.message ? (context.message.key === 'createFailed' && context.message.detail ? context.message.detail : t(`share.${context.message.key}`)) : null;
  const messageTone = context.message && ['created', 'existing', 'copied'].includes(context.message.key) ? 'success' : 'error';

  return (
    <Dialog open title={t('share.title')} description={t('share.subtitle')} onClose={() => send({ type: 'dialog.close' })} className="share-dialog">
      <div className="share-form">
        <label className="field">
          <span>{t('share.fieldTitle')}</span>
          <input value={context.title} disabled={!snapshot.matches({ open: 'editing' })} onChange={(event) => send({ type: 'field.title', value: event.target.value })} />
        </label>
        <label className="field">
          <span>{t('share.fieldDescription')}</span>
          <textarea rows={3} value={context.description} disabled={!snapshot.matches({ open: 'editing' })} onChange={(event) => send({ type: 'field.description', value: event.target.value })} />
        </label>
        <div className="field">
          <span>{t('share.fieldExpiry')}</span>
          <Select
            label={t('share.fieldExpiry')}
            value={context.expiresDays === null ? '' : String(context.expiresDays)}
            disabled={!snapshot.matches({ open: 'editing' })}
            onChange={(value) => send({ type: 'field.expiry', value: value === '' ? null : Number(value) })}
            options={EXPIRY_CHOICES.map((days) => ({ value: days === null ? '' : String(days), label: days === null ? t('share.never') : t('share.days', { count: days }) }))}
          />
        </div>
        <p className="muted small">{t('share.visibility')}</p>
        <label className="share-link-check">
          <input
            type="checkbox"
            checked={context.includePrivate}
            disabled={!snapshot.matches({ open: 'editing' })}
            onChange={(event) => send({ type: 'field.includePrivate', value: event.target.checked })}
          />
          <span>{t('share.includePrivate')}</span>
        </label>
        {context.link && (
          <SessionLink link={context.link} onCopy={() => send({ type: 'link.copy' })} />
        )}
        {context.link && (
          <a className="share-report-link" href={context.link.replace('/share/conversation/', '/share/report/')} target="_blank" rel="noreferrer">
            <FileIcon size={14} />
            {t('share.reportOnly')}
          </a>
        )}
        {messageText && (
          <p className={`share-message ${messageTone}`} role="status">
            {messageTone === 'success' ? <CheckIcon size={14} /> : <CircleAlertIcon size={14} />}
            {messageText}
          </p>
        )}
      </div>
      <div className="dialog-actions">
        <button type="button" className="button button-secondary" onClick={() => send({ type: 'dialog.close' })}>
          {t('user.close')}
        </button>
        {context.link && (
          <button type="button" className="button button-secondary" onClick={() => send({ type: 'link.another' })}>
            <LinkIcon size={16} />
            {t('share.another')}
          </button>
        )}
        {!context.link && (
          <button type="button" className="button button-primary" disabled={snapshot.matches({ open: 'creating' }) || snapshot.matches({ open: 'checking' })} onClick={() => send({ type: 'link.create' })}>
            {snapshot.matches({ open: 'creating' }) ? <span className="spinner spinner-small" /> : <LinkIcon size={16} />}
            {t('share.create')}
          </button>
        )}
      </div>
    </Dialog>
  );
}

/** The created link and its copy button, which takes the focus the create button had. */
function SessionLink({ link, onCopy }: { link: string; onCopy: () => void }) {
  const { t } = useTranslation();
  const copy = useRef<HTMLButtonElement>(null);
  useFocusWhenLost(copy);
  return (
    <div className="share-link">
      <LinkIcon size={16} />
      <input readOnly value={link} aria-label={t('share.link')} onFocus={(event) => event.target.select()} />
      <button ref={copy} type="button" className="icon-button" title={t('share.copy')} aria-label={t('share.copy')} onClick={onCopy}>
        <CopyIcon size={16} />
      </button>
    </div>
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { shareLink, type Cognition } from './api.ts';
import { errorMessage } from './errors.ts';
import { useUpdateCognition } from './queries.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { CheckIcon, CircleAlertIcon, CopyIcon, GlobeIcon, LinkIcon, LockIcon, Share2Icon } from '../ui/icons.ts';
import '../share/share.css';
import './cognition.css';

type Notice = { tone: 'success' | 'error'; text: string } | null;

/** Sharing a cognition is making it public (contract); the dialog does that and hands out the link. */
export function ShareCognitionDialog({ cognition, onClose }: { cognition: Cognition; onClose: () => void }) {
  const { t } = useTranslation('cognition');
  const [notice, setNotice] = useState<Notice>(null);
  const update = useUpdateCognition(cognition.id);
  const busy = update.isPending;
  const link = shareLink(cognition.id);

  // Pages served over plain http (not localhost) have no clipboard; the link stays selectable.
  const copy = () =>
    (navigator.clipboard ? navigator.clipboard.writeText(link) : Promise.reject(new Error('no clipboard'))).then(
      () => setNotice({ tone: 'success', text: t('share.copied') }),
      () => setNotice({ tone: 'error', text: t('share.copyFailed') }),
    );

  const setPublic = (value: boolean) => {
    setNotice(null);
    update.mutate(
      { public: value },
      {
        onSuccess: () => {
          if (value) void copy();
        },
        onError: (error) => setNotice({ tone: 'error', text: errorMessage(error) ?? '' }),
      },
    );
  };

  return (
    <Dialog title={t('share.title')} onClose={onClose} busy={busy} className="cog-form-dialog" icon={<Share2Icon size={20} />} description={t(cognition.public ? 'share.publicText' : 'share.privateText')}>
      {cognition.public && (
        <div className="share-link cog-share-link">
          <LinkIcon size={16} />
          <input readOnly value={link} aria-label={t('share.link')} onFocus={(event) => event.target.select()} />
          <button type="button" className="button button-primary button-small" onClick={() => void copy()}>
            <CopyIcon size={14} />
            {t('share.copy')}
          </button>
        </div>
      )}
      {notice && (
        <p className={`share-message ${notice.tone}`} role="status">
          {notice.tone === 'success' ? <CheckIcon size={14} /> : <CircleAlertIcon size={14} />}
          {notice.text}
        </p>
      )}
      <div className="dialog-actions">
        {cognition.public ? (
          <button type="button" className="button button-secondary" disabled={busy} onClick={() => setPublic(false)}>
            {busy ? <span className="spinner spinner-small" /> : <LockIcon size={16} />}
            {t('share.unpublish')}
          </button>
        ) : (
          <button type="button" className="button button-primary" disabled={busy} onClick={() => setPublic(true)}>
            {busy ? <span className="spinner spinner-small" /> : <GlobeIcon size={16} />}
            {t('share.publish')}
          </button>
        )}
        <button type="button" className="button button-secondary" onClick={onClose} disabled={busy}>
          {t('share.close')}
        </button>
      </div>
    </Dialog>
  );
}

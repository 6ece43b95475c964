import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError } from '../api/client.ts';
import { notesApi, type NoteDetail } from '../api/notes.ts';
import { Icon } from '../components/Icon.tsx';
import { copyText, ShareLinkDialog, ShareLinkField, type ShareOutcome } from '../components/ShareLinkDialog.tsx';

const EXPIRY_DAYS = [null, 7, 30] as const;

/** Share, copy and revoke the link to one note (`/share/{token}`, public and read-only). */
export function ShareNoteButton({ note, beforeShare }: { note: NoteDetail; beforeShare: () => Promise<void> }) {
  const { t, i18n } = useTranslation('notes');
  const dialog = useRef<HTMLDialogElement>(null);
  const [share, setShare] = useState(note.share);
  const [expiry, setExpiry] = useState<(typeof EXPIRY_DAYS)[number]>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ShareOutcome | null>(null);

  useEffect(() => setShare(note.share), [note]);

  const attempt = async (action: () => Promise<void>) => {
    setBusy(true);
    setOutcome(null);
    try {
      await action();
    } catch (error) {
      setOutcome({ tone: 'error', text: toApiError(error).userMessage });
    } finally {
      setBusy(false);
    }
  };
  const create = () =>
    attempt(async () => {
      await beforeShare();
      setShare(await notesApi.share(note.id, expiry));
      setOutcome({ tone: 'ok', text: t('share.created') });
    });
  const revoke = () =>
    attempt(async () => {
      await notesApi.revokeShare(note.id);
      setShare(null);
      setOutcome({ tone: 'ok', text: t('share.revoked') });
    });
  const link = share ? `${window.location.origin}${share.path}` : '';
  const date = (iso: string) => new Intl.DateTimeFormat(i18n.language === 'en' ? 'en' : 'zh-CN', { dateStyle: 'medium' }).format(new Date(iso));

  return (
    <>
      <button
        type="button"
        className="button button-secondary button-small"
        onClick={() => {
          setOutcome(null);
          dialog.current?.showModal();
        }}
      >
        <Icon name="share" size={14} />
        {t('share.button')}
      </button>
      <ShareLinkDialog dialogRef={dialog} title={t('share.title')} subtitle={t('share.subtitle')} closeLabel={t('share.close')} outcome={outcome}>
        {share ? (
          <ShareLinkField
            url={link}
            label={t('share.link')}
            copyLabel={t('share.copy')}
            revokeLabel={t('share.revoke')}
            busy={busy}
            onRevoke={() => void revoke()}
            onCopy={() => void copyText(link).then((ok) => setOutcome(ok ? { tone: 'ok', text: t('share.copied') } : { tone: 'error', text: t('share.copyFailed') }))}
            note={share.expires_at && <p className="muted small">{t('share.expires', { date: date(share.expires_at) })}</p>}
          />
        ) : (
          <>
            <label className="share-link-field">
              <span>{t('share.expiry')}</span>
              <select value={expiry ?? ''} onChange={(event) => setExpiry(event.target.value === '' ? null : (Number(event.target.value) as 7 | 30))}>
                {EXPIRY_DAYS.map((days) => (
                  <option key={days ?? 'never'} value={days ?? ''}>
                    {days === null ? t('share.never') : t('share.days', { count: days })}
                  </option>
                ))}
              </select>
            </label>
            <div className="share-link-actions">
              <button type="button" className="button button-primary button-small" onClick={() => void create()} disabled={busy}>
                {busy ? <span className="spinner spinner-small" /> : <Icon name="link" size={14} />}
                {t('share.create')}
              </button>
            </div>
          </>
        )}
      </ShareLinkDialog>
    </>
  );
}

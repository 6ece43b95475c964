import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError } from '../api/client.ts';
import { notesApi, type NoteDetail } from '../api/notes.ts';
import { Icon } from '../components/Icon.tsx';

const EXPIRY_DAYS = [null, 7, 30] as const;

/** Share, copy and revoke the link to one note (`/share/{token}`, public and read-only). */
export function ShareNoteButton({ note, beforeShare }: { note: NoteDetail; beforeShare: () => Promise<void> }) {
  const { t, i18n } = useTranslation('notes');
  const dialog = useRef<HTMLDialogElement>(null);
  const expiryId = useId();
  const [share, setShare] = useState(note.share);
  const [expiry, setExpiry] = useState<(typeof EXPIRY_DAYS)[number]>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);

  useEffect(() => setShare(note.share), [note]);

  const link = share ? `${window.location.origin}${share.path}` : '';
  const create = async () => {
    setBusy(true);
    setMessage(null);
    try {
      await beforeShare();
      const created = await notesApi.share(note.id, expiry);
      setShare(created);
      setMessage({ tone: 'ok', text: t('share.created') });
    } catch (error) {
      setMessage({ tone: 'error', text: toApiError(error).userMessage });
    } finally {
      setBusy(false);
    }
  };
  const revoke = async () => {
    setBusy(true);
    try {
      await notesApi.revokeShare(note.id);
      setShare(null);
      setMessage({ tone: 'ok', text: t('share.revoked') });
    } catch (error) {
      setMessage({ tone: 'error', text: toApiError(error).userMessage });
    } finally {
      setBusy(false);
    }
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setMessage({ tone: 'ok', text: t('share.copied') });
    } catch {
      setMessage({ tone: 'error', text: t('share.copyFailed') });
    }
  };
  const date = (iso: string) => new Intl.DateTimeFormat(i18n.language === 'en' ? 'en' : 'zh-CN', { dateStyle: 'medium' }).format(new Date(iso));

  return (
    <>
      <button
        type="button"
        className="button button-secondary button-small"
        onClick={() => {
          setMessage(null);
          dialog.current?.showModal();
        }}
      >
        <Icon name="share" size={14} />
        {t('share.button')}
      </button>
      <dialog ref={dialog} className="note-share-dialog" aria-labelledby={`${expiryId}-title`}>
        <header>
          <h2 id={`${expiryId}-title`}>{t('share.title')}</h2>
          <button type="button" className="icon-button" aria-label={t('share.close')} onClick={() => dialog.current?.close()}>
            <Icon name="close" size={16} />
          </button>
        </header>
        <p className="muted">{t('share.subtitle')}</p>
        {share ? (
          <>
            <label className="note-share-field">
              <span>{t('share.link')}</span>
              <input readOnly value={link} aria-label={t('share.link')} onFocus={(event) => event.currentTarget.select()} />
            </label>
            {share.expires_at && <p className="muted small">{t('share.expires', { date: date(share.expires_at) })}</p>}
            <div className="note-share-actions">
              <button type="button" className="button button-secondary button-small" onClick={() => void revoke()} disabled={busy}>
                {t('share.revoke')}
              </button>
              <button type="button" className="button button-primary button-small" onClick={() => void copy()}>
                <Icon name="copy" size={14} />
                {t('share.copy')}
              </button>
            </div>
          </>
        ) : (
          <>
            <label className="note-share-field" htmlFor={expiryId}>
              <span>{t('share.expiry')}</span>
              <select id={expiryId} value={expiry ?? ''} onChange={(event) => setExpiry(event.target.value === '' ? null : (Number(event.target.value) as 7 | 30))}>
                {EXPIRY_DAYS.map((days) => (
                  <option key={days ?? 'never'} value={days ?? ''}>
                    {days === null ? t('share.never') : t('share.days', { count: days })}
                  </option>
                ))}
              </select>
            </label>
            <div className="note-share-actions">
              <button type="button" className="button button-primary button-small" onClick={() => void create()} disabled={busy}>
                {busy ? <span className="spinner spinner-small" /> : <Icon name="link" size={14} />}
                {t('share.create')}
              </button>
            </div>
          </>
        )}
        {message && (
          <p className={`note-share-message ${message.tone}`} role="status">
            {message.text}
          </p>
        )}
      </dialog>
    </>
  );
}

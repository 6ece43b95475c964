import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError } from '../api/client.ts';
import { trajectoriesApi } from '../api/trajectories.ts';
import { Icon } from '../components/Icon.tsx';

const DAY = 86_400;
const EXPIRIES = [null, 1, 7, 30] as const;

/** Creates a read-only link to a trajectory (download allowed or not, with an expiry), copies or revokes it. */
export function ShareTrajectoryButton({ fileId }: { fileId: string }) {
  const { t } = useTranslation('cli');
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [allowDownload, setAllowDownload] = useState(true);
  const [days, setDays] = useState<(typeof EXPIRIES)[number]>(7);
  const [share, setShare] = useState<{ token: string; url: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);

  const create = async () => {
    setBusy(true);
    setMessage(null);
    try {
      const created = await trajectoriesApi.share(fileId, allowDownload, days === null ? null : days * DAY);
      setShare({ token: created.token, url: `${window.location.origin}${created.share_url}` });
      setMessage({ tone: 'ok', text: t('share.created') });
    } catch (error) {
      const failure = toApiError(error);
      setMessage({ tone: 'error', text: failure.detail ?? t('share.createFailed') });
    } finally {
      setBusy(false);
    }
  };
  const copy = async () => {
    if (!share) return;
    try {
      await navigator.clipboard.writeText(share.url);
      setMessage({ tone: 'ok', text: t('share.copied') });
    } catch {
      setMessage({ tone: 'error', text: t('share.copyFailed') });
    }
  };
  const revoke = async () => {
    if (!share) return;
    setBusy(true);
    try {
      await trajectoriesApi.revoke(share.token);
      setShare(null);
      setMessage({ tone: 'ok', text: t('share.revoked') });
    } catch (error) {
      setMessage({ tone: 'error', text: toApiError(error).userMessage });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button
        type="button"
        className="button button-secondary button-small"
        onClick={() => {
          setShare(null);
          setMessage(null);
          dialog.current?.showModal();
        }}
      >
        <Icon name="share" size={14} />
        {t('detail.share')}
      </button>
      <dialog ref={dialog} className="cli-share-dialog" aria-labelledby={`${id}-title`}>
        <header>
          <h2 id={`${id}-title`}>{t('share.title')}</h2>
          <button type="button" className="icon-button" aria-label={t('share.close')} onClick={() => dialog.current?.close()}>
            <Icon name="close" size={16} />
          </button>
        </header>
        <p className="muted">{t('share.subtitle')}</p>
        {share ? (
          <>
            <label className="cli-share-field">
              <span>{t('share.link')}</span>
              <input readOnly value={share.url} aria-label={t('share.link')} onFocus={(event) => event.currentTarget.select()} />
            </label>
            <div className="cli-share-actions">
              <button type="button" className="button button-secondary button-small" disabled={busy} onClick={() => void revoke()}>
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
            <label className="cli-share-check">
              <input type="checkbox" checked={allowDownload} onChange={(event) => setAllowDownload(event.target.checked)} />
              {t('share.allowDownload')}
            </label>
            <label className="cli-share-field">
              <span>{t('share.expiry')}</span>
              <select value={days ?? ''} onChange={(event) => setDays(event.target.value === '' ? null : (Number(event.target.value) as 1 | 7 | 30))}>
                {EXPIRIES.map((option) => (
                  <option key={option ?? 'never'} value={option ?? ''}>
                    {option === null ? t('share.never') : t('share.days', { count: option })}
                  </option>
                ))}
              </select>
            </label>
            <div className="cli-share-actions">
              <button type="button" className="button button-primary button-small" disabled={busy} onClick={() => void create()}>
                {busy ? <span className="spinner spinner-small" /> : <Icon name="link" size={14} />}
                {t('share.create')}
              </button>
            </div>
          </>
        )}
        {message && (
          <p className={`cli-share-message ${message.tone}`} role="status">
            {message.text}
          </p>
        )}
      </dialog>
    </>
  );
}

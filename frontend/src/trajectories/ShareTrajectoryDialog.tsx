import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError } from '../api/client.ts';
import { trajectoriesApi } from '../api/trajectories.ts';
import { copyText, ShareLinkDialog, ShareLinkField, type ShareOutcome } from '../components/ShareLinkDialog.tsx';
import { LinkIcon, Share2Icon } from '../ui/icons.ts';
import { Select } from '../ui/Select.tsx';
import '../share/share.css';

const DAY = 86_400;
const EXPIRIES = [null, 1, 7, 30] as const;

/** Creates a read-only link to a trajectory (download allowed or not, with an expiry), copies or revokes it. */
export function ShareTrajectoryButton({ fileId }: { fileId: string }) {
  const { t } = useTranslation('cli');
  const [open, setOpen] = useState(false);
  const [allowDownload, setAllowDownload] = useState(true);
  const [days, setDays] = useState<(typeof EXPIRIES)[number]>(7);
  const [share, setShare] = useState<{ token: string; url: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ShareOutcome | null>(null);

  const create = async () => {
    setBusy(true);
    setOutcome(null);
    try {
      const created = await trajectoriesApi.share(fileId, allowDownload, days === null ? null : days * DAY);
      setShare({ token: created.token, url: `${window.location.origin}${created.share_url}` });
      setOutcome({ tone: 'ok', text: t('share.created') });
    } catch (error) {
      setOutcome({ tone: 'error', text: toApiError(error).detail ?? t('share.createFailed') });
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (token: string) => {
    setBusy(true);
    try {
      await trajectoriesApi.revoke(token);
      setShare(null);
      setOutcome({ tone: 'ok', text: t('share.revoked') });
    } catch (error) {
      setOutcome({ tone: 'error', text: toApiError(error).userMessage });
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
          setOutcome(null);
          setOpen(true);
        }}
      >
        <Share2Icon size={14} />
        {t('detail.share')}
      </button>
      <ShareLinkDialog open={open} onClose={() => setOpen(false)} title={t('share.title')} subtitle={t('share.subtitle')} outcome={outcome}>
        {share ? (
          <ShareLinkField
            url={share.url}
            label={t('share.link')}
            copyLabel={t('share.copy')}
            revokeLabel={t('share.revoke')}
            busy={busy}
            onRevoke={() => void revoke(share.token)}
            onCopy={() => void copyText(share.url).then((ok) => setOutcome(ok ? { tone: 'ok', text: t('share.copied') } : { tone: 'error', text: t('share.copyFailed') }))}
          />
        ) : (
          <>
            <label className="share-link-check">
              <input type="checkbox" checked={allowDownload} onChange={(event) => setAllowDownload(event.target.checked)} />
              {t('share.allowDownload')}
            </label>
            <div className="share-link-field">
              <span>{t('share.expiry')}</span>
              <Select
                label={t('share.expiry')}
                value={days === null ? '' : String(days)}
                onChange={(value) => setDays(value === '' ? null : (Number(value) as 1 | 7 | 30))}
                options={EXPIRIES.map((option) => ({ value: option === null ? '' : String(option), label: option === null ? t('share.never') : t('share.days', { count: option }) }))}
              />
            </div>
            <div className="share-link-actions">
              <button type="button" className="button button-primary button-small" disabled={busy} onClick={() => void create()}>
                {busy ? <span className="spinner spinner-small" /> : <LinkIcon size={14} />}
                {t('share.create')}
              </button>
            </div>
          </>
        )}
      </ShareLinkDialog>
    </>
  );
}

import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { queryClient, queryKeys, useApiMutation, useApiQuery } from '../api/query.ts';
import { trajectoriesApi, type TrajectoryShare } from './api.ts';
import { copyText, ShareLinkDialog, ShareLinkList, type ShareOutcome } from '../components/ShareLinkDialog.tsx';
import { LinkIcon, Share2Icon } from '../ui/icons.ts';
import { Select } from '../ui/Select.tsx';
import { useToast } from '../ui/Toast.tsx';
import '../share/share.css';
import { intlLocale } from '../i18n/language.ts';

const DAY = 86_400;
const EXPIRIES = [null, 1, 7, 30] as const;

const linkOf = (share: TrajectoryShare) => `${window.location.origin}${share.share_url}`;

/** The trajectory's live links, as the server has them; every screen that shows them reads this one query. */
export function useTrajectoryShares(fileId: string) {
  return useApiQuery({ queryKey: queryKeys.trajectoryShares(fileId), queryFn: () => trajectoriesApi.shares(fileId).then((body) => body.shares) });
}

/**
 * The links that open a trajectory now, each with copy and revoke: in its share dialog and on the
 * trajectory page, so a link can be withdrawn whenever its owner decides, not only right after
 * creating it. `empty` is what shows when there is none.
 */
export function TrajectoryShareList({ fileId, onOutcome, empty = null }: { fileId: string; onOutcome: (outcome: ShareOutcome) => void; empty?: ReactNode }) {
  const { t, i18n } = useTranslation('cli');
  const shares = useTrajectoryShares(fileId);
  const revoke = useApiMutation({
    mutationFn: (token: string) => trajectoriesApi.revoke(token),
    onSuccess: (_, token) => {
      queryClient.setQueryData<TrajectoryShare[]>(queryKeys.trajectoryShares(fileId), (current) => current?.filter((share) => share.token !== token));
      onOutcome({ tone: 'ok', text: t('share.revoked') });
    },
    onError: (error) => onOutcome({ tone: 'error', text: error.userMessage }),
  });
  const date = (iso: string) => new Intl.DateTimeFormat(intlLocale(i18n.language), { dateStyle: 'medium' }).format(new Date(iso));

  if (shares.isPending) return <span className="spinner spinner-small" />;
  if (shares.isError) return <p className="share-link-outcome error">{shares.error.userMessage}</p>;
  if (shares.data.length === 0) return empty;
  return (
    <ShareLinkList
      links={shares.data.map((share) => ({
        id: share.token,
        url: linkOf(share),
        meta: [share.expires_at ? t('share.expiresAt', { date: date(share.expires_at) }) : t('share.never'), t(share.allow_download ? 'share.downloadAllowed' : 'share.viewOnly')].join(' · '),
      }))}
      labels={{ link: t('share.link'), copy: t('share.copy'), revoke: t('share.revoke') }}
      revoking={revoke.isPending ? revoke.variables : null}
      onRevoke={(token) => revoke.mutate(token)}
      onCopy={(link) => void copyText(link).then((ok) => onOutcome(ok ? { tone: 'ok', text: t('share.copied') } : { tone: 'error', text: t('share.copyFailed') }))}
    />
  );
}

/** Opens the trajectory's share dialog: its live links (copy, revoke), then a form for a new one (download allowed or not, expiry). */
export function ShareTrajectoryButton({ fileId }: { fileId: string }) {
  const { t } = useTranslation('cli');
  const [open, setOpen] = useState(false);
  const [allowDownload, setAllowDownload] = useState(true);
  const [days, setDays] = useState<(typeof EXPIRIES)[number]>(7);
  const [outcome, setOutcome] = useState<ShareOutcome | null>(null);
  const creating = useApiMutation({
    mutationFn: (link: { allowDownload: boolean; seconds: number | null }) => trajectoriesApi.share(fileId, link.allowDownload, link.seconds),
    onMutate: () => setOutcome(null),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.trajectoryShares(fileId) });
      setOutcome({ tone: 'ok', text: t('share.created') });
    },
    onError: (error) => setOutcome({ tone: 'error', text: error.detail ?? t('share.createFailed') }),
  });

  return (
    <>
      <button
        type="button"
        className="button button-secondary button-small"
        onClick={() => {
          setOutcome(null);
          setOpen(true);
        }}
      >
        <Share2Icon size={14} />
        {t('detail.share')}
      </button>
      <ShareLinkDialog open={open} onClose={() => setOpen(false)} title={t('share.title')} subtitle={t('share.subtitle')} outcome={outcome}>
        <h3 className="share-list-heading">{t('share.current')}</h3>
        <TrajectoryShareList fileId={fileId} onOutcome={setOutcome} empty={<p className="muted small">{t('share.none')}</p>} />
        <h3 className="share-list-heading">{t('share.new')}</h3>
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
          <button type="button" className="button button-primary button-small" disabled={creating.isPending} onClick={() => creating.mutate({ allowDownload, seconds: days === null ? null : days * DAY })}>
            {creating.isPending ? <span className="spinner spinner-small" /> : <LinkIcon size={14} />}
            {t('share.create')}
          </button>
        </div>
      </ShareLinkDialog>
    </>
  );
}

/** On the trajectory page: its live links, when it has any, to copy or revoke without opening the dialog. */
export function TrajectorySharesSection({ fileId }: { fileId: string }) {
  const { t } = useTranslation('cli');
  const toast = useToast();
  const shares = useTrajectoryShares(fileId);
  if (!shares.data || shares.data.length === 0) return null;
  return (
    <section className="cli-shares" aria-labelledby="cli-shares-heading">
      <h3 id="cli-shares-heading">{t('detail.shares', { count: shares.data.length })}</h3>
      <TrajectoryShareList fileId={fileId} onOutcome={(outcome) => toast({ title: outcome.text, tone: outcome.tone === 'ok' ? 'success' : 'error' })} />
    </section>
  );
}

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NoteDetail } from './api.ts';
import { copyText, ShareLinkDialog, ShareLinkField, type ShareOutcome } from '../components/ShareLinkDialog.tsx';
import { LinkIcon, Share2Icon } from '../ui/icons.ts';
import { Select } from '../ui/Select.tsx';
import { useNoteTree } from './live.ts';
import { useNoteShare } from './queries.ts';
import { descendants } from './tree.ts';
import '../share/share.css';
import { intlLocale } from '../i18n/language.ts';

const EXPIRY_DAYS = [null, 7, 30] as const;

/** Share, copy and revoke the link to one note and the notes below it (`/share/{token}`, public and read-only). */
export function ShareNoteButton({ note, beforeShare }: { note: NoteDetail; beforeShare: () => Promise<void> }) {
  const { t, i18n } = useTranslation('notes');
  const [open, setOpen] = useState(false);
  const [share, setShare] = useState(note.share);
  const [expiry, setExpiry] = useState<(typeof EXPIRY_DAYS)[number]>(null);
  const [outcome, setOutcome] = useState<ShareOutcome | null>(null);

  useEffect(() => setShare(note.share), [note]);
  // The link opens the notes below this one too (the server reads them when it is opened), so the dialog says so.
  const tree = useNoteTree(true).data;
  const below = tree ? descendants(tree, note.id).size : 0;

  const failed = (error: { userMessage: string }) => setOutcome({ tone: 'error', text: error.userMessage });
  const { share: sharing, revoke: revoking } = useNoteShare(note.id, beforeShare);
  const createLink = () => {
    setOutcome(null);
    sharing.mutate(expiry, {
      onSuccess: (created) => {
        setShare(created);
        setOutcome({ tone: 'ok', text: t('share.created') });
      },
      onError: failed,
    });
  };
  const revokeLink = () => {
    setOutcome(null);
    revoking.mutate(undefined, {
      onSuccess: () => {
        setShare(null);
        setOutcome({ tone: 'ok', text: t('share.revoked') });
      },
      onError: failed,
    });
  };
  const busy = sharing.isPending || revoking.isPending;
  const link = share ? `${window.location.origin}${share.path}` : '';
  const date = (iso: string) => new Intl.DateTimeFormat(intlLocale(i18n.language), { dateStyle: 'medium' }).format(new Date(iso));

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
        {t('share.button')}
      </button>
      <ShareLinkDialog open={open} onClose={() => setOpen(false)} title={t('share.title')} subtitle={below > 0 ? t('share.subtitleWithChildren', { count: below }) : t('share.subtitle')} outcome={outcome}>
        {share ? (
          <ShareLinkField
            url={link}
            label={t('share.link')}
            copyLabel={t('share.copy')}
            revokeLabel={t('share.revoke')}
            busy={busy}
            onRevoke={revokeLink}
            onCopy={() => void copyText(link).then((ok) => setOutcome(ok ? { tone: 'ok', text: t('share.copied') } : { tone: 'error', text: t('share.copyFailed') }))}
            note={share.expires_at && <p className="muted small">{t('share.expires', { date: date(share.expires_at) })}</p>}
          />
        ) : (
          <>
            <div className="share-link-field">
              <span>{t('share.expiry')}</span>
              <Select
                label={t('share.expiry')}
                value={expiry === null ? '' : String(expiry)}
                onChange={(value) => setExpiry(value === '' ? null : (Number(value) as 7 | 30))}
                options={EXPIRY_DAYS.map((days) => ({ value: days === null ? '' : String(days), label: days === null ? t('share.never') : t('share.days', { count: days }) }))}
              />
            </div>
            <div className="share-link-actions">
              <button type="button" className="button button-primary button-small" onClick={createLink} disabled={busy}>
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

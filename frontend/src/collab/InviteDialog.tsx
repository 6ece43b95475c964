import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CollabInviteSummaryDto, CollabRole } from '@scriptorium/domain/protocol/collab';
import { collabApi, inviteUrl } from './api.ts';
import { queryKeys, useApiMutation, useApiQuery } from '../api/query.ts';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { copyText, ShareLinkDialog, type ShareOutcome } from '../components/ShareLinkDialog.tsx';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { CopyIcon, Trash2Icon } from '../ui/icons.ts';
import { Segmented } from '../ui/Segmented.tsx';
import { useCollabTime } from './time.ts';

/** The document's live links, each revocable; the secret is never shown again, so a link is known by its role and age. */
function LiveLinks({ docId }: { docId: string }) {
  const { t } = useTranslation('collab');
  const queries = useQueryClient();
  const time = useCollabTime();
  const links = useApiQuery({ queryKey: queryKeys.collab('invites', docId), queryFn: () => collabApi.invites(docId) });
  const [revoking, setRevoking] = useState<CollabInviteSummaryDto | null>(null);
  const label = (link: CollabInviteSummaryDto) => ({ role: t(`invite.${link.role}`), at: time.format(new Date(link.created_at)) });
  return (
    <>
      <h3 className="collab-members-title">{t('links.title')}</h3>
      {links.error && <ErrorBanner error={links.error} />}
      {links.data?.invites.length === 0 && <p className="muted collab-links-empty">{t('links.empty')}</p>}
      <ul className="collab-members collab-links">
        {links.data?.invites.map((link) => (
          <li key={link.id}>
            <span>
              <span className={`collab-access is-${link.role}`}>{t(`invite.${link.role}`)}</span>
              <span className="muted collab-member-meta">
                {t('links.created', { at: label(link).at })} · {t('links.joined', { count: link.joined_count })}
              </span>
            </span>
            <span className="collab-member-actions">
              <button type="button" className="button button-secondary button-small" aria-label={t('links.revokeLabel', label(link))} onClick={() => setRevoking(link)}>
                <Trash2Icon size={14} />
                {t('links.revoke')}
              </button>
            </span>
          </li>
        ))}
      </ul>
      {revoking && (
        <ConfirmDialog
          title={t('links.confirmTitle')}
          text={t('links.confirmText')}
          confirmLabel={t('links.confirm')}
          onConfirm={() => collabApi.revokeInvite(docId, revoking.id).then(() => queries.invalidateQueries({ queryKey: queryKeys.collab('invites', docId) }))}
          onClose={() => setRevoking(null)}
        />
      )}
    </>
  );
}

/** Invitation by link (the owner's): pick edit or read rights, create the link, copy it; the live links below, to revoke. */
export function InviteDialog({ docId, open, onClose }: { docId: string; open: boolean; onClose: () => void }) {
  const { t } = useTranslation('collab');
  const queries = useQueryClient();
  const [role, setRole] = useState<CollabRole>('edit');
  const [copied, setCopied] = useState<ShareOutcome | null>(null);
  const invite = useApiMutation({
    mutationFn: (chosen: CollabRole) => collabApi.invite(docId, chosen),
    onMutate: () => setCopied(null),
    onSuccess: () => queries.invalidateQueries({ queryKey: queryKeys.collab('invites', docId) }),
  });
  const link = invite.data ? { role: invite.data.role, url: inviteUrl(location.origin, invite.data.token) } : null;
  const outcome: ShareOutcome | null = invite.error ? { tone: 'error', text: invite.error.userMessage } : copied;

  async function copy(url: string) {
    setCopied((await copyText(url)) ? { tone: 'ok', text: t('invite.copied') } : { tone: 'error', text: t('invite.copyFailed') });
  }

  return (
    <ShareLinkDialog open={open} onClose={onClose} title={t('invite.title')} subtitle={t('invite.description')} outcome={outcome}>
      <div className="collab-invite-role">
        <span id="collab-invite-role">{t('invite.role')}</span>
        <Segmented aria-labelledby="collab-invite-role" value={role} onChange={setRole} options={(['edit', 'read'] as const).map((value) => ({ value, label: t(`invite.${value}`) }))} />
        <button type="button" className="button button-primary button-small" onClick={() => invite.mutate(role)} disabled={invite.isPending}>
          {t('invite.create')}
        </button>
      </div>
      {link && (
        <>
          <label className="share-link-field">
            <span>
              {t('invite.link')} · {t(`invite.${link.role}`)}
            </span>
            <input className="input" readOnly value={link.url} aria-label={t('invite.link')} onFocus={(event) => event.currentTarget.select()} />
          </label>
          <div className="share-link-actions">
            <button type="button" className="button button-primary button-small" onClick={() => void copy(link.url)}>
              <CopyIcon size={14} />
              {t('invite.copy')}
            </button>
          </div>
        </>
      )}
      <LiveLinks docId={docId} />
    </ShareLinkDialog>
  );
}

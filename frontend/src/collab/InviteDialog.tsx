import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CollabMemberDto, CollabRole } from '@scriptorium/domain/protocol/collab';
import { collabApi, inviteUrl } from '../api/collab.ts';
import { useApiMutation } from '../api/query.ts';
import { copyText, ShareLinkDialog, type ShareOutcome } from '../components/ShareLinkDialog.tsx';
import { CopyIcon } from '../ui/icons.ts';

/** Invitation by link (the owner's): pick edit or read rights, create the link, copy it; the members so far below. */
export function InviteDialog({ docId, members, open, onClose }: { docId: string; members: CollabMemberDto[]; open: boolean; onClose: () => void }) {
  const { t } = useTranslation('collab');
  const [role, setRole] = useState<CollabRole>('edit');
  const [copied, setCopied] = useState<ShareOutcome | null>(null);
  const invite = useApiMutation({ mutationFn: (chosen: CollabRole) => collabApi.invite(docId, chosen), onMutate: () => setCopied(null) });
  const link = invite.data ? { role: invite.data.role, url: inviteUrl(location.origin, invite.data.token) } : null;
  const outcome: ShareOutcome | null = invite.error ? { tone: 'error', text: invite.error.userMessage } : copied;

  async function copy(url: string) {
    setCopied((await copyText(url)) ? { tone: 'ok', text: t('invite.copied') } : { tone: 'error', text: t('invite.copyFailed') });
  }

  return (
    <ShareLinkDialog open={open} onClose={onClose} title={t('invite.title')} subtitle={t('invite.description')} outcome={outcome}>
      <div className="collab-invite-role">
        <span id="collab-invite-role">{t('invite.role')}</span>
        <div className="segmented" role="radiogroup" aria-labelledby="collab-invite-role">
          {(['edit', 'read'] as const).map((value) => (
            <button key={value} type="button" role="radio" aria-checked={role === value} className={role === value ? 'active' : ''} onClick={() => setRole(value)}>
              {t(`invite.${value}`)}
            </button>
          ))}
        </div>
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
            <input readOnly value={link.url} aria-label={t('invite.link')} onFocus={(event) => event.currentTarget.select()} />
          </label>
          <div className="share-link-actions">
            <button type="button" className="button button-primary button-small" onClick={() => void copy(link.url)}>
              <CopyIcon size={14} />
              {t('invite.copy')}
            </button>
          </div>
        </>
      )}
      <h3 className="collab-members-title">{t('invite.members')}</h3>
      <ul className="collab-members">
        {members.map((member) => (
          <li key={member.user_id}>
            <span>{member.name}</span>
            <span className="muted">{t(`access.${member.access}`)}</span>
          </li>
        ))}
      </ul>
    </ShareLinkDialog>
  );
}

import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { CollabAccess, CollabMemberDto, CollabRole } from '@scriptorium/domain/protocol/collab';
import { collabApi } from './api.ts';
import { queryKeys, useApiMutation, useApiQuery } from '../api/query.ts';
import { useAuth } from '../app/auth/index.ts';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { LogOutIcon, Trash2Icon } from '../ui/icons.ts';
import { useCollabTime } from './time.ts';

/**
 * Who can open the document, read fresh each time the dialog opens. Its owner changes a member's
 * role or removes them (their open editor closes at once, server-side); anyone else may leave.
 */
export function MembersDialog({ docId, access, open, onClose }: { docId: string; access: CollabAccess; open: boolean; onClose: () => void }) {
  const { t } = useTranslation('collab');
  const queries = useQueryClient();
  const navigate = useNavigate();
  const time = useCollabTime();
  const me = useAuth().user?.id;
  const key = queryKeys.collab('members', docId);
  const members = useApiQuery({ queryKey: key, queryFn: () => collabApi.members(docId), staleTime: 0 });
  const [removing, setRemoving] = useState<CollabMemberDto | null>(null);
  const [leaving, setLeaving] = useState(false);
  const owner = access === 'owner';
  const role = useApiMutation({
    mutationFn: ({ userId, next }: { userId: string; next: CollabRole }) => collabApi.changeRole(docId, userId, next),
    onSuccess: (data) => queries.setQueryData(key, data),
  });
  const refresh = () => Promise.all([queries.invalidateQueries({ queryKey: key }), queries.invalidateQueries({ queryKey: queryKeys.collab('docs') })]);

  return (
    <Dialog open={open} onClose={onClose} title={t('people.title')} description={owner ? t('people.ownerDescription') : t('people.memberDescription')} className="share-link-dialog collab-members-dialog">
      {members.error && <ErrorBanner error={members.error} />}
      {role.error && <ErrorBanner error={role.error} />}
      <ul className="collab-members">
        {members.data?.members.map((member) => (
          <li key={member.user_id}>
            <span>
              {member.name}
              {member.user_id === me && ` ${t('you')}`}
              <span className="muted collab-member-meta">{t('people.joined', { at: time.format(new Date(member.joined_at)) })}</span>
            </span>
            <span className="collab-member-actions">
              <span className={`collab-access is-${member.access}`}>{t(`access.${member.access}`)}</span>
              {owner && member.access !== 'owner' && (
                <>
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    disabled={role.isPending}
                    onClick={() => role.mutate({ userId: member.user_id, next: member.access === 'edit' ? 'read' : 'edit' })}
                  >
                    {member.access === 'edit' ? t('people.makeRead') : t('people.makeEdit')}
                  </button>
                  <button type="button" className="button button-secondary button-small" aria-label={t('people.removeLabel', { name: member.name })} onClick={() => setRemoving(member)}>
                    <Trash2Icon size={14} />
                    {t('people.remove')}
                  </button>
                </>
              )}
            </span>
          </li>
        ))}
      </ul>
      {!owner && (
        <div className="share-link-actions">
          <button type="button" className="button button-secondary button-small" onClick={() => setLeaving(true)}>
            <LogOutIcon size={14} />
            {t('people.leave')}
          </button>
        </div>
      )}
      {removing && (
        <ConfirmDialog
          title={t('people.removeTitle', { name: removing.name })}
          text={t('people.removeText')}
          confirmLabel={t('people.removeConfirm')}
          onConfirm={() => collabApi.removeMember(docId, removing.user_id).then(refresh)}
          onClose={() => setRemoving(null)}
        />
      )}
      {leaving && me && (
        <ConfirmDialog
          title={t('people.leaveTitle')}
          text={t('people.leaveText')}
          confirmLabel={t('people.leaveConfirm')}
          onConfirm={() =>
            collabApi.removeMember(docId, me).then(async () => {
              await queries.invalidateQueries({ queryKey: queryKeys.collab('docs') });
              navigate('/collaboration', { replace: true });
            })
          }
          onClose={() => setLeaving(false)}
        />
      )}
    </Dialog>
  );
}

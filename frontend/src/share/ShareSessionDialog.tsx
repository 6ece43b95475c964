import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { useTranslation } from 'react-i18next';
import type { SessionShare } from '@scriptorium/domain/protocol/http/conversation';
import { research } from '../api/research.ts';
import { queryClient, queryKeys, useApiMutation, useApiQuery } from '../api/query.ts';
import { ShareLinkList, type ListedLink } from '../components/ShareLinkDialog.tsx';
import { intlLocale } from '../i18n/language.ts';
import type { ShareDialogEvent, shareDialogMachine } from '../machines/shareDialog.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Select } from '../ui/Select.tsx';
import { CheckIcon, CircleAlertIcon, FileIcon, LinkIcon } from '../ui/icons.ts';

const EXPIRY_CHOICES: ReadonlyArray<number | null> = [null, 1, 7, 30];

/**
 * The share dialog of a research session, shown while its shareDialog child is open: the session's
 * live links (its conversation and its files), each to copy or revoke, then the form for a new one.
 * A chunk of its own (`ShareButton` loads it on opening): its list box brings Radix's select and
 * floating-ui, which the research page's first load can do without.
 */
export default function ShareSessionDialog({ dialogActor }: { dialogActor: ActorRefFrom<typeof shareDialogMachine> }) {
  const { t } = useTranslation();
  const snapshot = useSelector(dialogActor, (current) => current);
  const send = (event: ShareDialogEvent) => dialogActor.send(event);
  const { context } = snapshot;
  const editable = !snapshot.matches({ open: 'creating' });

  const messageText = context.message ? (['createFailed', 'revokeFailed'].includes(context.message.key) && context.message.detail ? context.message.detail : t(`share.${context.message.key}`)) : null;
  const messageTone = context.message && ['created', 'copied', 'revoked'].includes(context.message.key) ? 'success' : 'error';

  return (
    <Dialog open title={t('share.title')} description={t('share.subtitle')} onClose={() => send({ type: 'dialog.close' })} className="share-dialog">
      {context.sessionId !== null && context.sessionKnown && <SessionLinks sessionId={context.sessionId} createdId={context.createdId} send={send} />}
      <h3 className="share-list-heading">{t('share.new')}</h3>
      <div className="share-form">
        <label className="field">
          <span>{t('share.fieldTitle')}</span>
          <input value={context.title} disabled={!editable} onChange={(event) => send({ type: 'field.title', value: event.target.value })} />
        </label>
        <label className="field">
          <span>{t('share.fieldDescription')}</span>
          <textarea rows={2} value={context.description} disabled={!editable} onChange={(event) => send({ type: 'field.description', value: event.target.value })} />
        </label>
        <div className="field">
          <span>{t('share.fieldExpiry')}</span>
          <Select
            label={t('share.fieldExpiry')}
            value={context.expiresDays === null ? '' : String(context.expiresDays)}
            disabled={!editable}
            onChange={(value) => send({ type: 'field.expiry', value: value === '' ? null : Number(value) })}
            options={EXPIRY_CHOICES.map((days) => ({ value: days === null ? '' : String(days), label: days === null ? t('share.never') : t('share.days', { count: days }) }))}
          />
        </div>
        <p className="muted small">{t('share.visibility')}</p>
        <label className="share-link-check">
          <input type="checkbox" checked={context.includePrivate} disabled={!editable} onChange={(event) => send({ type: 'field.includePrivate', value: event.target.checked })} />
          <span>{t('share.includePrivate')}</span>
        </label>
        {messageText && (
          <p className={`share-message ${messageTone}`} role="status">
            {messageTone === 'success' ? <CheckIcon size={14} /> : <CircleAlertIcon size={14} />}
            {messageText}
          </p>
        )}
      </div>
      <div className="dialog-actions">
        <button type="button" className="button button-secondary" onClick={() => send({ type: 'dialog.close' })}>
          {t('user.close')}
        </button>
        <button type="button" className="button button-primary" disabled={!editable} onClick={() => send({ type: 'link.create' })}>
          {snapshot.matches({ open: 'creating' }) ? <span className="spinner spinner-small" /> : <LinkIcon size={16} />}
          {t('share.create')}
        </button>
      </div>
    </Dialog>
  );
}

/** The session's links that open now, newest first; revoking one takes it off the list at once. */
function SessionLinks({ sessionId, createdId, send }: { sessionId: string; createdId: string | null; send: (event: ShareDialogEvent) => void }) {
  const { t, i18n } = useTranslation();
  // Always read again on opening: a link may have expired, or been revoked from another tab.
  const shares = useApiQuery({ queryKey: queryKeys.sessionShares(sessionId), queryFn: () => research.shares(sessionId), staleTime: 0 });
  const revoking = useApiMutation({
    mutationFn: (shareId: string) => research.revokeShare(shareId),
    onSuccess: (_answer, shareId) => {
      queryClient.setQueryData<SessionShare[]>(queryKeys.sessionShares(sessionId), (current) => current?.map((share) => (share.share_id === shareId ? { ...share, open: false } : share)));
      send({ type: 'link.revoked' });
    },
    onError: (error) => send({ type: 'link.revokeFailed', detail: error.userMessage }),
  });
  const date = (iso: string) => new Intl.DateTimeFormat(intlLocale(i18n.language), { dateStyle: 'medium' }).format(new Date(iso));

  const heading = <h3 className="share-list-heading">{t('share.current')}</h3>;
  if (shares.isPending) return heading;
  if (shares.isError) {
    return (
      <>
        {heading}
        <p className="share-message error">{shares.error.userMessage}</p>
      </>
    );
  }
  const links: ListedLink[] = shares.data
    .filter((share) => share.open)
    .map((share) => ({
      id: share.share_id,
      url: `${window.location.origin}${share.path}`,
      meta: [
        share.kind === 'artifact' ? t('share.kindArtifact', { name: share.filename ?? share.title }) : t(share.include_private ? 'share.kindWithPrivate' : 'share.kindConversation'),
        share.expires_at ? t('shared.expires', { date: date(share.expires_at) }) : t('share.never'),
      ].join(' · '),
      extra:
        share.kind === 'conversation' ? (
          <a className="share-report-link" href={share.path.replace('/share/conversation/', '/share/report/')} target="_blank" rel="noreferrer">
            <FileIcon size={14} />
            {t('share.reportOnly')}
          </a>
        ) : undefined,
    }));
  return (
    <>
      {heading}
      {links.length === 0 ? (
        <p className="muted small">{t('share.none')}</p>
      ) : (
        <ShareLinkList
          links={links}
          labels={{ link: t('share.link'), copy: t('share.copy'), revoke: t('share.revoke') }}
          revoking={revoking.isPending ? (revoking.variables ?? null) : null}
          focusId={createdId}
          onRevoke={(id) => revoking.mutate(id)}
          onCopy={(link) => send({ type: 'link.copy', link })}
        />
      )}
    </>
  );
}

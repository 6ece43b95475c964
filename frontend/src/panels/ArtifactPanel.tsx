import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError } from '../api/client.ts';
import { downloadBlob, research } from '../api/research.ts';
import { Icon } from '../components/Icon.tsx';
import { Markdown } from '../components/Markdown.tsx';
import { copyText, ShareLinkDialog, ShareLinkField, type ShareOutcome } from '../components/ShareLinkDialog.tsx';
import { researchStore, type OpenArtifact } from '../research/store.ts';

/** A generated file: HTML runs in a sandbox with no access to this page; markdown is rendered. */
export function ArtifactPanel({ artifact, sessionId }: { artifact: OpenArtifact; sessionId: string | null }) {
  const { t } = useTranslation();
  return (
    <div className="artifact-panel">
      <header className="panel-header">
        <Icon name="file" size={16} />
        <strong>{artifact.filename}</strong>
        <span className="toolbar-spacer" />
        {sessionId && artifact.messageId && <ShareArtifactButton sessionId={sessionId} messageId={artifact.messageId} filename={artifact.filename} />}
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={() => downloadBlob(new Blob([artifact.content], { type: artifact.filetype === 'html' ? 'text/html' : 'text/markdown' }), artifact.filename)}
        >
          <Icon name="download" size={14} />
          {t('canvas.download')}
        </button>
        <button type="button" className="icon-button" aria-label={t('user.close')} title={t('user.close')} onClick={() => researchStore.showArtifact(null)}>
          <Icon name="close" size={16} />
        </button>
      </header>
      <ArtifactBody artifact={artifact} />
    </div>
  );
}

export function ArtifactBody({ artifact }: { artifact: Pick<OpenArtifact, 'filename' | 'content' | 'filetype'> }) {
  return artifact.filetype === 'html' ? (
    <iframe className="artifact-frame" title={artifact.filename} sandbox="allow-scripts" srcDoc={artifact.content} />
  ) : (
    <div className="artifact-body">
      <Markdown text={artifact.content} />
    </div>
  );
}

/** A public link to this one file (`/share/artifact/{id}`), seven days unless revoked. */
function ShareArtifactButton({ sessionId, messageId, filename }: { sessionId: string; messageId: string; filename: string }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const [share, setShare] = useState<{ id: string; url: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ShareOutcome | null>(null);

  const open = async () => {
    dialog.current?.showModal();
    if (share) return;
    setBusy(true);
    setOutcome(null);
    try {
      const created = await research.shareArtifact({ session_id: sessionId, message_id: messageId, filename, expires_days: 7 });
      setShare({ id: created.share_id, url: `${window.location.origin}${created.path}` });
      setOutcome({ tone: 'ok', text: t('share.created') });
    } catch (error) {
      setOutcome({ tone: 'error', text: toApiError(error).detail ?? t('share.createFailed') });
    } finally {
      setBusy(false);
    }
  };
  const revoke = async () => {
    if (!share) return;
    setBusy(true);
    try {
      await research.revokeShare(share.id);
      setShare(null);
      dialog.current?.close();
    } catch (error) {
      setOutcome({ tone: 'error', text: toApiError(error).userMessage });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" className="button button-secondary button-small" onClick={() => void open()}>
        <Icon name="share" size={14} />
        {t('share.button')}
      </button>
      <ShareLinkDialog dialogRef={dialog} title={t('share.artifactTitle')} subtitle={t('share.artifactSubtitle')} closeLabel={t('user.close')} outcome={outcome}>
        {share ? (
          <ShareLinkField
            url={share.url}
            label={t('share.link')}
            copyLabel={t('share.copy')}
            revokeLabel={t('share.revoke')}
            busy={busy}
            onRevoke={() => void revoke()}
            onCopy={() => void copyText(share.url).then((ok) => setOutcome(ok ? { tone: 'ok', text: t('share.copied') } : { tone: 'error', text: t('share.copyFailed') }))}
          />
        ) : (
          busy && <span className="spinner" />
        )}
      </ShareLinkDialog>
    </>
  );
}

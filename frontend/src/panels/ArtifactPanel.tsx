import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { API_BASE } from '../api/client.ts';
import { useApiMutation } from '../api/query.ts';
import { downloadBlob, research } from '../api/research.ts';
import { Markdown } from '../components/Markdown.tsx';
import { copyText, ShareLinkDialog, ShareLinkField, type ShareOutcome } from '../components/ShareLinkDialog.tsx';
import type { OpenArtifact } from '../machines/researchSession.ts';
import { useSessionRef } from '../research/sessionContext.ts';
import { DownloadIcon, FileIcon, Share2Icon, XIcon } from '../ui/icons.ts';
import './research.css';

/** A generated file: HTML runs in a sandbox with no access to this page; markdown is rendered. */
export function ArtifactPanel({ artifact, sessionId }: { artifact: OpenArtifact; sessionId: string | null }) {
  const { t } = useTranslation();
  const session = useSessionRef();
  return (
    <div className="artifact-panel">
      <header className="panel-header">
        <FileIcon size={16} />
        <strong>{artifact.filename}</strong>
        <span className="toolbar-spacer" />
        {sessionId && artifact.messageId && <ShareArtifactButton sessionId={sessionId} messageId={artifact.messageId} filename={artifact.filename} />}
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={() => downloadBlob(new Blob([artifact.content], { type: artifact.filetype === 'html' ? 'text/html' : 'text/markdown' }), artifact.filename)}
        >
          <DownloadIcon size={14} />
          {t('canvas.download')}
        </button>
        <button type="button" className="icon-button" aria-label={t('user.close')} title={t('user.close')} onClick={() => session?.send({ type: 'panel.artifact', artifact: null })}>
          <XIcon size={16} />
        </button>
      </header>
      <ArtifactBody artifact={artifact} />
    </div>
  );
}

/**
 * Generated HTML runs in the server's artifact frame, a sandboxed page with a policy of its own, and
 * is handed over by message: as `srcdoc` it would inherit this page's policy, which refuses its scripts.
 */
function ArtifactFrame({ title, html }: { title: string; html: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  // Writing the document loads the frame again; the shell takes one document only, so post once.
  const posted = useRef(false);
  return (
    <iframe
      key={html}
      ref={frame}
      className="artifact-frame"
      title={title}
      sandbox="allow-scripts allow-popups allow-modals allow-forms"
      src={`${API_BASE}/artifact-frame`}
      // The sandboxed frame has an opaque origin, so '*' is the only target that reaches it.
      onLoad={() => {
        if (posted.current) return;
        posted.current = true;
        frame.current?.contentWindow?.postMessage(html, '*');
      }}
    />
  );
}

export function ArtifactBody({ artifact }: { artifact: Pick<OpenArtifact, 'filename' | 'content' | 'filetype'> }) {
  return artifact.filetype === 'html' ? (
    <ArtifactFrame title={artifact.filename} html={artifact.content} />
  ) : (
    <div className="artifact-body">
      <Markdown text={artifact.content} />
    </div>
  );
}

/** A public link to this one file (`/share/artifact/{id}`), seven days unless revoked. */
function ShareArtifactButton({ sessionId, messageId, filename }: { sessionId: string; messageId: string; filename: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<ShareOutcome | null>(null);
  const create = useApiMutation({
    mutationFn: () => research.shareArtifact({ session_id: sessionId, message_id: messageId, filename, expires_days: 7 }),
    onMutate: () => setOutcome(null),
    onSuccess: () => setOutcome({ tone: 'ok', text: t('share.created') }),
    onError: (error) => setOutcome({ tone: 'error', text: error.detail ?? t('share.createFailed') }),
  });
  const revoke = useApiMutation({
    mutationFn: (shareId: string) => research.revokeShare(shareId),
    onSuccess: () => {
      create.reset();
      setOpen(false);
    },
    onError: (error) => setOutcome({ tone: 'error', text: error.userMessage }),
  });
  const share = create.data ? { id: create.data.share_id, url: `${window.location.origin}${create.data.path}` } : null;
  const busy = create.isPending || revoke.isPending;

  const show = () => {
    setOpen(true);
    if (!share && !create.isPending) create.mutate();
  };

  return (
    <>
      <button type="button" className="button button-secondary button-small" onClick={show}>
        <Share2Icon size={14} />
        {t('share.button')}
      </button>
      <ShareLinkDialog open={open} onClose={() => setOpen(false)} title={t('share.artifactTitle')} subtitle={t('share.artifactSubtitle')} outcome={outcome}>
        {share ? (
          <ShareLinkField
            url={share.url}
            label={t('share.link')}
            copyLabel={t('share.copy')}
            revokeLabel={t('share.revoke')}
            busy={busy}
            onRevoke={() => revoke.mutate(share.id)}
            onCopy={() => void copyText(share.url).then((ok) => setOutcome(ok ? { tone: 'ok', text: t('share.copied') } : { tone: 'error', text: t('share.copyFailed') }))}
          />
        ) : (
          busy && <span className="spinner" />
        )}
      </ShareLinkDialog>
    </>
  );
}

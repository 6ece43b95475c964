import { lazy, memo, startTransition, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/react';
import { ConnectionStatus } from '../components/ConnectionStatus.tsx';
import { GuidanceTips } from '../components/GuidanceTips.tsx';
import { PageLoading } from '../components/PageState.tsx';
import { queryKeys, useApiQuery } from '../api/query.ts';
import { research } from '../api/research.ts';
import type { ResearchSessionRef } from '../machines/researchSession.ts';
import { useResearchSessions, useSessionView } from '../research/live.ts';
import { SessionRefContext } from '../research/sessionContext.ts';
import { ShareButton } from '../share/ShareDialog.tsx';
import { FileTextIcon, FolderIcon, LockIcon, LockOpenIcon, PanelsTopLeftIcon, WifiOffIcon } from '../ui/icons.ts';
import { useSessionLabel } from '../research/useSessionLabel.ts';
import './research.css';

// golden-layout and the panels load as their own chunk; the canvas editor is a further chunk inside.
const Workspace = lazy(() => import('./Workspace.tsx'));

/**
 * False until the browser has painted the view once. The workspace's chunks (about a third of what
 * /research loads) are asked for only then, so the frame and the welcome tip are not queued behind them.
 */
function usePainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A frame's callback runs before its paint; the task after it runs once the frame is out. The
    // workspace then renders as a transition, in slices, like the first screen (main.tsx).
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setPainted(true)));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
}

/**
 * The share button, told whether the session is still open. It alone follows the list of open
 * sessions, so a session opening or closing does not re-render the whole view.
 */
function OpenSessionShareButton({ session, sessionName, disabled }: { session: ResearchSessionRef; sessionName: string; disabled: boolean }) {
  const sessions = useResearchSessions();
  return <ShareButton session={session} sessionName={sessionName} sessionKnown={sessions.includes(session)} disabled={disabled} />;
}

/**
 * The research screen's frame: toolbar (title, status, lock, share) and the dockable workspace.
 * Memoised: the page re-renders at once when the shown session changes but passes the new one on
 * deferred, and the view should not redo all its panels for the old one meanwhile.
 */
export const ResearchView = memo(function ResearchView({ session: ref, signedIn, readOnly, heading }: { session: ResearchSessionRef | null; signedIn: boolean; readOnly: boolean; heading?: string }) {
  const { t } = useTranslation();
  const session = useSessionView(ref, ({ context }) => ({
    title: context.title,
    name: context.name,
    layoutPreset: context.layoutPreset,
    panel: context.panel,
    empty: context.conversation.messages.length === 0,
  }));
  const models = useApiQuery({ queryKey: queryKeys.models, queryFn: research.models, enabled: signedIn && !readOnly });
  const offline = models.data?.offline ?? false;
  const [locked, setLocked] = useState(true);
  const [notes, setNotes] = useState(false);
  const label = useSessionLabel();
  const title = heading ?? (session ? label(session) : t('research.eyebrow'));
  const painted = usePainted();
  const hasVersions = useSelector(ref?.getSnapshot().children.writing ?? undefined, (snapshot) => (snapshot?.context.versions.length ?? 0) > 0);

  const toolbar = (
    <div className="workspace-toolbar">
      <h1 className="workspace-title" title={title}>
        {title}
      </h1>
      {readOnly && (
        <span className="badge badge-muted">
          <LockIcon size={12} />
          {t('workspace.readOnly')}
        </span>
      )}
      {offline && !readOnly && (
        <span className="badge badge-warning" title={t('workspace.offlineHint')}>
          <WifiOffIcon size={12} />
          {t('workspace.offline')}
        </span>
      )}
      <span className="toolbar-spacer" />
      {signedIn && !readOnly && <ConnectionStatus />}
      {!readOnly && session && (
        <>
          <button
            type="button"
            className="icon-button"
            title={t(session.layoutPreset === 'home-welcome' ? 'workspace.presetChat' : 'workspace.presetWelcome')}
            aria-label={t(session.layoutPreset === 'home-welcome' ? 'workspace.presetChat' : 'workspace.presetWelcome')}
            onClick={() => {
              // A preset is a whole layout of one panel: chosen with the canvas or a file open beside
              // the chat, it puts that panel away (it changed nothing visible before).
              if (session.panel) ref?.send({ type: 'panel.canvas', open: false });
              ref?.send({ type: 'layout.preset', preset: session.layoutPreset === 'home-welcome' ? 'chat-interface-only' : 'home-welcome' });
            }}
          >
            <PanelsTopLeftIcon size={16} />
          </button>
          <button type="button" className={`icon-button${notes ? ' active' : ''}`} title={t('workspace.notes')} aria-label={t('workspace.notes')} aria-pressed={notes} onClick={() => setNotes((value) => !value)}>
            <FileTextIcon size={16} />
          </button>
        </>
      )}
      {session && hasVersions && (
        <button type="button" className={`icon-button${session.panel === 'canvas' ? ' active' : ''}`} data-guide="artifacts" title={t('workspace.openCanvas')} aria-label={t('workspace.openCanvas')} aria-pressed={session.panel === 'canvas'} onClick={() => ref?.send({ type: 'panel.canvas', open: session.panel !== 'canvas' })}>
          <FolderIcon size={16} />
        </button>
      )}
      <button type="button" className={`icon-button layout-lock${locked ? '' : ' active'}`} title={t(locked ? 'workspace.unlock' : 'workspace.lock')} aria-label={t(locked ? 'workspace.unlock' : 'workspace.lock')} aria-pressed={!locked} onClick={() => setLocked((value) => !value)}>
        {locked ? <LockIcon size={16} /> : <LockOpenIcon size={16} />}
      </button>
      {signedIn && !readOnly && ref && session && <OpenSessionShareButton session={ref} sessionName={session.title || session.name || ''} disabled={session.empty} />}
    </div>
  );

  return (
    <SessionRefContext value={ref}>
      <Suspense fallback={<PageLoading />}>
        {painted ? (
          <Workspace
            session={ref}
            signedIn={signedIn}
            readOnly={readOnly}
            locked={locked}
            notes={notes}
            toolbar={toolbar}
            onPanelClosed={(type) => (type === 'note-page' ? setNotes(false) : ref?.send(type === 'canvas' ? { type: 'panel.canvas', open: false } : { type: 'panel.artifact', artifact: null }))}
          />
        ) : (
          <PageLoading />
        )}
      </Suspense>
      {!readOnly && <GuidanceTips welcomeScreen={session === null || session.layoutPreset === 'home-welcome'} />}
    </SessionRefContext>
  );
});

import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConnectionStatus } from '../components/ConnectionStatus.tsx';
import { GuidanceTips } from '../components/GuidanceTips.tsx';
import { Icon } from '../components/Icon.tsx';
import { PageLoading } from '../components/PageState.tsx';
import { researchStore, useResearch, type ResearchSession } from '../research/store.ts';
import { ShareButton } from '../share/ShareDialog.tsx';

// golden-layout and the panels load as their own chunk; the canvas editor is a further chunk inside.
const Workspace = lazy(() => import('./Workspace.tsx'));

/** The research screen's frame: toolbar (title, status, lock, share) and the dockable workspace. */
export function ResearchView({ session, signedIn, readOnly, heading }: { session: ResearchSession | null; signedIn: boolean; readOnly: boolean; heading?: string }) {
  const { t } = useTranslation();
  const { offline, sessions } = useResearch();
  const [locked, setLocked] = useState(true);
  const [notes, setNotes] = useState(false);
  const title = heading ?? (session ? session.title || session.name || t('sessions.unnamed') : t('research.eyebrow'));
  const known = session !== null && sessions.some((candidate) => candidate.id === session.id && !candidate.readOnly);

  const toolbar = (
    <div className="workspace-toolbar">
      <h1 className="workspace-title" title={title}>
        {title}
      </h1>
      {readOnly && (
        <span className="badge badge-muted">
          <Icon name="lock" size={12} />
          {t('workspace.readOnly')}
        </span>
      )}
      {offline && !readOnly && (
        <span className="badge badge-warning" title={t('workspace.offlineHint')}>
          <Icon name="wifiOff" size={12} />
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
            onClick={() => researchStore.setLayoutPreset(session.layoutPreset === 'home-welcome' ? 'chat-interface-only' : 'home-welcome')}
          >
            <Icon name="layout" size={16} />
          </button>
          <button type="button" className={`icon-button${notes ? ' active' : ''}`} title={t('workspace.notes')} aria-label={t('workspace.notes')} aria-pressed={notes} onClick={() => setNotes((value) => !value)}>
            <Icon name="note" size={16} />
          </button>
        </>
      )}
      {session && session.panel === null && session.writing.getSnapshot().context.versions.length > 0 && (
        <button type="button" className="icon-button" data-guide="artifacts" title={t('workspace.openCanvas')} aria-label={t('workspace.openCanvas')} onClick={() => researchStore.showCanvas(true)}>
          <Icon name="folder" size={16} />
        </button>
      )}
      <button type="button" className={`icon-button${locked ? '' : ' active'}`} title={t(locked ? 'workspace.unlock' : 'workspace.lock')} aria-label={t(locked ? 'workspace.unlock' : 'workspace.lock')} aria-pressed={!locked} onClick={() => setLocked((value) => !value)}>
        <Icon name={locked ? 'lock' : 'unlock'} size={16} />
      </button>
      {signedIn && !readOnly && <ShareButton sessionId={session?.id ?? null} sessionName={session?.title || session?.name || ''} sessionKnown={known} disabled={!session || session.restoring || session.conversation.messages.length === 0} />}
    </div>
  );

  return (
    <>
      <Suspense fallback={<PageLoading />}>
        <Workspace session={session} signedIn={signedIn} readOnly={readOnly} locked={locked} notes={notes} toolbar={toolbar} />
      </Suspense>
      {!readOnly && <GuidanceTips />}
    </>
  );
}

import 'golden-layout/dist/css/goldenlayout-base.css';
import 'golden-layout/dist/css/themes/goldenlayout-light-theme.css';
import { GoldenLayout, LayoutConfig } from 'golden-layout';
import { lazy, startTransition, Suspense, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../components/PageState.tsx';
import { isRestoring, type ResearchSessionRef } from '../machines/researchSession.ts';
import { useSessionView } from '../research/live.ts';
import { ArtifactPanel } from './ArtifactPanel.tsx';
import { ChatStream } from './ChatStream.tsx';
import { carryComposerFocus, Composer } from './Composer.tsx';
import { emptyConversation } from '../research/conversation.ts';
import { arrangedLayout, arrangementKey, panelSet, type Arrangement, type PanelType } from './layoutConfig.ts';
import { PopoutWindow } from './PopoutWindow.tsx';
import { WelcomeGuide } from './WelcomeGuide.tsx';
import { ExternalLinkIcon } from '../ui/icons.ts';
import { COMPACT_SCREEN, useMediaQuery } from '../ui/useMediaQuery.ts';
import './research.css';

const CanvasPanel = lazy(() => import('./canvas/CanvasPanel.tsx'));
const NotePage = lazy(() => import('../notes/NotePage.tsx'));

/** The arrangement kept for a session; anything unreadable counts as none. Panel types and sizes only, no content. */
function readArrangement(sessionId: string): Arrangement | null {
  try {
    const kept = JSON.parse(localStorage.getItem(arrangementKey(sessionId)) ?? 'null') as Arrangement | null;
    return kept && typeof kept.panels === 'string' && typeof kept.root === 'object' ? kept : null;
  } catch {
    return null;
  }
}

const PANEL_TYPES: readonly PanelType[] = ['welcome-guide', 'conversation', 'canvas', 'artifact', 'note-page'];
/** Spec §2: a popped-out panel opens at an explicit position and size. */
const POPOUT_SIZE = { width: 960, height: 720 };

export interface WorkspaceProps {
  session: ResearchSessionRef | null;
  signedIn: boolean;
  readOnly: boolean;
  locked: boolean;
  notes: boolean;
  /** The toolbar row above the panels (session title, share, lock…). */
  toolbar: ReactNode;
  /** The user closed a side panel (canvas, artifact, notes) from its tab while unlocked. */
  onPanelClosed(type: PanelType): void;
}

/** The conversation of a session: the one panel that follows every streamed chunk. */
function SessionChatStream({ session: ref, readOnly }: { session: ResearchSessionRef | null; readOnly: boolean }) {
  const session = useSessionView(ref, (snapshot) => ({ conversation: snapshot.context.conversation, outbox: snapshot.context.outbox }));
  return <ChatStream conversation={session?.conversation ?? emptyConversation()} outbox={session?.outbox} readOnly={readOnly} />;
}

/**
 * The dockable research view. golden-layout owns the panel frames; React renders into them through
 * portals, so every panel keeps the app's context (router, i18n, stores).
 */
export default function Workspace({ session: ref, signedIn, readOnly, locked, notes, toolbar, onPanelClosed }: WorkspaceProps) {
  const { t } = useTranslation();
  const session = useSessionView(ref, (snapshot) => ({
    id: snapshot.context.id,
    name: snapshot.context.name,
    panel: snapshot.context.panel,
    panelRequests: snapshot.context.panelRequests,
    layoutPreset: snapshot.context.layoutPreset,
    artifact: snapshot.context.artifact,
    restoring: isRestoring(snapshot),
  }));
  const host = useRef<HTMLDivElement>(null);
  const layout = useRef<GoldenLayout | null>(null);
  const [frames, setFrames] = useState<Partial<Record<PanelType, HTMLElement>>>({});
  const [popped, setPopped] = useState<PanelType | null>(null);
  // Set while a layout loads: components released then are replaced, not closed by the user.
  const loading = useRef(false);
  const loaded = useRef<string | null>(null);
  const shown = useRef(false);
  const closed = useRef(onPanelClosed);
  closed.current = onPanelClosed;
  // The main panel cannot go: closing it brings the layout back.
  const [restored, setRestored] = useState(0);

  const compact = useMediaQuery(COMPACT_SCREEN);
  const side = session?.panel ?? null;
  const preset = session?.layoutPreset ?? 'home-welcome';
  const titles = useMemo(
    () => Object.fromEntries(PANEL_TYPES.map((type) => [type, t(`panels.${type}`)])) as Record<PanelType, string>,
    [t],
  );

  useLayoutEffect(() => {
    const element = host.current;
    if (!element) return;
    const created = new GoldenLayout(element);
    created.resizeWithContainerAutomatically = true;
    for (const type of PANEL_TYPES) {
      created.registerComponentFactoryFunction(type, (container) => {
        container.element.classList.add('panel-frame');
        const show = () => setFrames((current) => ({ ...current, [type]: container.element }));
        // The first layout's panels render in slices after golden-layout has built its frames, not
        // in the same long task; later layouts replace panels on screen, so theirs render at once.
        if (!shown.current) startTransition(show);
        else show();
        container.on('beforeComponentRelease', () => {
          setFrames((current) => (current[type] === container.element ? { ...current, [type]: undefined } : current));
          if (loading.current) return;
          if (type === 'conversation' || type === 'welcome-guide') {
            loaded.current = null;
            setRestored((value) => value + 1);
          } else closed.current(type);
        });
        return undefined;
      });
    }
    // Anything that changes the layout outside a load (a drag, a closed panel) makes the loaded
    // arrangement stale: the next one is loaded even if it reads the same.
    created.on('stateChanged', () => {
      if (!loading.current) loaded.current = null;
    });
    layout.current = created;
    return () => {
      layout.current = null;
      created.destroy();
    };
  }, []);

  const sessionId = session?.id ?? null;
  useLayoutEffect(() => {
    const current = layout.current;
    if (!current) return;
    // A new session with no kept arrangement (the first visit's, once created) is laid out as the
    // welcome screen already was: rebuilding every panel for it would only repeat the work.
    const config = arrangedLayout({ preset, side, notes, locked, compact, titles }, sessionId ? readArrangement(sessionId) : null);
    const key = JSON.stringify(config);
    if (key !== loaded.current) {
      loading.current = true;
      carryComposerFocus(host.current);
      try {
        current.loadLayout(config);
        loaded.current = key;
        shown.current = true;
      } finally {
        loading.current = false;
      }
    }
    if (!sessionId || locked || compact) return;
    // Only what the user drags is kept: loads above happen with `loading` set and are not saved.
    const keep = () => {
      if (loading.current || current.isSubWindow) return;
      const config = LayoutConfig.fromResolved(current.saveLayout());
      if (config.root) localStorage.setItem(arrangementKey(sessionId), JSON.stringify({ panels: panelSet(config), root: config.root } satisfies Arrangement));
    };
    current.on('stateChanged', keep);
    return () => current.off('stateChanged', keep);
  }, [preset, side, notes, locked, compact, titles, restored, sessionId]);

  // On a phone the panels are tabs of one stack, the conversation in front: a panel the reader asks
  // for ("View in canvas", an artifact) comes to the front, once per request.
  const panelRequests = session?.panelRequests ?? 0;
  const answered = useRef({ sessionId, requests: panelRequests });
  useEffect(() => {
    const asked = answered.current.sessionId === sessionId && panelRequests > answered.current.requests;
    answered.current = { sessionId, requests: panelRequests };
    if (!asked || !compact || !side) return;
    const item = layout.current?.findFirstComponentItemById(side);
    item?.parentItem.setActiveComponentItem(item, false, true);
  }, [compact, side, panelRequests, sessionId]);

  useEffect(() => {
    if (popped && popped !== 'conversation' && popped !== side && !(popped === 'note-page' && notes)) setPopped(null);
  }, [popped, side, notes]);

  const panel = (type: PanelType): ReactNode => {
    switch (type) {
      case 'welcome-guide':
        return (
          <div className="panel-column">
            <WelcomeGuide />
            <Composer session={ref} signedIn={signedIn} />
          </div>
        );
      case 'conversation':
        return (
          <div className="panel-column">
            {session?.restoring ? (
              <PageLoading />
            ) : (
              // Replies are Markdown: the first one waits here for the renderer, the composer stays.
              <Suspense fallback={<PageLoading />}>
                <SessionChatStream session={ref} readOnly={readOnly} />
              </Suspense>
            )}
            {!readOnly && <Composer session={ref} signedIn={signedIn} />}
          </div>
        );
      case 'canvas':
        return ref ? (
          <Suspense fallback={<PageLoading />}>
            <CanvasPanel session={ref} readOnly={readOnly} />
          </Suspense>
        ) : null;
      case 'artifact':
        return session?.artifact ? (
          <Suspense fallback={<PageLoading />}>
            <ArtifactPanel artifact={session.artifact} sessionId={readOnly ? null : session.id} />
          </Suspense>
        ) : null;
      case 'note-page':
        return (
          <Suspense fallback={<PageLoading />}>
            <NotePage />
          </Suspense>
        );
    }
  };

  return (
    <div className="workspace">
      {toolbar}
      <div className="workspace-layout" ref={host} />
      {PANEL_TYPES.map((type) => {
        const frame = frames[type];
        if (!frame) return null;
        const content =
          popped === type ? (
            <div className="popped-placeholder">
              <ExternalLinkIcon size={22} />
              <p>{t('workspace.poppedOut')}</p>
              <button type="button" className="button button-secondary button-small" onClick={() => setPopped(null)}>
                {t('workspace.popIn')}
              </button>
            </div>
          ) : (
            <div className="panel">
              {type !== 'welcome-guide' && !popped && !compact && (
                <button type="button" className="icon-button popout-button" title={t('workspace.popOut')} aria-label={t('workspace.popOut')} onClick={() => setPopped(type)}>
                  <ExternalLinkIcon size={14} />
                </button>
              )}
              {panel(type)}
            </div>
          );
        return createPortal(content, frame, type);
      })}
      {popped && (
        <PopoutWindow
          title={`${titles[popped]} · ${session?.name ?? ''}`}
          left={Math.max(0, window.screenX + window.outerWidth - POPOUT_SIZE.width - 40)}
          top={window.screenY + 80}
          width={POPOUT_SIZE.width}
          height={POPOUT_SIZE.height}
          onClose={() => setPopped(null)}
        >
          <div className="panel popout-panel">{panel(popped)}</div>
        </PopoutWindow>
      )}
    </div>
  );
}

import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { subPanelFor } from './navigation.ts';

// The session list brings the research machines with it: lazy, they are evaluated with the research
// screen, in a task of their own, rather than as part of the entry.
const SessionSidebar = lazy(() => import('../../panels/SessionSidebar.tsx').then((module) => ({ default: module.SessionSidebar })));
// Its own chunk: the search, extraction and synthesis controls load only where they are used.
const CognitionSidePanel = lazy(() => import('../../cognition/SidePanel.tsx').then((module) => ({ default: module.CognitionSidePanel })));
const TrajectoriesPanel = lazy(() => import('../../trajectories/TrajectoriesPanel.tsx').then((module) => ({ default: module.TrajectoriesPanel })));
const NoteSidebar = lazy(() => import('../../notes/NoteSidebar.tsx').then((module) => ({ default: module.NoteSidebar })));

/** The research sessions' list, in the sub-panel or (collapsed) in the narrow sidebar. */
export function ResearchSessions({ collapsed }: { collapsed: boolean }) {
  return (
    <Suspense fallback={null}>
      <SessionSidebar collapsed={collapsed} />
    </Suspense>
  );
}

/**
 * The per-route area of the expanded sidebar: the session sidebar on research, the note tree on
 * notes, the cognition side panel on cognition, the trajectory summary on the CLI pages.
 */
export function SubPanel() {
  const { t } = useTranslation();
  const location = useLocation();
  const kind = subPanelFor(location.pathname);
  if (kind === null) return <div className="sub-panel" />;
  return (
    <section className="sub-panel" aria-label={t(`subPanel.${kind}.title`)}>
      <h2 className="sub-panel-title">{t(`subPanel.${kind}.title`)}</h2>
      {kind === 'research' ? (
        <ResearchSessions collapsed={false} />
      ) : kind === 'cognition' ? (
        <Suspense fallback={null}>
          <CognitionSidePanel />
        </Suspense>
      ) : kind === 'note' ? (
        <Suspense fallback={null}>
          <NoteSidebar />
        </Suspense>
      ) : (
        <Suspense fallback={null}>
          <TrajectoriesPanel />
        </Suspense>
      )}
    </section>
  );
}

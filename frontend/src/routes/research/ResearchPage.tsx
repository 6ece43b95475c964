import { useDeferredValue, useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useAuth } from '../../app/auth/index.ts';
import { ResearchView } from '../../panels/ResearchView.tsx';
import { researchWorkspace, resetResearch, useActiveSession } from '../../research/live.ts';

/** /research: restores or creates the signed-in user's sessions and keeps conversation_id in the URL. */
export default function ResearchPage() {
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const session = useActiveSession();
  const urlId = params.get('conversation_id');

  useEffect(() => {
    if (!user) {
      resetResearch();
      return;
    }
    if (researchWorkspace.getSnapshot().matches('idle')) researchWorkspace.send({ type: 'research.start', urlId });
    // Startup reads the URL once; later URL changes come from switching, handled below.
  }, [user]);

  // A conversation_id typed or linked while the page is open selects (and if needed restores) it.
  useEffect(() => {
    const { context } = researchWorkspace.getSnapshot();
    if (user && urlId && researchWorkspace.getSnapshot().matches('running') && urlId !== context.activeId) researchWorkspace.send({ type: 'session.open', id: urlId });
  }, [urlId]);

  const activeId = session?.getSnapshot().context.id ?? null;
  useEffect(() => {
    if (!activeId) return;
    if (params.get('conversation_id') !== activeId) {
      const next = new URLSearchParams(params);
      next.set('conversation_id', activeId);
      setParams(next, { replace: true });
    }
  }, [activeId]);

  // The workspace follows the shown session in a transition: a session arriving or being switched
  // to re-renders every panel, which as an urgent update would be one long task.
  const shown = useDeferredValue(session);
  return <ResearchView session={shown} signedIn={user !== null} readOnly={false} />;
}

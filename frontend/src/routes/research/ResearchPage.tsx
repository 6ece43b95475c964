import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useAuth } from '../../app/auth/index.ts';
import { ResearchView } from '../../panels/ResearchView.tsx';
import { researchStore, useActiveSession } from '../../research/store.ts';

/** /research: restores or creates the signed-in user's sessions and keeps conversation_id in the URL. */
export default function ResearchPage() {
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const session = useActiveSession();
  const urlId = params.get('conversation_id');

  useEffect(() => {
    if (!user) {
      researchStore.reset();
      return;
    }
    void researchStore.start(urlId);
    // Startup reads the URL once; later URL changes come from switching, handled below.
  }, [user]);

  // A conversation_id typed or linked while the page is open selects (and if needed restores) it.
  useEffect(() => {
    if (user && urlId && researchStore.getSnapshot().started && urlId !== researchStore.getSnapshot().activeId) {
      void researchStore.loadRemote(urlId, true).catch((error: unknown) => researchStore.fail(error));
    }
  }, [urlId]);

  const activeId = session?.id ?? null;
  useEffect(() => {
    if (!activeId || session?.readOnly) return;
    if (params.get('conversation_id') !== activeId) {
      const next = new URLSearchParams(params);
      next.set('conversation_id', activeId);
      setParams(next, { replace: true });
    }
  }, [activeId]);

  return <ResearchView session={session?.readOnly ? null : session} signedIn={user !== null} readOnly={false} />;
}

import { useSelector } from '@xstate/react';
import { useDeferredValue, useEffect, useEffectEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useAuth } from '../app/auth/index.ts';
import { ResearchView } from '../panels/ResearchView.tsx';
import { researchWorkspace, resetResearch, useActiveSession } from './live.ts';
import { useToast } from '../ui/Toast.tsx';

/** /research: restores or creates the signed-in user's sessions and keeps conversation_id in the URL. */
export default function ResearchPage() {
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const session = useActiveSession();
  const urlId = params.get('conversation_id');

  // Startup reads the URL once; later URL changes come from switching, handled below.
  const start = useEffectEvent(() => {
    if (researchWorkspace.getSnapshot().matches('idle')) researchWorkspace.send({ type: 'research.start', urlId });
  });
  const signedIn = user !== null;
  useEffect(() => {
    if (signedIn) start();
    else resetResearch();
  }, [signedIn]);

  // A conversation_id typed or linked while the page is open selects (and if needed restores) it.
  const openFromUrl = useEffectEvent((id: string) => {
    const snapshot = researchWorkspace.getSnapshot();
    if (signedIn && snapshot.matches('running') && id !== snapshot.context.activeId) researchWorkspace.send({ type: 'session.open', id });
  });
  useEffect(() => {
    if (urlId) openFromUrl(urlId);
  }, [urlId]);

  // The URL follows the shown session, so a reload or a shared link opens it again.
  const showInUrl = useEffectEvent((id: string) => {
    if (params.get('conversation_id') === id) return;
    const next = new URLSearchParams(params);
    next.set('conversation_id', id);
    setParams(next, { replace: true });
  });
  const activeId = session?.getSnapshot().context.id ?? null;
  useEffect(() => {
    if (activeId) showInUrl(activeId);
  }, [activeId]);

  // The workspace follows the shown session in a transition: a session arriving or being switched
  // to re-renders every panel, which as an urgent update would be one long task.
  // A session that could not be opened (a link to one that is gone, or someone else's) or created is dropped; say why.
  const { t } = useTranslation();
  const toast = useToast();
  const failure = useSelector(researchWorkspace, (snapshot) => snapshot.context.error);
  const tell = useEffectEvent((description: string) => {
    toast({ title: t('workspace.sessionUnavailable'), description, tone: 'error' });
    researchWorkspace.send({ type: 'error.cleared' });
  });
  useEffect(() => {
    if (failure) tell(failure);
  }, [failure]);

  const deferred = useDeferredValue(session);
  // Until the transition lands, the deferred value may be a session just closed (or signed out of):
  // a stopped actor has no children left to render from, so the current session is shown instead.
  const shown = deferred?.getSnapshot().status === 'stopped' ? session : deferred;
  return <ResearchView session={shown} signedIn={signedIn} readOnly={false} />;
}

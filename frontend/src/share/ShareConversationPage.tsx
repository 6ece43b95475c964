import { useEffect } from 'react';
import { useActorRef } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { queryKeys, useApiQuery } from '../api/query.ts';
import { research } from '../api/research.ts';
import type { SharedConversation as SharedConversationReply } from '@scriptorium/domain/protocol/http/conversation';
import { PageLoading, ShareGone } from '../components/PageState.tsx';
import { ResearchView } from '../panels/ResearchView.tsx';
import { liveSessionMachine, useSession } from '../research/live.ts';
import { sharedSessionId } from '../research/sessions.ts';
import { HISTORY_PAGE } from '../research/conversation.ts';
import { InfoIcon } from '../ui/icons.ts';
import '../panels/research.css';
import { intlLocale } from '../i18n/language.ts';

/**
 * How often a shared research at work is read again. A visitor has no socket (the gateway serves
 * signed-in owners), so the link follows a running research by reading it again; the plan card plays
 * every step change it brings, one after another.
 */
const SHARED_REFRESH_MS = 2_000;

/** /share/conversation/:shareId — the research view, read-only, for anyone with the link. */
export default function ShareConversationPage() {
  const { shareId = '' } = useParams();
  const shared = useApiQuery({
    queryKey: queryKeys.sharedConversation(shareId),
    queryFn: () => research.shared(shareId, { limit: HISTORY_PAGE }),
    retry: false,
    refetchInterval: (query) => (query.state.data?.session.processing ? SHARED_REFRESH_MS : false),
  });

  if (shared.isPending) return <PageLoading />;
  if (shared.isError) return <ShareGone status={shared.error.status} />;
  return <SharedConversation key={shareId} share={shared.data} />;
}

/** The shared session as a read-only session actor of its own: the owner's open sessions are not touched. */
function SharedConversation({ share }: { share: SharedConversationReply }) {
  const { t, i18n } = useTranslation();
  // The owner may have this session open too; the shared copy has an id of its own.
  const sessionId = sharedSessionId(share.share_id);
  const session = useActorRef(liveSessionMachine, {
    input: { id: sessionId, readOnly: true, loaded: { dto: { ...share.session, session_id: sessionId }, history: { position: share.position ?? 0, messages: share.messages, earlier: share.earlier ?? null }, canvas: share.canvas } },
  });
  const context = useSession(session);
  // The session actor is made once from the first read; each later read is handed to it.
  useEffect(() => {
    session.send({ type: 'shared.refreshed', loaded: { dto: { ...share.session, session_id: sessionId }, history: { position: share.position ?? 0, messages: share.messages, earlier: share.earlier ?? null }, canvas: share.canvas } });
  }, [session, share, sessionId]);
  return (
    <div className="shared-page">
      {share.description && (
        <div className="shared-banner">
          <InfoIcon size={14} />
          <span>{share.description}</span>
          {share.expires_at && <span className="muted small">· {t('shared.expires', { date: new Date(share.expires_at).toLocaleDateString(intlLocale(i18n.language)) })}</span>}
        </div>
      )}
      <ResearchView session={session} signedIn={false} readOnly heading={share.title || context?.title || context?.name} />
    </div>
  );
}

import { lazy, Suspense } from 'react';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ResearchSessionRef } from '../machines/researchSession.ts';
import type { ShareDialogEvent } from '../machines/shareDialog.ts';
import { Share2Icon } from '../ui/icons.ts';
import './share.css';

const ShareSessionDialog = lazy(() => import('./ShareSessionDialog.tsx'));

/** The share button and its dialog (loaded on opening); all of its states live in the session's shareDialog child. */
export function ShareButton({ session, sessionName, sessionKnown, disabled }: { session: ResearchSessionRef; sessionName: string; sessionKnown: boolean; disabled: boolean }) {
  const { t } = useTranslation();
  const dialogActor = session.getSnapshot().children.shareDialog!;
  const snapshot = useSelector(dialogActor, (current) => current);
  const send = (event: ShareDialogEvent) => dialogActor.send(event);
  const sessionId = session.getSnapshot().context.id;
  const isOpen = !snapshot.matches('closed');

  return (
    <>
      <button type="button" className="button button-secondary button-small" disabled={disabled} onClick={() => send({ type: 'dialog.open', sessionId, sessionName, sessionKnown })}>
        <Share2Icon size={14} />
        <span className="sr-only-compact">{t('share.button')}</span>
      </button>
      {isOpen && (
        <Suspense fallback={null}>
          <ShareSessionDialog dialogActor={dialogActor} />
        </Suspense>
      )}
    </>
  );
}

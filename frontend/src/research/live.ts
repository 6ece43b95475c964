import { shallowEqual, useSelector } from '@xstate/react';
import { createActor, fromCallback, fromPromise, type EventObject } from 'xstate';
import type { ServerMessage } from '@scriptorium/domain/protocol/ws';
import { queryClient, queryKeys } from '../api/query.ts';
import { canvasMarkdown, downloadBlob, markdownToPdf, research, sharedCanvasPdf } from '../api/research.ts';
import type { History, Session } from '@scriptorium/domain/protocol/http/conversation';
import { clientId, socketClient } from '../api/socket.ts';
import { i18n } from '../i18n/index.ts';
import { canvasExportMachine, type ExportRequest } from '../machines/canvasExport.ts';
import { errorText } from '../machines/errorText.ts';
import { researchMachine, type StartupPlan } from '../machines/research.ts';
import { researchSessionMachine, type LoadedSession, type ResearchSessionContext, type ResearchSessionRef, type ResearchSessionSnapshot, type SettingChange } from '../machines/researchSession.ts';
import { shareDialogMachine, type ShareCreated, type ShareRequest } from '../machines/shareDialog.ts';
import { writingMachine, type CanvasSave, type SavedCanvas } from '../machines/writing.ts';
import { deliver, type SessionCommand } from './commands.ts';
import { HISTORY_PAGE } from './conversation.ts';
import { CURRENT_CONVERSATION_KEY, OPEN_SESSIONS_KEY, readOpenIds, shareIdOf, startupPlan } from './sessions.ts';

export const CLOUD_HISTORY_PAGE = 100;

/** HTTP forms of the session commands, used when the socket is down (spec §7). */
const overHttp = (sessionId: string, command: SessionCommand): Promise<unknown> => {
  switch (command.kind) {
    case 'user_input':
      return research.send(sessionId, command.content);
    case 'pause':
      return research.pause(sessionId);
    case 'resume':
      return research.resume(sessionId);
    case 'clarification_answer':
      return research.answerClarification(sessionId, command.answers);
    case 'feedback_response':
      return research.feedback(sessionId, command.option, command.text);
    case 'targeted_edit':
      return research.editRequest(sessionId, command.request);
  }
};

const transport = { socket: socketClient.send.bind(socketClient), http: overHttp };

const fileName = (title: string, version: number) => `${(title || 'report').replace(/[\\/:*?"<>|]+/g, '_')}-v${version}`;

async function exportCanvas(request: ExportRequest): Promise<void> {
  const name = fileName(request.title, request.version);
  if (request.kind === 'pdf') {
    const shareId = request.readOnly ? shareIdOf(request.sessionId) : null;
    downloadBlob(shareId ? await sharedCanvasPdf(shareId, request.version) : await markdownToPdf(request.content, `${name}.pdf`), `${name}.pdf`);
    return;
  }
  // A shared canvas has no owner's download; its text is the same as the server's.
  if (request.readOnly) {
    downloadBlob(new Blob([request.content], { type: 'text/markdown;charset=utf-8' }), `${name}.md`);
    return;
  }
  const file = await canvasMarkdown(request.sessionId, request.version);
  downloadBlob(file.blob, file.filename ?? `${name}.md`);
}

const saveSetting = ({ sessionId, change }: { sessionId: string; change: SettingChange }): Promise<unknown> => {
  switch (change.field) {
    case 'title':
      return research.setTitle(sessionId, change.value);
    case 'mode':
      return research.setMode(sessionId, change.value);
    case 'searchEnabled':
      return research.setSearch(sessionId, change.value);
  }
};

/** A session actor wired to the server, the socket, the clipboard and downloads. */
export const liveSessionMachine = researchSessionMachine.provide({
  actors: {
    loadSession: fromPromise<LoadedSession, { id: string }>(async ({ input }) => {
      const [dto, history, canvas] = await Promise.all([research.session(input.id), research.messages(input.id, { limit: HISTORY_PAGE }), research.canvas(input.id).catch(() => null)]);
      return { dto, history, canvas };
    }),
    // A page is read once per cursor: asking again (a remount, a second click) answers from the cache.
    loadEarlier: fromPromise<History, { id: string; before: string }>(({ input }) => {
      const shareId = shareIdOf(input.id);
      const page = { limit: HISTORY_PAGE, before: input.before };
      return queryClient.fetchQuery<History>({
        queryKey: queryKeys.historyPage(input.id, input.before),
        queryFn: () => (shareId ? research.shared(shareId, page).then((shared) => ({ position: shared.position ?? 0, messages: shared.messages, earlier: shared.earlier ?? null })) : research.messages(input.id, page)),
        staleTime: Number.POSITIVE_INFINITY,
      });
    }),
    subscription: fromCallback<EventObject, { id: string; position: () => number }>(({ input, sendBack }) => {
      const off = socketClient.register(input.id, { position: input.position, onMessage: (message: ServerMessage) => sendBack({ type: 'socket.message', message }) });
      if (socketClient.status() !== 'connected') socketClient.connect().catch(() => undefined);
      return off;
    }),
    deliver: fromCallback<EventObject, { id: string; sessionId: string; command: SessionCommand }>(({ input, sendBack }) => {
      deliver(transport, input.sessionId, input.command).then(
        () => sendBack({ type: 'command.delivered', id: input.id }),
        (error: unknown) => sendBack({ type: 'command.refused', id: input.id, message: errorText(error) }),
      );
    }),
    saveSetting: fromPromise<unknown, { sessionId: string; change: SettingChange }>(async ({ input }) => {
      await saveSetting(input);
      if (input.change.field === 'title') void queryClient.invalidateQueries({ queryKey: queryKeys.cloudHistory });
    }),
    writing: writingMachine.provide({
      actors: { saveCanvas: fromPromise<SavedCanvas, CanvasSave>(({ input }) => research.saveCanvas(input.sessionId, { content: input.content, from_version: input.fromVersion })) },
    }),
    canvasExport: canvasExportMachine.provide({ actors: { exportFile: fromPromise<void, ExportRequest>(({ input }) => exportCanvas(input)) } }),
    shareDialog: shareDialogMachine.provide({
      actors: {
        createShare: fromPromise<ShareCreated, ShareRequest>(async ({ input }) => {
          const created = await research.share(input);
          await queryClient.invalidateQueries({ queryKey: queryKeys.sessionShares(input.session_id) });
          return created;
        }),
        copyLink: fromPromise<void, { link: string }>(({ input }) => navigator.clipboard.writeText(input.link)),
      },
    }),
  },
});

const createSession = (): Promise<Session> =>
  research.createSession({ client_id: clientId(), name: i18n.t('session.defaultName'), mode: 1, search_enabled: true, layout_preset: 'home-welcome' });

/** The signed-in user's research workspace, one per page. */
export const researchWorkspace = createActor(
  researchMachine.provide({
    actors: {
      session: liveSessionMachine,
      startup: fromPromise<StartupPlan, { urlId: string | null }>(({ input }) =>
        startupPlan({
          urlId: input.urlId,
          localId: localStorage.getItem(CURRENT_CONVERSATION_KEY),
          openIds: readOpenIds(localStorage.getItem(OPEN_SESSIONS_KEY)),
          newestChat: async () => (await research.myChats(0, 1)).chats[0] ?? null,
        }),
      ),
      createSession: fromPromise<Session, void>(createSession),
    },
    actions: {
      remember: ({ context }) => {
        localStorage.setItem(OPEN_SESSIONS_KEY, JSON.stringify(context.sessions.map((ref) => ref.getSnapshot().context.id)));
        if (context.activeId) localStorage.setItem(CURRENT_CONVERSATION_KEY, context.activeId);
      },
      invalidateHistory: () => void queryClient.invalidateQueries({ queryKey: queryKeys.cloudHistory }),
    },
  }),
).start();

// Titles change on the server (a generated title, another tab's rename); the socket re-broadcasts them.
window.addEventListener('metadata_update', () => void queryClient.invalidateQueries({ queryKey: queryKeys.cloudHistory }));

/** Signing out forgets every open session (the next sign-in restores afresh) and the socket. */
export function resetResearch(): void {
  researchWorkspace.send({ type: 'research.reset' });
  socketClient.disconnect();
}

export const useResearchSessions = (): ResearchSessionRef[] => useSelector(researchWorkspace, (snapshot) => snapshot.context.sessions);

export const useActiveSession = (): ResearchSessionRef | null =>
  useSelector(researchWorkspace, (snapshot) => snapshot.context.sessions.find((ref) => ref.getSnapshot().context.id === snapshot.context.activeId) ?? null);

/** A session's whole context (or null without a session); re-renders on each change of it. */
export const useSession = (session: ResearchSessionRef | null): ResearchSessionContext | null => useSelector(session ?? undefined, (snapshot) => snapshot?.context ?? null);

/**
 * The part of a session a component shows (or null without a session). It re-renders only when a
 * field of what `select` returns changes, compared one level deep: a streamed chunk then re-renders
 * the chat stream, not the composer, the toolbar and every panel around them.
 */
export const useSessionView = <T extends object>(session: ResearchSessionRef | null, select: (snapshot: ResearchSessionSnapshot) => T): T | null =>
  useSelector(session ?? undefined, (snapshot) => (snapshot ? select(snapshot) : null), shallowEqual);

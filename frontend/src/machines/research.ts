import { assign, enqueueActions, fromPromise, setup, stopChild, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { Session } from '@scriptorium/domain/protocol/http/conversation';
import { closeTarget } from '../research/sessions.ts';
import { errorText } from './errorText.ts';
import { isRestoring, researchSessionMachine, type ResearchSessionRef, type SessionFailedEvent } from './researchSession.ts';

/** Spec §9: the pause after creating a session before its layout and stream are set up. */
export const NEW_SESSION_WAIT_MS = 500;

/** What startup restores: every session open before the reload, and which one was shown. */
export interface StartupPlan {
  ids: string[];
  active: string | null;
}

export interface ResearchContext {
  sessions: ResearchSessionRef[];
  activeId: string | null;
  /** A session just created, waiting out NEW_SESSION_WAIT_MS before it is shown. */
  created: Session | null;
  /** The last failure to tell the user about (creating or restoring a session). */
  error: string | null;
}

export type ResearchEvent =
  | { type: 'research.start'; urlId: string | null }
  | { type: 'research.reset' }
  | { type: 'session.create' }
  | { type: 'session.open'; id: string }
  | { type: 'session.switch'; id: string }
  | { type: 'session.close'; id: string }
  | { type: 'error.cleared' }
  | SessionFailedEvent;

const idOf = (ref: ResearchSessionRef): string => ref.getSnapshot().context.id;

/**
 * The research workspace: the open sessions (each a researchSession actor it owns), which one is
 * shown, startup restore and the session list's commands. What is open is remembered so a reload
 * opens it all again.
 */
export const researchMachine = setup({
  types: {
    context: {} as ResearchContext,
    events: {} as ResearchEvent,
  },
  actors: {
    session: researchSessionMachine,
    // The live wiring (research/live.ts) provides these calls.
    startup: fromPromise<StartupPlan, { urlId: string | null }>(() => Promise.resolve({ ids: [], active: null })),
    createSession: fromPromise<Session, void>(() => Promise.reject(new Error('creating is not available here'))),
  },
  delays: {
    newSessionWait: NEW_SESSION_WAIT_MS,
  },
  guards: {
    planned: ({ event }) => (event as unknown as { output: StartupPlan }).output.ids.length > 0,
    known: ({ context, event }) => 'id' in event && context.sessions.some((ref) => idOf(ref) === event.id),
    selectable: ({ context, event }) => 'id' in event && context.sessions.some((ref) => idOf(ref) === event.id && !isRestoring(ref.getSnapshot())),
    closable: ({ context, event }) => event.type === 'session.close' && context.sessions.length > 1,
    nothingLeft: ({ context }) => context.sessions.length === 0,
  },
  actions: {
    // Where the open sessions are remembered across reloads; the live wiring writes local storage.
    remember: () => undefined,
    invalidateHistory: () => undefined,
    open: assign(({ context, spawn }, params: { ids: string[]; active: string | null }) => {
      const known = new Set(context.sessions.map(idOf));
      const spawned = params.ids.filter((id) => !known.has(id)).map((id) => spawn('session', { id, input: { id } }) as ResearchSessionRef);
      return { sessions: [...context.sessions, ...spawned], activeId: params.active ?? context.activeId, error: null };
    }),
    showCreated: assign(({ context, spawn }) => {
      const dto = context.created;
      if (!dto) return {};
      const loaded = { dto, history: { position: 0, messages: [] }, canvas: null };
      return { sessions: [...context.sessions, spawn('session', { id: dto.session_id, input: { id: dto.session_id, loaded } }) as ResearchSessionRef], activeId: dto.session_id, created: null };
    }),
    stopSession: stopChild(({ context }, id: string) => context.sessions.find((candidate) => idOf(candidate) === id) ?? ''),
    dropSession: assign(({ context }, id: string) => {
      const target = closeTarget(context.sessions.map(idOf), id, context.activeId);
      return {
        sessions: context.sessions.filter((candidate) => idOf(candidate) !== id),
        activeId: target.kind === 'switch' ? target.id : target.kind === 'create' ? null : context.activeId,
      };
    }),
    forgetAll: assign({ sessions: [], activeId: null, created: null, error: null }),
    noteError: assign({ error: ({ event }) => errorText((event as { error?: unknown; message?: string }).error ?? (event as { message?: string }).message) }),
  },
}).createMachine({
  id: 'research',
  context: { sessions: [], activeId: null, created: null, error: null },
  initial: 'idle',
  on: {
    'research.reset': {
      target: '.idle',
      actions: [
        enqueueActions(({ context, enqueue }) => {
          for (const ref of context.sessions) enqueue.stopChild(ref);
        }),
        'forgetAll',
      ],
    },
    'error.cleared': { actions: assign({ error: null }) },
    // A session that could not be restored is dropped, and the user told why.
    'session.failed': { actions: [{ type: 'stopSession', params: ({ event }) => event.id }, { type: 'dropSession', params: ({ event }) => event.id }, 'remember', 'noteError'] },
  },
  states: {
    idle: {
      on: { 'research.start': 'starting' },
    },
    starting: {
      invoke: {
        src: 'startup',
        input: ({ event }) => ({ urlId: event.type === 'research.start' ? event.urlId : null }),
        onDone: [{ guard: 'planned', target: 'running', actions: [{ type: 'open', params: ({ event }) => event.output }, 'remember'] }, { target: 'creating' }],
        onError: 'creating',
      },
    },
    creating: {
      invoke: {
        src: 'createSession',
        onDone: { target: 'settling', actions: assign({ created: ({ event }) => event.output }) },
        onError: { target: 'running', actions: 'noteError' },
      },
    },
    settling: {
      after: { newSessionWait: { target: 'running', actions: ['showCreated', 'remember', 'invalidateHistory'] } },
    },
    running: {
      on: {
        'session.create': 'creating',
        'session.open': [
          { guard: 'selectable', actions: [assign({ activeId: ({ event }) => event.id }), 'remember'] },
          { guard: 'known' },
          { actions: [{ type: 'open', params: ({ event }) => ({ ids: [event.id], active: event.id }) }, 'remember'] },
        ],
        'session.switch': { guard: 'selectable', actions: [assign({ activeId: ({ event }) => event.id }), 'remember'] },
        'session.close': { guard: 'closable', actions: [{ type: 'stopSession', params: ({ event }) => event.id }, { type: 'dropSession', params: ({ event }) => event.id }, 'remember'] },
      },
      always: { guard: 'nothingLeft', target: 'creating' },
    },
  },
});

export type ResearchRef = ActorRefFrom<typeof researchMachine>;
export type ResearchSnapshot = SnapshotFrom<typeof researchMachine>;

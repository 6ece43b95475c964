import { assign, enqueueActions, fromCallback, fromPromise, not, sendParent, sendTo, setup, type ActorRefFrom, type EventObject, type SnapshotFrom } from 'xstate';
import type { ClarificationAnswer } from '@scriptorium/domain/protocol/research';
import type { WireContent } from '@scriptorium/domain/protocol/content';
import type { ServerMessage, WireAgent } from '@scriptorium/domain/protocol/ws';
import { refusalMessage } from '../api/client.ts';
import type { Canvas, CollaborationMode, History, LayoutPreset, Session } from '@scriptorium/domain/protocol/http/conversation';
import type { FeedbackOption } from '@scriptorium/domain/protocol/research';
import type { EditTarget, SessionCommand } from '../research/commands.ts';
import { applyMessage, applyMetadataPosition, applySubscribed, emptyConversation, fromHistory, prependEarlier, withNewestPage, type Conversation } from '../research/conversation.ts';
import { renamed } from '../research/sessions.ts';
import { canvasExportMachine } from './canvasExport.ts';
import { errorText } from './errorText.ts';
import { shareDialogMachine } from './shareDialog.ts';
import { newRequestId, targetedEditMachine } from './targetedEdit.ts';
import { writingEvent, writingMachine } from './writing.ts';

export interface OpenArtifact {
  filename: string;
  content: string;
  filetype: 'html' | 'markdown';
  /** The reply it came with, which is what a share of it points at. */
  messageId?: string;
}

/** A session as the server has it: its fields, its history and its canvas. */
export interface LoadedSession {
  dto: Session;
  history: History;
  canvas: Canvas | null;
}

export interface SessionFields {
  name: string;
  title: string | null;
  createdAt: string;
  mode: CollaborationMode;
  searchEnabled: boolean;
  layoutPreset: LayoutPreset;
}

/** A command sent and not yet seen in the conversation; `error` once it was refused. */
export interface PendingCommand {
  id: string;
  command: SessionCommand;
  error: string | null;
}

/** One setting saved on the server; the field as it was is put back if the save fails. */
export type SettingChange = { field: 'title'; value: string } | { field: 'mode'; value: CollaborationMode } | { field: 'searchEnabled'; value: boolean };

export interface ResearchSessionContext extends SessionFields {
  id: string;
  readOnly: boolean;
  conversation: Conversation;
  /** Stage 2 (spec §2) starts when an editor or an artifact is shown. */
  panel: 'canvas' | 'artifact' | null;
  /** How many times the reader asked to see a panel: on a phone, where panels are tabs, each request brings its tab forward. */
  panelRequests: number;
  artifact: OpenArtifact | null;
  outbox: PendingCommand[];
  /** Fields as they were before the setting being saved, to restore on failure. */
  before: Partial<SessionFields>;
  /** A session just created or shared comes with its state; it is applied once, then dropped. */
  preload: LoadedSession | null;
  /** The last failure not shown in the conversation (a setting, an upload); cleared by the next action. */
  error: string | null;
  /** Why the last "load earlier" failed; cleared when it is tried again. */
  earlierError: string | null;
}

export interface ResearchSessionInput {
  id: string;
  readOnly?: boolean;
  /** Given for a session just created or shared; otherwise it is loaded from the server. */
  loaded?: LoadedSession;
}

export type ResearchSessionEvent =
  | { type: 'socket.message'; message: ServerMessage }
  /** A read-only (shared) session read again: it has no socket, so this is how it follows a research at work. */
  | { type: 'shared.refreshed'; loaded: LoadedSession }
  /** The reader asks for the exchanges before the first one shown. */
  | { type: 'history.earlier' }
  | { type: 'conversation.send'; text: string }
  | { type: 'conversation.pause' }
  | { type: 'conversation.resume'; agent: WireAgent }
  | { type: 'clarification.answer'; answers: ClarificationAnswer[] }
  | { type: 'feedback.give'; option: FeedbackOption; text?: string }
  | ({ type: 'edit.request'; text: string; snippet: string } & EditTarget)
  /** From a child (the targeted edit) that wants a command delivered. */
  | { type: 'command.deliver'; command: SessionCommand }
  | { type: 'command.delivered'; id: string }
  | { type: 'command.refused'; id: string; message: string }
  /** A message that could not be sent, sent again or let go by the user. */
  | { type: 'command.retry'; id: string }
  | { type: 'command.discard'; id: string }
  | { type: 'settings.rename'; input: string }
  | { type: 'settings.mode'; mode: CollaborationMode }
  | { type: 'settings.search' }
  | { type: 'panel.canvas'; open: boolean }
  | { type: 'panel.artifact'; artifact: OpenArtifact | null }
  | { type: 'layout.preset'; preset: LayoutPreset }
  | { type: 'error.shown'; message: string }
  | { type: 'error.cleared' };

/** What the parent hears when a session could not be loaded. */
export type SessionFailedEvent = { type: 'session.failed'; id: string; message: string };

export const agentFor = (mode: CollaborationMode) => (mode === 0 ? ('poe_llm' as const) : ('deep_cognition' as const));

const fieldsOf = (dto: Session): SessionFields => ({
  name: dto.name,
  title: dto.title,
  createdAt: dto.created_at,
  mode: dto.collaboration_mode,
  searchEnabled: dto.search_enabled,
  layoutPreset: dto.message_count > 0 ? 'chat-interface-only' : dto.layout_preset,
});

/** The echo in the conversation that shows a command arrived: it is then no longer pending. */
function acknowledges(pending: SessionCommand, content: WireContent): boolean {
  switch (pending.kind) {
    case 'user_input':
      return content.content_type === 'user_input' && content.content.trim() === pending.content;
    case 'clarification_answer':
    case 'feedback_response':
      return content.content_type === pending.kind;
    case 'targeted_edit':
      return content.message_id === pending.request.request_id && (content.content_type === 'targeted_edit_result' || content.content_type === 'error');
    case 'pause':
      return false;
    case 'resume':
      return content.content_type === 'message_start';
  }
}

/** The socket says which content type it refused; the newest pending command of that type is the one. */
const contentTypeOf = (command: SessionCommand): string => command.kind;

let commandSerial = 0;
const nextCommandId = () => `command-${++commandSerial}`;

const canvasShown = (loaded: LoadedSession): boolean => (loaded.canvas?.versions.length ?? 0) > 0 || loaded.history.messages.some((message) => message.status === 'streaming' && message.contents.some((item) => item.content_type === 'writing_start'));

export const researchSessionMachine = setup({
  types: {
    context: {} as ResearchSessionContext,
    events: {} as ResearchSessionEvent,
    input: {} as ResearchSessionInput,
    children: {} as { writing: 'writing'; targetedEdit: 'targetedEdit'; canvasExport: 'canvasExport'; shareDialog: 'shareDialog' },
  },
  actors: {
    // The live wiring (research/live.ts) provides the server calls and the socket.
    loadSession: fromPromise<LoadedSession, { id: string }>(() => Promise.reject(new Error('loading is not available here'))),
    loadEarlier: fromPromise<History, { id: string; before: string }>(() => Promise.reject(new Error('loading is not available here'))),
    subscription: fromCallback<EventObject, { id: string; position: () => number }>(() => undefined),
    deliver: fromCallback<EventObject, { id: string; sessionId: string; command: SessionCommand }>(({ input, sendBack }) => sendBack({ type: 'command.refused', id: input.id, message: 'sending is not available here' })),
    saveSetting: fromPromise<unknown, { sessionId: string; change: SettingChange }>(() => Promise.reject(new Error('saving is not available here'))),
    writing: writingMachine,
    targetedEdit: targetedEditMachine,
    canvasExport: canvasExportMachine,
    shareDialog: shareDialogMachine,
  },
  guards: {
    readOnly: ({ context }) => context.readOnly,
    preloaded: ({ context }) => context.preload !== null,
    hasEarlier: ({ context }) => context.conversation.earlier !== null,
    sendable: ({ context, event }) => event.type === 'conversation.send' && !context.readOnly && event.text.trim() !== '',
    renames: ({ context, event }) => event.type === 'settings.rename' && renamed(context.title || context.name, event.input) !== null,
  },
  actions: {
    hydrate: enqueueActions(({ context, enqueue }, loaded: LoadedSession) => {
      enqueue.assign({ ...fieldsOf(loaded.dto), conversation: fromHistory(loaded.history, loaded.dto.processing), panel: canvasShown(loaded) ? 'canvas' : context.panel });
      for (const message of loaded.history.messages) {
        for (const content of message.contents) {
          const event = writingEvent(content);
          if (event) enqueue.sendTo('writing', event);
        }
      }
      if (loaded.canvas && loaded.canvas.versions.length > 0) enqueue.sendTo('writing', { type: 'canvas.loaded', versions: loaded.canvas.versions, currentVersion: loaded.canvas.currentVersion });
    }),
    refresh: enqueueActions(({ context, enqueue }, loaded: LoadedSession) => {
      if (loaded.history.position <= context.conversation.position) return;
      // The text being written is not followed between reads: the canvas opens with the first version saved.
      const saved = loaded.canvas !== null && loaded.canvas.versions.length > 0;
      enqueue.assign({ conversation: withNewestPage(context.conversation, fromHistory(loaded.history, loaded.dto.processing)), panel: saved ? 'canvas' : context.panel });
      if (saved) enqueue.sendTo('writing', { type: 'canvas.loaded', versions: loaded.canvas!.versions, currentVersion: loaded.canvas!.currentVersion });
    }),
    receive: enqueueActions(({ context, enqueue }, message: ServerMessage) => {
      if (message.type === 'subscribed') {
        enqueue.assign({ conversation: applySubscribed(context.conversation, message) });
        return;
      }
      if (message.type === 'metadata_update') {
        const fields = message.updated_fields;
        enqueue.assign({
          conversation: applyMetadataPosition(context.conversation, message),
          ...(fields.name !== undefined && { name: fields.name }),
          ...(fields.title !== undefined && { title: fields.title }),
          ...(fields.collaboration_mode !== undefined && { mode: fields.collaboration_mode }),
          ...(fields.search_enabled !== undefined && { searchEnabled: fields.search_enabled }),
        });
        return;
      }
      if (message.type === 'error') {
        // A refusal of something this session sent: the newest pending command of that type.
        const refused = [...context.outbox].reverse().find((pending) => pending.error === null && (message.content_type === undefined || contentTypeOf(pending.command) === message.content_type));
        if (refused) enqueue.raise({ type: 'command.refused', id: refused.id, message: refusalMessage(message) });
        else enqueue.assign({ error: refusalMessage(message) });
        return;
      }
      if (message.type !== 'message') return;
      const next = applyMessage(context.conversation, message);
      if (next === context.conversation) return;
      const content = message.content;
      const answered = context.outbox.filter((pending) => acknowledges(pending.command, content));
      const artifact = content.content_type === 'artifact_complete' ? { filename: content.filename, content: content.content, filetype: content.filetype, messageId: content.message_id } : null;
      enqueue.assign({
        conversation: next,
        outbox: context.outbox.filter((pending) => !answered.includes(pending)),
        ...(content.content_type === 'writing_start' && context.panel !== 'artifact' && { panel: 'canvas' as const }),
        ...(artifact && { artifact, panel: 'artifact' as const }),
        ...(context.layoutPreset === 'home-welcome' && { layoutPreset: 'chat-interface-only' as const }),
      });
      const event = writingEvent(content);
      if (event) enqueue.sendTo('writing', event);
      if (answered.some((pending) => pending.command.kind === 'targeted_edit')) {
        enqueue.sendTo('targetedEdit', { type: 'edit.answered', requestId: content.message_id, error: content.content_type === 'error' ? refusalMessage(content) : null });
      }
    }),
    send: enqueueActions(({ context, enqueue }, command: SessionCommand) => {
      const id = nextCommandId();
      enqueue.assign({ outbox: [...context.outbox, { id, command, error: null }], error: null });
      enqueue.spawnChild('deliver', { id, input: { id, sessionId: context.id, command } });
    }),
    /** In place, under a new id: a refused command never reached the server (had it, its echo would have settled it). */
    retry: enqueueActions(({ context, enqueue }, id: string) => {
      const failed = context.outbox.find((pending) => pending.id === id && pending.error !== null);
      if (!failed) return;
      const next = nextCommandId();
      enqueue.assign({ outbox: context.outbox.map((pending) => (pending === failed ? { id: next, command: failed.command, error: null } : pending)), error: null });
      enqueue.spawnChild('deliver', { id: next, input: { id: next, sessionId: context.id, command: failed.command } });
    }),
    settle: assign(({ context }, id: string) => ({ outbox: context.outbox.filter((pending) => pending.id !== id || pending.command.kind !== 'pause') })),
    refuse: enqueueActions(({ context, enqueue }, refusal: { id: string; message: string }) => {
      const refused = context.outbox.find((pending) => pending.id === refusal.id);
      if (!refused) return;
      // A refused pause or resume is nothing to keep in the conversation; the rest stay, with why.
      const control = refused.command.kind === 'pause' || refused.command.kind === 'resume';
      enqueue.assign({
        outbox: control ? context.outbox.filter((pending) => pending !== refused) : context.outbox.map((pending) => (pending === refused ? { ...pending, error: refusal.message } : pending)),
        ...(control && { error: refusal.message }),
      });
      if (refused.command.kind === 'targeted_edit') enqueue.sendTo('targetedEdit', { type: 'edit.refused', message: refusal.message });
    }),
    change: assign(({ context }, change: SettingChange) => ({
      before: { [change.field]: context[change.field], ...(change.field === 'title' && { name: context.name }) },
      [change.field]: change.value,
      ...(change.field === 'title' && { name: change.value }),
      error: null,
    })),
    restore: assign(({ context, event }) => ({ ...context.before, before: {}, error: errorText((event as { error?: unknown }).error) })),
    forget: assign({ before: {} }),
    failed: sendParent(({ context, event }): SessionFailedEvent => ({ type: 'session.failed', id: context.id, message: errorText((event as { error?: unknown }).error) })),
  },
}).createMachine({
  id: 'researchSession',
  context: ({ input }) => ({
    id: input.id,
    readOnly: input.readOnly ?? false,
    name: '',
    title: null,
    createdAt: new Date().toISOString(),
    mode: 1,
    searchEnabled: true,
    layoutPreset: 'chat-interface-only',
    conversation: emptyConversation(),
    panel: null,
    panelRequests: 0,
    artifact: null,
    outbox: [],
    before: {},
    preload: input.loaded ?? null,
    error: null,
    earlierError: null,
  }),
  entry: [
    enqueueActions(({ enqueue, context }) => {
      enqueue.spawnChild('writing', { id: 'writing', input: { sessionId: context.id } });
      enqueue.spawnChild('targetedEdit', { id: 'targetedEdit' });
      enqueue.spawnChild('canvasExport', { id: 'canvasExport' });
      enqueue.spawnChild('shareDialog', { id: 'shareDialog' });
    }),
  ],
  initial: 'starting',
  states: {
    starting: {
      always: [
        { guard: 'preloaded', target: 'ready', actions: [{ type: 'hydrate', params: ({ context }) => context.preload! }, assign({ preload: null })] },
        { target: 'loading' },
      ],
    },
    loading: {
      invoke: {
        src: 'loadSession',
        input: ({ context }) => ({ id: context.id }),
        onDone: { target: 'ready', actions: { type: 'hydrate', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: 'failed' },
      },
    },
    failed: { type: 'final' },
    ready: {
      type: 'parallel',
      on: {
        'socket.message': { actions: { type: 'receive', params: ({ event }) => event.message } },
        'shared.refreshed': { guard: 'readOnly', actions: { type: 'refresh', params: ({ event }) => event.loaded } },
        'conversation.send': {
          guard: 'sendable',
          actions: [
            { type: 'send', params: ({ context, event }) => ({ kind: 'user_input', agent: agentFor(context.mode), content: event.text.trim() }) },
            assign({ layoutPreset: 'chat-interface-only' }),
          ],
        },
        'conversation.pause': { actions: { type: 'send', params: ({ context }) => ({ kind: 'pause', agent: agentFor(context.mode) }) } },
        'conversation.resume': { guard: not('readOnly'), actions: { type: 'send', params: ({ event }) => ({ kind: 'resume', agent: event.agent }) } },
        'clarification.answer': { actions: { type: 'send', params: ({ event }) => ({ kind: 'clarification_answer', answers: event.answers }) } },
        'feedback.give': { actions: { type: 'send', params: ({ event }) => ({ kind: 'feedback_response', option: event.option, ...(event.text !== undefined && { text: event.text }) }) } },
        'edit.request': {
          actions: sendTo('targetedEdit', ({ event }) => ({ type: 'edit.submit' as const, request: { request_id: newRequestId(), text: event.text, snippet: event.snippet, offset: event.offset, version: event.version } })),
        },
        'command.deliver': { actions: { type: 'send', params: ({ event }) => event.command } },
        'command.delivered': { actions: { type: 'settle', params: ({ event }) => event.id } },
        'command.refused': { actions: { type: 'refuse', params: ({ event }) => event } },
        'command.retry': { actions: { type: 'retry', params: ({ event }) => event.id } },
        'command.discard': { actions: assign({ outbox: ({ context, event }) => context.outbox.filter((pending) => pending.id !== event.id || pending.error === null) }) },
        'panel.canvas': { actions: assign(({ context, event }) => ({ panel: event.open ? 'canvas' : null, panelRequests: context.panelRequests + (event.open ? 1 : 0) })) },
        'panel.artifact': { actions: assign(({ context, event }) => ({ artifact: event.artifact, panel: event.artifact ? 'artifact' : null, panelRequests: context.panelRequests + (event.artifact ? 1 : 0) })) },
        'layout.preset': { actions: assign({ layoutPreset: ({ event }) => event.preset }) },
        'error.shown': { actions: assign({ error: ({ event }) => event.message }) },
        'error.cleared': { actions: assign({ error: null }) },
      },
      states: {
        link: {
          initial: 'choosing',
          states: {
            choosing: { always: [{ guard: 'readOnly', target: 'none' }, { target: 'subscribed' }] },
            // Subscribed while the session is open; the socket resubscribes it after every reconnect.
            subscribed: {
              invoke: { src: 'subscription', input: ({ context, self }) => ({ id: context.id, position: () => self.getSnapshot().context.conversation.position }) },
            },
            none: {},
          },
        },
        // Earlier exchanges, a page at a time, put before those shown; the stream goes on meanwhile.
        earlier: {
          initial: 'idle',
          states: {
            idle: {
              on: { 'history.earlier': { guard: 'hasEarlier', target: 'loading', actions: assign({ earlierError: null }) } },
            },
            loading: {
              invoke: {
                src: 'loadEarlier',
                input: ({ context }) => ({ id: context.id, before: context.conversation.earlier! }),
                onDone: { target: 'idle', actions: assign({ conversation: ({ context, event }) => prependEarlier(context.conversation, event.output) }) },
                onError: { target: 'idle', actions: assign({ earlierError: ({ event }) => errorText(event.error) }) },
              },
            },
          },
        },
        settings: {
          initial: 'idle',
          on: {
            'settings.rename': { guard: 'renames', target: '.saving', reenter: true, actions: { type: 'change', params: ({ context, event }) => ({ field: 'title', value: renamed(context.title || context.name, event.input)! }) } },
            'settings.mode': { target: '.saving', reenter: true, actions: { type: 'change', params: ({ event }) => ({ field: 'mode', value: event.mode }) } },
            'settings.search': { target: '.saving', reenter: true, actions: { type: 'change', params: ({ context }) => ({ field: 'searchEnabled', value: !context.searchEnabled }) } },
          },
          states: {
            idle: {},
            saving: {
              invoke: {
                src: 'saveSetting',
                input: ({ context, event }) => ({ sessionId: context.id, change: changeOf(context, event) }),
                onDone: { target: 'idle', actions: 'forget' },
                onError: { target: 'idle', actions: 'restore' },
              },
            },
          },
        },
      },
    },
  },
});

function changeOf(context: ResearchSessionContext, event: ResearchSessionEvent): SettingChange {
  if (event.type === 'settings.mode') return { field: 'mode', value: context.mode };
  if (event.type === 'settings.search') return { field: 'searchEnabled', value: context.searchEnabled };
  return { field: 'title', value: context.title ?? context.name };
}

export type ResearchSessionRef = ActorRefFrom<typeof researchSessionMachine>;

/** A session still being restored cannot be selected (spec §2). */
export const isRestoring = (snapshot: { matches(state: 'loading' | 'starting'): boolean }): boolean => snapshot.matches('loading') || snapshot.matches('starting');
export type ResearchSessionSnapshot = SnapshotFrom<typeof researchSessionMachine>;

import { assign, fromPromise, setup } from 'xstate';
import type { ConversationShareBody, ConversationShared } from '@scriptorium/domain/protocol/http/conversation';

/** What the dialog asks the server to share, every field given (the route's body, `POST /conversation/sessions/share`). */
export type ShareRequest = Required<ConversationShareBody>;
/** What the dialog reads of the server's answer. */
export type ShareCreated = Pick<ConversationShared, 'share_id'>;

/** i18n keys under `share.`; `detail` is the server's own words when it gave any. */
export type ShareMessage = { key: 'created' | 'copied' | 'copyFailed' | 'createFailed' | 'revoked' | 'revokeFailed' | 'noActiveSession' | 'sessionMissing'; detail?: string };

export interface ShareDialogContext {
  sessionId: string | null;
  /** Whether the session is among the open ones; sharing an unknown one is refused. */
  sessionKnown: boolean;
  sessionName: string;
  title: string;
  description: string;
  expiresDays: number | null;
  includePrivate: boolean;
  message: ShareMessage | null;
  /** The link made last in this dialog: the list shows it first and its copy button takes the focus. */
  createdId: string | null;
}

/**
 * The session's links themselves are server data (the `sessionShares` query, revoked there too);
 * this machine holds the form, the create and copy steps, and the one line that says how they went.
 */
export type ShareDialogEvent =
  | { type: 'dialog.open'; sessionId: string | null; sessionName: string; sessionKnown: boolean }
  | { type: 'dialog.close' }
  | { type: 'field.title'; value: string }
  | { type: 'field.description'; value: string }
  | { type: 'field.expiry'; value: number | null }
  | { type: 'field.includePrivate'; value: boolean }
  | { type: 'link.create' }
  | { type: 'link.copy'; link: string }
  | { type: 'link.revoked' }
  | { type: 'link.revokeFailed'; detail?: string };

const emptyFields = (sessionName: string) => ({ title: sessionName, description: '', expiresDays: null, includePrivate: false, message: null, createdId: null });

const detailOf = (error: unknown): string | undefined => {
  const detail = (error as { detail?: unknown; userMessage?: unknown } | null)?.detail ?? (error as { userMessage?: unknown } | null)?.userMessage;
  return typeof detail === 'string' && detail !== '' ? detail : undefined;
};

export const shareDialogMachine = setup({
  types: {
    context: {} as ShareDialogContext,
    events: {} as ShareDialogEvent,
  },
  actors: {
    // Provided by the dialog: POST /conversation/sessions/share (refreshing the session's links), and the clipboard.
    createShare: fromPromise<ShareCreated, ShareRequest>(() => Promise.reject(new Error('createShare not provided'))),
    copyLink: fromPromise<void, { link: string }>(() => Promise.reject(new Error('copyLink not provided'))),
  },
  guards: {
    noActiveSession: ({ context }) => context.sessionId === null,
    sessionMissing: ({ context }) => !context.sessionKnown,
  },
  actions: {
    openFor: assign(({ event }) => (event.type === 'dialog.open' ? { sessionId: event.sessionId, sessionName: event.sessionName, sessionKnown: event.sessionKnown, ...emptyFields(event.sessionName) } : {})),
    reset: assign(({ context }) => emptyFields(context.sessionName)),
    setTitle: assign({ title: ({ context, event }) => (event.type === 'field.title' ? event.value : context.title) }),
    setDescription: assign({ description: ({ context, event }) => (event.type === 'field.description' ? event.value : context.description) }),
    setExpiry: assign({ expiresDays: ({ context, event }) => (event.type === 'field.expiry' ? event.value : context.expiresDays) }),
    setIncludePrivate: assign({ includePrivate: ({ context, event }) => (event.type === 'field.includePrivate' ? event.value : context.includePrivate) }),
    refuseNoSession: assign({ message: { key: 'noActiveSession' } as ShareMessage }),
    refuseMissing: assign({ message: { key: 'sessionMissing' } as ShareMessage }),
    clearMessage: assign({ message: null }),
  },
}).createMachine({
  id: 'shareDialog',
  context: { sessionId: null, sessionKnown: false, sessionName: '', ...emptyFields('') },
  initial: 'closed',
  states: {
    closed: {
      on: { 'dialog.open': { target: 'open', actions: 'openFor' } },
    },
    open: {
      on: {
        'dialog.close': { target: 'closed', actions: 'reset' },
        'link.revoked': { actions: assign({ message: { key: 'revoked' } as ShareMessage, createdId: null }) },
        'link.revokeFailed': { actions: assign({ message: ({ event }) => ({ key: 'revokeFailed', ...(event.detail !== undefined && { detail: event.detail }) }) as ShareMessage }) },
      },
      initial: 'editing',
      states: {
        editing: {
          on: {
            'field.title': { actions: 'setTitle' },
            'field.description': { actions: 'setDescription' },
            'field.expiry': { actions: 'setExpiry' },
            'field.includePrivate': { actions: 'setIncludePrivate' },
            'link.create': [
              { guard: 'noActiveSession', actions: 'refuseNoSession' },
              { guard: 'sessionMissing', actions: 'refuseMissing' },
              { target: 'creating', actions: 'clearMessage' },
            ],
            'link.copy': 'copying',
          },
        },
        creating: {
          invoke: {
            src: 'createShare',
            input: ({ context }) => ({
              session_id: context.sessionId ?? '',
              title: context.title.trim(),
              description: context.description.trim(),
              expires_days: context.expiresDays,
              include_private: context.includePrivate,
            }),
            onDone: {
              target: 'editing',
              actions: assign({ createdId: ({ event }) => event.output.share_id, message: { key: 'created' } as ShareMessage }),
            },
            onError: {
              target: 'editing',
              actions: assign({ message: ({ event }) => ({ key: 'createFailed', ...(detailOf(event.error) !== undefined && { detail: detailOf(event.error) }) }) as ShareMessage }),
            },
          },
        },
        copying: {
          invoke: {
            src: 'copyLink',
            input: ({ event }) => ({ link: event.type === 'link.copy' ? event.link : '' }),
            onDone: { target: 'editing', actions: assign({ message: { key: 'copied' } as ShareMessage }) },
            onError: { target: 'editing', actions: assign({ message: { key: 'copyFailed' } as ShareMessage }) },
          },
        },
      },
    },
  },
});

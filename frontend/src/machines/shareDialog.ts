import { assign, fromPromise, setup } from 'xstate';

export interface ShareRequest {
  session_id: string;
  title: string;
  description: string;
  /** null: the link never expires (the spec's default). */
  expires_days: number | null;
  /** Show the private notes and cognitions the research found, not only what the report cites. */
  include_private: boolean;
}

/** i18n keys under `share.`; `detail` is the server's own words when it gave any. */
export type ShareMessage = { key: 'created' | 'existing' | 'copied' | 'copyFailed' | 'createFailed' | 'noActiveSession' | 'sessionMissing'; detail?: string };

/** A conversation link of the session that is still open (neither revoked nor expired), newest first. */
export interface OpenShare {
  share_id: string;
  title: string;
  description: string;
}

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
  link: string;
}

export type ShareDialogEvent =
  | { type: 'dialog.open'; sessionId: string | null; sessionName: string; sessionKnown: boolean }
  | { type: 'dialog.close' }
  | { type: 'field.title'; value: string }
  | { type: 'field.description'; value: string }
  | { type: 'field.expiry'; value: number | null }
  | { type: 'field.includePrivate'; value: boolean }
  | { type: 'link.create' }
  | { type: 'link.another' }
  | { type: 'link.copy' };

const emptyFields = (sessionName: string) => ({ title: sessionName, description: '', expiresDays: null, includePrivate: false, message: null, link: '' });

const linkTo = (shareId: string): string => `${globalThis.location?.origin ?? ''}/share/conversation/${shareId}`;

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
    // Provided by the dialog: the session's open link (GET /conversation/api/research/share/{id}),
    // POST /conversation/sessions/share, and the clipboard.
    findShare: fromPromise<OpenShare | null, { sessionId: string }>(async () => null),
    createShare: fromPromise<{ share_id: string }, ShareRequest>(() => Promise.reject(new Error('createShare not provided'))),
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
      on: { 'dialog.close': { target: 'closed', actions: 'reset' } },
      initial: 'checking',
      states: {
        // A link made earlier is shown again rather than a blank form that would make a second one.
        checking: {
          always: [{ guard: 'noActiveSession', target: 'editing' }, { guard: 'sessionMissing', target: 'editing' }],
          invoke: {
            src: 'findShare',
            input: ({ context }) => ({ sessionId: context.sessionId ?? '' }),
            onDone: [
              {
                guard: ({ event }) => event.output !== null,
                target: 'created',
                actions: assign(({ event }) => {
                  const share = event.output!;
                  return { link: linkTo(share.share_id), title: share.title, description: share.description, message: { key: 'existing' } as ShareMessage };
                }),
              },
              { target: 'editing' },
            ],
            onError: { target: 'editing' },
          },
        },
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
              target: 'created',
              actions: assign({ link: ({ event }) => linkTo(event.output.share_id), message: { key: 'created' } as ShareMessage }),
            },
            onError: {
              target: 'editing',
              actions: assign({ message: ({ event }) => ({ key: 'createFailed', ...(detailOf(event.error) !== undefined && { detail: detailOf(event.error) }) }) as ShareMessage }),
            },
          },
        },
        created: {
          on: { 'link.another': { target: 'editing', actions: 'reset' } },
          initial: 'idle',
          states: {
            idle: { on: { 'link.copy': 'copying' } },
            copying: {
              invoke: {
                src: 'copyLink',
                input: ({ context }) => ({ link: context.link }),
                onDone: { target: 'idle', actions: assign({ message: { key: 'copied' } as ShareMessage }) },
                onError: { target: 'idle', actions: assign({ message: { key: 'copyFailed' } as ShareMessage }) },
              },
            },
          },
        },
      },
    },
  },
});

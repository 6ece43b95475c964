import { assign, fromPromise, setup } from 'xstate';
import { waitSeconds } from './emailVerification.ts';

export const RESEND_SECONDS = 120;
const TICK_MS = 1000;

/** i18n keys under `account:verify.messages`; `detail` is the server's own words when it gave any. */
export type CodeRequestMessage = { key: 'sent' | 'alreadySent' | 'sendFailed'; detail?: string };

export interface CodeRequestContext {
  secondsLeft: number;
  message: CodeRequestMessage | null;
}

export type CodeRequestEvent = { type: 'code.send'; email: string };

const detailOf = (error: unknown): string | undefined => {
  const detail = (error as { detail?: unknown } | null)?.detail;
  return typeof detail === 'string' && detail.trim() !== '' ? detail : undefined;
};

/** The registration form's "send code" button: one request, then 120 seconds before the next. */
export const codeRequestMachine = setup({
  types: {
    context: {} as CodeRequestContext,
    events: {} as CodeRequestEvent,
  },
  actors: {
    // Provided by the form: POST /auth/send-verification-email.
    sendCode: fromPromise<unknown, { email: string }>(() => Promise.reject(new Error('sendCode not provided'))),
  },
  delays: {
    tick: TICK_MS,
  },
  guards: {
    hasEmail: ({ event }) => event.email.trim() !== '',
    countdownOver: ({ context }) => context.secondsLeft <= 1,
    alreadySent: ({ event }) => waitSeconds((event as { error?: unknown }).error) !== null,
  },
  actions: {
    startCountdown: assign({ secondsLeft: RESEND_SECONDS, message: { key: 'sent' } as CodeRequestMessage }),
    resumeCountdown: assign({ secondsLeft: ({ event }) => waitSeconds((event as { error?: unknown }).error) ?? 0, message: { key: 'alreadySent' } as CodeRequestMessage }),
    tick: assign({ secondsLeft: ({ context }) => context.secondsLeft - 1 }),
    endCountdown: assign({ secondsLeft: 0 }),
    clearMessage: assign({ message: null }),
    reportFailure: assign({
      message: ({ event }) => {
        const detail = detailOf((event as { error?: unknown }).error);
        return (detail === undefined ? { key: 'sendFailed' } : { key: 'sendFailed', detail }) as CodeRequestMessage;
      },
    }),
  },
}).createMachine({
  id: 'codeRequest',
  context: { secondsLeft: 0, message: null },
  initial: 'ready',
  states: {
    ready: {
      on: { 'code.send': { guard: 'hasEmail', target: 'sending', actions: 'clearMessage' } },
    },
    sending: {
      invoke: {
        src: 'sendCode',
        input: ({ event }) => ({ email: (event as CodeRequestEvent).email.trim() }),
        onDone: { target: 'coolingDown', actions: 'startCountdown' },
        // The page was left and opened again within the countdown: the code already mailed stands.
        onError: [
          { guard: 'alreadySent', target: 'coolingDown', actions: 'resumeCountdown' },
          { target: 'ready', actions: 'reportFailure' },
        ],
      },
    },
    coolingDown: {
      after: {
        tick: [
          { guard: 'countdownOver', target: 'ready', actions: 'endCountdown' },
          { target: 'coolingDown', reenter: true, actions: 'tick' },
        ],
      },
    },
  },
});

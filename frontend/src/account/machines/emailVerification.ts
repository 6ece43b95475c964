import { assign, fromPromise, setup } from 'xstate';
import { CODE_LENGTH } from '@scriptorium/domain/protocol/limits';

export const RESEND_SECONDS = 120;
const TICK_MS = 1000;

/** i18n keys under `account:verify.messages`; `detail` is the server's own words when it gave any. */
export type VerificationMessage = { key: 'sent' | 'alreadySent' | 'sendFailed' | 'invalidCode' | 'verifyFailed' | 'enterCode' | 'verified'; detail?: string };

export interface VerificationContext {
  email: string;
  code: string;
  secondsLeft: number;
  message: VerificationMessage | null;
}

export type VerificationEvent = { type: 'code.change'; value: string } | { type: 'code.resend' } | { type: 'code.verify' };

/** The input holds digits only, at most six: anything else typed or pasted is dropped. */
export const sanitiseCode = (value: string): string => value.replace(/\D/g, '').slice(0, CODE_LENGTH);

export const isCompleteCode = (code: string): boolean => new RegExp(`^\\d{${CODE_LENGTH}}$`).test(code);

interface Failure {
  status?: unknown;
  detail?: unknown;
}

const detailOf = (error: unknown): string | undefined => {
  const detail = (error as Failure | null)?.detail;
  return typeof detail === 'string' && detail.trim() !== '' ? detail : undefined;
};

const withDetail = (key: VerificationMessage['key'], error: unknown): VerificationMessage => {
  const detail = detailOf(error);
  return detail === undefined ? { key } : { key, detail };
};

/** The seconds a "too soon" refusal asks to wait: a code was mailed moments ago and still stands. */
export const waitSeconds = (error: unknown): number | null => {
  const { code, params } = (error ?? {}) as { code?: unknown; params?: { seconds?: unknown } };
  return code === 'auth.resend_too_soon' && typeof params?.seconds === 'number' && params.seconds > 0 ? Math.ceil(params.seconds) : null;
};

/** A refused code is the server saying no (400/422); anything else means the call itself failed. */
const codeRefused = (error: unknown): boolean => {
  const status = (error as Failure | null)?.status;
  return status === 400 || status === 422;
};

/**
 * The e-mail verification modal: opening it requests a code, which starts the 120-second resend
 * countdown; verifying runs alongside, enabled only at exactly six digits. Reopened within the
 * countdown, the server refuses a new code (429 `auth.resend_too_soon`): the code already mailed is
 * the one to enter, so that is what the modal says, and the countdown resumes where the server has it.
 */
export const emailVerificationMachine = setup({
  types: {
    context: {} as VerificationContext,
    events: {} as VerificationEvent,
    input: {} as { email: string },
  },
  actors: {
    // Provided by the modal: POST /auth/send-verification-email (first) or /auth/resend-verification-email.
    sendCode: fromPromise<unknown, { email: string; resend: boolean }>(() => Promise.reject(new Error('sendCode not provided'))),
    // Provided by the modal: POST /auth/verify-email.
    verifyCode: fromPromise<unknown, { email: string; code: string }>(() => Promise.reject(new Error('verifyCode not provided'))),
  },
  delays: {
    tick: TICK_MS,
  },
  guards: {
    countdownOver: ({ context }) => context.secondsLeft <= 1,
    codeComplete: ({ context }) => isCompleteCode(context.code),
    codeRefused: ({ event }) => codeRefused((event as { error?: unknown }).error),
    alreadySent: ({ event }) => waitSeconds((event as { error?: unknown }).error) !== null,
  },
  actions: {
    setCode: assign({ code: ({ context, event }) => (event.type === 'code.change' ? sanitiseCode(event.value) : context.code) }),
    startCountdown: assign({ secondsLeft: RESEND_SECONDS, message: { key: 'sent' } as VerificationMessage }),
    resumeCountdown: assign({ secondsLeft: ({ event }) => waitSeconds((event as { error?: unknown }).error) ?? 0, message: { key: 'alreadySent' } as VerificationMessage }),
    tick: assign({ secondsLeft: ({ context }) => context.secondsLeft - 1 }),
    endCountdown: assign({ secondsLeft: 0 }),
    reportSendFailure: assign({ message: ({ event }) => withDetail('sendFailed', (event as { error?: unknown }).error) }),
    askForCode: assign({ message: { key: 'enterCode' } as VerificationMessage }),
    clearMessage: assign({ message: null }),
    reportRefusal: assign({ message: ({ event }) => withDetail('invalidCode', (event as { error?: unknown }).error) }),
    reportVerifyFailure: assign({ message: { key: 'verifyFailed' } as VerificationMessage }),
    reportVerified: assign({ message: { key: 'verified' } as VerificationMessage }),
  },
}).createMachine({
  id: 'emailVerification',
  context: ({ input }) => ({ email: input.email, code: '', secondsLeft: 0, message: null }),
  type: 'parallel',
  states: {
    delivery: {
      initial: 'requesting',
      states: {
        requesting: {
          invoke: {
            src: 'sendCode',
            input: ({ context }) => ({ email: context.email, resend: false }),
            onDone: { target: 'coolingDown', actions: 'startCountdown' },
            onError: [
              { guard: 'alreadySent', target: 'coolingDown', actions: 'resumeCountdown' },
              { target: 'ready', actions: 'reportSendFailure' },
            ],
          },
        },
        resending: {
          invoke: {
            src: 'sendCode',
            input: ({ context }) => ({ email: context.email, resend: true }),
            onDone: { target: 'coolingDown', actions: 'startCountdown' },
            onError: [
              { guard: 'alreadySent', target: 'coolingDown', actions: 'resumeCountdown' },
              { target: 'ready', actions: 'reportSendFailure' },
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
        ready: {
          on: { 'code.resend': 'resending' },
        },
      },
    },
    verification: {
      initial: 'entering',
      states: {
        entering: {
          on: {
            'code.change': { actions: 'setCode' },
            'code.verify': [{ guard: 'codeComplete', target: 'verifying', actions: 'clearMessage' }, { actions: 'askForCode' }],
          },
        },
        verifying: {
          invoke: {
            src: 'verifyCode',
            input: ({ context }) => ({ email: context.email, code: context.code }),
            onDone: { target: 'verified', actions: 'reportVerified' },
            onError: [
              { guard: 'codeRefused', target: 'entering', actions: 'reportRefusal' },
              { target: 'entering', actions: 'reportVerifyFailure' },
            ],
          },
        },
        verified: { type: 'final' },
      },
    },
  },
});

import { assign, fromPromise, setup } from 'xstate';
import type { FEEDBACK_TYPES } from '@scriptorium/domain/protocol/limits';

export type FeedbackKind = (typeof FEEDBACK_TYPES)[number];
export const SUCCESS_BANNER_MS = 5000;
export const FEEDBACK_ROWS = 8;

export interface FeedbackContext {
  feedbackType: FeedbackKind | null;
  text: string;
}

export type FeedbackEvent = { type: 'feedback.choose'; feedbackType: FeedbackKind } | { type: 'feedback.type'; value: string } | { type: 'feedback.cancel' } | { type: 'feedback.send' };

export const canSend = (text: string): boolean => text.trim() !== '';

/** The feedback section: pick a type, write, send; a success banner stays for five seconds. */
export const feedbackMachine = setup({
  types: {
    context: {} as FeedbackContext,
    events: {} as FeedbackEvent,
  },
  actors: {
    // Provided by the section: POST /email/user-feedback.
    sendFeedback: fromPromise<unknown, { feedback_type: FeedbackKind; feedback_text: string }>(() => Promise.reject(new Error('sendFeedback not provided'))),
  },
  delays: {
    successBanner: SUCCESS_BANNER_MS,
  },
  guards: {
    otherType: ({ context, event }) => event.type === 'feedback.choose' && event.feedbackType !== context.feedbackType,
    hasText: ({ context }) => canSend(context.text),
  },
  actions: {
    chooseType: assign(({ event }) => (event.type === 'feedback.choose' ? { feedbackType: event.feedbackType, text: '' } : {})),
    setText: assign({ text: ({ context, event }) => (event.type === 'feedback.type' ? event.value : context.text) }),
    reset: assign({ feedbackType: null, text: '' }),
    // The spec shows nothing when sending fails; the text stays so the user can try again.
    logFailure: ({ event }) => console.warn('feedback not sent', (event as { error?: unknown }).error),
  },
}).createMachine({
  id: 'feedback',
  context: { feedbackType: null, text: '' },
  initial: 'idle',
  states: {
    idle: {
      on: { 'feedback.choose': { target: 'editing', actions: 'chooseType' } },
    },
    editing: {
      on: {
        'feedback.choose': { guard: 'otherType', actions: 'chooseType' },
        'feedback.type': { actions: 'setText' },
        'feedback.cancel': { target: 'idle', actions: 'reset' },
        'feedback.send': { guard: 'hasText', target: 'sending' },
      },
    },
    sending: {
      invoke: {
        src: 'sendFeedback',
        input: ({ context }) => ({ feedback_type: context.feedbackType ?? 'general', feedback_text: context.text.trim() }),
        onDone: { target: 'sent', actions: 'reset' },
        onError: { target: 'editing', actions: 'logFailure' },
      },
    },
    sent: {
      after: { successBanner: 'idle' },
      on: { 'feedback.choose': { target: 'editing', actions: 'chooseType' } },
    },
  },
});

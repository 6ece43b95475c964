import { assign, sendParent, setup } from 'xstate';
import type { EditRequest } from '../research/commands.ts';

/** A new edit request id: the reply to it in the conversation carries the same id. */
export const newRequestId = (): string => `edit-${crypto.randomUUID().slice(0, 12)}`;

export interface TargetedEditContext {
  request: EditRequest | null;
  /** Why the last request was refused (the agent's or the server's words). */
  error: string | null;
}

export type TargetedEditEvent =
  | { type: 'edit.submit'; request: EditRequest }
  /** The conversation answered the request: a new version, or an error item. */
  | { type: 'edit.answered'; requestId: string; error: string | null }
  /** The request never reached the agent (socket refusal, HTTP failure, out of budget). */
  | { type: 'edit.refused'; message: string }
  /** The same instruction on the same passage, sent again (after a budget top-up, a reconnect). */
  | { type: 'edit.retried' }
  | { type: 'edit.dismissed' };

/**
 * One targeted edit at a time: submitted, then answered or refused. The session delivers the request
 * (socket or HTTP) and reports what came back; a refusal ends the wait with its message and keeps
 * the request, so the instruction typed is not lost and can be sent again as it was.
 */
export const targetedEditMachine = setup({
  types: {
    context: {} as TargetedEditContext,
    events: {} as TargetedEditEvent,
  },
  guards: {
    // Spec §5: a blank instruction or a blank selection is not sent.
    sendable: ({ event }) => event.type === 'edit.submit' && event.request.text.trim() !== '' && event.request.snippet.trim() !== '',
    answersMine: ({ context, event }, params: { failed: boolean }) => event.type === 'edit.answered' && event.requestId === context.request?.request_id && (event.error !== null) === params.failed,
  },
  actions: {
    remember: assign(({ event }) => (event.type === 'edit.submit' ? { request: { ...event.request, text: event.request.text.trim() }, error: null } : {})),
    requestDelivery: sendParent(({ context }) => ({ type: 'command.deliver' as const, command: { kind: 'targeted_edit' as const, request: context.request! } })),
    noteAnswer: assign({ error: ({ event }) => (event.type === 'edit.answered' ? event.error : null) }),
    noteRefusal: assign({ error: ({ event }) => (event.type === 'edit.refused' ? event.message : null) }),
    // A new id: the reply to the refused one, should it ever come, must not settle this one.
    renew: assign({ request: ({ context }) => (context.request ? { ...context.request, request_id: newRequestId() } : null), error: null }),
  },
}).createMachine({
  id: 'targetedEdit',
  context: { request: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'edit.submit': { guard: 'sendable', target: 'pending', actions: ['remember', 'requestDelivery'] } },
    },
    pending: {
      on: {
        'edit.answered': [
          { guard: { type: 'answersMine', params: { failed: true } }, target: 'failed', actions: 'noteAnswer' },
          { guard: { type: 'answersMine', params: { failed: false } }, target: 'idle' },
        ],
        'edit.refused': { target: 'failed', actions: 'noteRefusal' },
      },
    },
    failed: {
      on: {
        'edit.submit': { guard: 'sendable', target: 'pending', actions: ['remember', 'requestDelivery'] },
        'edit.retried': { target: 'pending', actions: ['renew', 'requestDelivery'] },
        'edit.dismissed': { target: 'idle', actions: assign({ error: null }) },
      },
    },
  },
});

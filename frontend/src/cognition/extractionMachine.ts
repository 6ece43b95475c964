import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { ExtractionRequest, ExtractionStarted } from './api.ts';
import type { ExtractionState, ExtractionStatus } from './extractionPoll.ts';
import { errorMessage } from './errors.ts';

/**
 * Why it went wrong: `start` the request was refused (the server's words, e.g. a 422), `job` the
 * extraction ran and failed, `lost` its status could no longer be read.
 */
export interface ExtractionProblem {
  kind: 'start' | 'job' | 'lost';
  message: string | null;
  /** A failed job's reason as the catalogue's code, to word in the reader's language. */
  code?: string;
  params?: Record<string, string | number>;
}

export interface ExtractionContext {
  request: ExtractionRequest | null;
  extractionId: string | null;
  status: ExtractionState | null;
  cognitionId: string | null;
  problem: ExtractionProblem | null;
}

export type ExtractionEvent =
  | { type: 'extraction.start'; request: ExtractionRequest }
  | { type: 'extraction.retry' }
  | { type: 'extraction.reset' }
  | { type: 'extraction.status'; status: ExtractionStatus }
  | { type: 'extraction.settled'; status: ExtractionStatus }
  | { type: 'extraction.lost'; message: string | null };

export type WatchInput = { extractionId: string };

const fresh = { extractionId: null, status: null, cognitionId: null, problem: null };

/**
 * One extraction (from notes, a page, or a synthesis) from request to result: `starting` sends it,
 * `waiting` polls its status, and it ends `completed` with the new cognition's id or `failed` with
 * the reason. One runs at a time; leaving (reset, or stopping the actor) stops the polling.
 */
export const extractionMachine = setup({
  types: {
    context: {} as ExtractionContext,
    events: {} as ExtractionEvent,
  },
  actors: {
    // Provided by the hook: the POST for the request's kind, and the status poller.
    begin: fromPromise<ExtractionStarted, ExtractionRequest>(() => Promise.reject(new Error('begin not provided'))),
    watch: fromCallback<ExtractionEvent, WatchInput>(() => undefined),
  },
}).createMachine({
  id: 'cognitionExtraction',
  context: { request: null, ...fresh },
  initial: 'idle',
  on: {
    'extraction.reset': { target: '.idle', actions: assign({ request: null, ...fresh }) },
  },
  states: {
    idle: {
      on: { 'extraction.start': { target: 'starting', actions: assign(({ event }) => ({ request: event.request, ...fresh })) } },
    },
    starting: {
      invoke: {
        src: 'begin',
        input: ({ context }) => context.request!,
        onDone: { target: 'waiting', actions: assign(({ event }) => ({ extractionId: event.output.extraction_id, status: event.output.status })) },
        onError: { target: 'failed', actions: assign(({ event }) => ({ problem: { kind: 'start' as const, message: errorMessage(event.error) } })) },
      },
    },
    waiting: {
      invoke: {
        src: 'watch',
        input: ({ context }) => ({ extractionId: context.extractionId! }),
      },
      on: {
        'extraction.status': { actions: assign(({ event }) => ({ status: event.status.status })) },
        'extraction.settled': [
          {
            guard: ({ event }) => event.status.status === 'completed' && event.status.cognition_id !== null,
            target: 'completed',
            actions: assign(({ event }) => ({ status: event.status.status, cognitionId: event.status.cognition_id })),
          },
          { target: 'failed', actions: assign(({ event }) => ({ status: event.status.status, problem: { kind: 'job' as const, message: event.status.error, ...(event.status.code !== undefined && { code: event.status.code, params: event.status.params ?? {} }) } })) },
        ],
        'extraction.lost': { target: 'failed', actions: assign(({ event }) => ({ problem: { kind: 'lost' as const, message: event.message } })) },
      },
    },
    completed: {
      on: { 'extraction.start': { target: 'starting', actions: assign(({ event }) => ({ request: event.request, ...fresh })) } },
    },
    failed: {
      on: {
        'extraction.retry': { target: 'starting', actions: assign({ ...fresh }) },
        'extraction.start': { target: 'starting', actions: assign(({ event }) => ({ request: event.request, ...fresh })) },
      },
    },
  },
});

import { useMachine } from '@xstate/react';
import { useCallback, useMemo } from 'react';
import { fromCallback, fromPromise } from 'xstate';
import { startExtraction, waitForExtraction, type ExtractionRequest, type ExtractionStarted } from './api.ts';
import { errorMessage } from './errors.ts';
import { extractionMachine, type ExtractionEvent, type ExtractionContext, type WatchInput } from './extractionMachine.ts';

const liveMachine = extractionMachine.provide({
  actors: {
    begin: fromPromise<ExtractionStarted, ExtractionRequest>(({ input }) => startExtraction(input)),
    watch: fromCallback<ExtractionEvent, WatchInput>(({ sendBack, input }) => {
      const controller = new AbortController();
      waitForExtraction(input.extractionId, { signal: controller.signal, onStatus: (status) => sendBack({ type: 'extraction.status', status }) }).then(
        (status) => sendBack({ type: 'extraction.settled', status }),
        (error: unknown) => {
          if (!controller.signal.aborted) sendBack({ type: 'extraction.lost', message: errorMessage(error) });
        },
      );
      return () => controller.abort();
    }),
  },
});

export type ExtractionPhase = 'idle' | 'starting' | 'waiting' | 'completed' | 'failed';

export interface CognitionExtraction extends ExtractionContext {
  phase: ExtractionPhase;
  /** Whether something is under way (starting or waiting for the job). */
  busy: boolean;
  start(request: ExtractionRequest): void;
  retry(): void;
  reset(): void;
}

/**
 * Extraction from notes, a page or a synthesis, from the request to the new cognition's id: call
 * `start`, show `phase`/`status`, and read `cognitionId` once `phase` is `completed`. Unmounting the
 * component stops the polling (the job itself goes on on the server).
 */
export function useCognitionExtraction(): CognitionExtraction {
  const [snapshot, send] = useMachine(liveMachine);
  const start = useCallback((request: ExtractionRequest) => send({ type: 'extraction.start', request }), [send]);
  const retry = useCallback(() => send({ type: 'extraction.retry' }), [send]);
  const reset = useCallback(() => send({ type: 'extraction.reset' }), [send]);
  const phase = snapshot.value as ExtractionPhase;
  return useMemo(
    () => ({ ...snapshot.context, phase, busy: phase === 'starting' || phase === 'waiting', start, retry, reset }),
    [snapshot.context, phase, start, retry, reset],
  );
}

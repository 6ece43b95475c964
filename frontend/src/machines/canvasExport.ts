import { assign, fromPromise, setup } from 'xstate';
import { errorText } from './errorText.ts';

export type ExportKind = 'pdf' | 'markdown';

/** What an export needs: the version shown, and whether it is a shared (read-only) canvas. */
export interface ExportRequest {
  kind: ExportKind;
  sessionId: string;
  readOnly: boolean;
  version: number;
  title: string;
  content: string;
}

export interface CanvasExportContext {
  kind: ExportKind | null;
  error: string | null;
}

export type CanvasExportEvent = { type: 'export.start'; request: ExportRequest } | { type: 'export.dismissed' };

/** Exports of the canvas (Markdown, PDF): one at a time, a failure kept until the next try. */
export const canvasExportMachine = setup({
  types: {
    context: {} as CanvasExportContext,
    events: {} as CanvasExportEvent,
  },
  actors: {
    // The session provides the downloads; a bare machine cannot export.
    exportFile: fromPromise<void, ExportRequest>(() => Promise.reject(new Error('exporting is not available here'))),
  },
}).createMachine({
  id: 'canvasExport',
  context: { kind: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'export.start': { target: 'exporting', actions: assign({ kind: ({ event }) => event.request.kind, error: null }) },
        'export.dismissed': { actions: assign({ error: null }) },
      },
    },
    exporting: {
      invoke: {
        src: 'exportFile',
        input: ({ event }) => (event as Extract<CanvasExportEvent, { type: 'export.start' }>).request,
        onDone: { target: 'idle', actions: assign({ kind: null }) },
        onError: { target: 'idle', actions: assign({ kind: null, error: ({ event }) => errorText(event.error) }) },
      },
    },
  },
});

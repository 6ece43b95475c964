import { assign, fromPromise, setup } from 'xstate';
import type { WireContent } from '@scriptorium/domain/protocol/content';
import { MIN_WRITING_CHARS } from '@scriptorium/domain/protocol/chunks';
import type { CanvasVersion, CitationCheck } from '@scriptorium/domain/protocol/research';
import { errorText } from './errorText.ts';

export type WritingNotice = { kind: 'writing' | 'done' | 'interrupted' | 'discarded'; level: 'info' | 'warning'; version: number };

export interface Draft {
  version: number;
  title: string;
  content: string;
}

export interface WritingContext {
  /** The session whose canvas this is; a save names it. */
  sessionId: string;
  versions: CanvasVersion[];
  /** The version the canvas shows; null until one exists. */
  currentVersion: number | null;
  draft: Draft | null;
  notice: WritingNotice | null;
  /** Why the last hand-edit save failed; cleared by the next edit or save. */
  saveError: string | null;
  /** A version the user asked to see while hand edits were unsaved; shown once they are saved or dropped. */
  pendingVersion: number | null;
}

/** What a hand-edit save sends: the edited text as a new version after `fromVersion`. */
export interface CanvasSave {
  sessionId: string;
  content: string;
  fromVersion: number;
}

/** The server's canvas after a save. */
export interface SavedCanvas {
  versions: CanvasVersion[];
  currentVersion: number | null;
}

export type WritingEvent =
  | { type: 'writing.started'; artifact_id?: string; version: number; title?: string }
  | { type: 'writing.chunk'; artifact_id?: string; content: string }
  /** The draft goes back to its first `length` characters: a section cut mid-stream is written again. */
  | { type: 'writing.rollback'; artifact_id?: string; length: number }
  | { type: 'writing.ended'; artifact_id?: string; version: number; interrupted: boolean; saved?: boolean; title?: string; timestamp?: string; citations?: CitationCheck[] }
  | { type: 'canvas.loaded'; versions: CanvasVersion[]; currentVersion: number | null }
  | { type: 'version.selected'; version: number }
  /** The user changed the shown version by hand; the text is read from the editor when saving. */
  | { type: 'version.edited' }
  | { type: 'edit.saved'; content: string }
  | { type: 'edit.discarded' }
  /** Stay on the edited version: the switch asked for with unsaved edits is called off. */
  | { type: 'switch.cancelled' }
  /** A new version made from the current one: a targeted edit, or a hand edit saved (canvas_saved). */
  | { type: 'edit.applied'; version: number; content: string; title?: string; timestamp?: string; citations?: CitationCheck[] };

const hasArtifact = (event: WritingEvent) => !('artifact_id' in event) || (typeof event.artifact_id === 'string' && event.artifact_id !== '');

const withVersion = (versions: CanvasVersion[], next: CanvasVersion) => [...versions.filter((version) => version.version !== next.version), next].sort((a, b) => a.version - b.version);

export const writingMachine = setup({
  types: {
    context: {} as WritingContext,
    events: {} as WritingEvent,
    input: {} as { sessionId: string },
  },
  actors: {
    // The session provides the real call (PUT …/canvas); a machine without it cannot save.
    saveCanvas: fromPromise<SavedCanvas, CanvasSave>(() => Promise.reject(new Error('saving is not available here'))),
  },
  guards: {
    editable: ({ context }) => context.draft === null && context.currentVersion !== null,
    hasArtifact: ({ event }) => hasArtifact(event),
    interrupted: ({ event }) => event.type === 'writing.ended' && event.interrupted,
    worthKeeping: ({ context, event }) => event.type === 'writing.ended' && event.saved !== false && (context.draft?.content.trim().length ?? 0) >= MIN_WRITING_CHARS,
    knownVersion: ({ context, event }) => event.type === 'version.selected' && context.versions.some((version) => version.version === event.version),
  },
  actions: {
    startDraft: assign(({ event }) => {
      if (event.type !== 'writing.started') return {};
      return { draft: { version: event.version, title: event.title ?? '', content: '' }, notice: { kind: 'writing', level: 'info', version: event.version } as WritingNotice };
    }),
    appendChunk: assign({
      draft: ({ context, event }) => (event.type === 'writing.chunk' && context.draft ? { ...context.draft, content: context.draft.content + event.content } : context.draft),
    }),
    rollBack: assign({
      draft: ({ context, event }) => (event.type === 'writing.rollback' && context.draft ? { ...context.draft, content: context.draft.content.slice(0, event.length) } : context.draft),
    }),
    saveDraft: assign(({ context, event }) => {
      if (event.type !== 'writing.ended' || !context.draft) return { draft: null };
      const saved: CanvasVersion = {
        version: context.draft.version,
        title: event.title ?? context.draft.title,
        content: context.draft.content,
        timestamp: event.timestamp ?? new Date().toISOString(),
        ...(event.citations && { citations: event.citations }),
      };
      const notice: WritingNotice = event.interrupted ? { kind: 'interrupted', level: 'warning', version: saved.version } : { kind: 'done', level: 'info', version: saved.version };
      return { versions: withVersion(context.versions, saved), currentVersion: saved.version, draft: null, notice };
    }),
    discardDraft: assign(({ context }) => ({ draft: null, notice: { kind: 'discarded', level: 'info', version: context.draft?.version ?? 0 } as WritingNotice })),
    loadCanvas: assign(({ context, event }) => {
      if (event.type !== 'canvas.loaded') return {};
      // The server's list is authoritative for saved versions; a draft still streaming stays.
      const versions = [...event.versions].sort((a, b) => a.version - b.version);
      return { versions, currentVersion: event.currentVersion ?? versions.at(-1)?.version ?? context.currentVersion };
    }),
    selectVersion: assign({ currentVersion: ({ event }) => (event.type === 'version.selected' ? event.version : null) }),
    holdSwitch: assign({ pendingVersion: ({ event }) => (event.type === 'version.selected' ? event.version : null) }),
    // After the edits are saved or dropped, the version asked for is shown.
    selectPending: assign(({ context }) => (context.pendingVersion === null ? {} : { currentVersion: context.pendingVersion, pendingVersion: null })),
    dropSwitch: assign({ pendingVersion: null }),
    loadSaved: assign(({ context, event }) => {
      const saved = (event as unknown as { output: SavedCanvas }).output;
      const versions = [...saved.versions].sort((a, b) => a.version - b.version);
      return { versions, currentVersion: saved.currentVersion ?? versions.at(-1)?.version ?? context.currentVersion, saveError: null };
    }),
    noteSaveError: assign({ saveError: ({ event }) => errorText((event as unknown as { error: unknown }).error) }),
    clearSaveError: assign({ saveError: null }),
    applyEdit: assign(({ context, event }) => {
      if (event.type !== 'edit.applied') return {};
      const previous = context.versions.find((version) => version.version === context.currentVersion);
      const next: CanvasVersion = { version: event.version, title: event.title ?? previous?.title ?? '', content: event.content, timestamp: event.timestamp ?? new Date().toISOString(), ...(event.citations && { citations: event.citations }) };
      return { versions: withVersion(context.versions, next), currentVersion: next.version };
    }),
    warnNoArtifact: () => console.warn('writing message without artifact_id ignored'),
  },
}).createMachine({
  id: 'writing',
  context: ({ input }) => ({ sessionId: input.sessionId, versions: [], currentVersion: null, draft: null, notice: null, saveError: null, pendingVersion: null }),
  type: 'parallel',
  on: {
    'canvas.loaded': { actions: 'loadCanvas' },
    'edit.applied': { actions: 'applyEdit' },
  },
  states: {
    stream: {
      initial: 'idle',
      on: {
        'writing.started': [
          { guard: 'hasArtifact', target: '.writing', reenter: true, actions: 'startDraft' },
          { actions: 'warnNoArtifact' },
        ],
      },
      states: {
        idle: {},
        writing: {
          on: {
            'writing.chunk': [{ guard: 'hasArtifact', actions: 'appendChunk' }, { actions: 'warnNoArtifact' }],
            'writing.rollback': [{ guard: 'hasArtifact', actions: 'rollBack' }, { actions: 'warnNoArtifact' }],
            'writing.ended': [
              { guard: ({ event }) => !hasArtifact(event), actions: 'warnNoArtifact' },
              { guard: 'interrupted', target: 'idle', actions: 'saveDraft' },
              { guard: 'worthKeeping', target: 'idle', actions: 'saveDraft' },
              { target: 'idle', actions: 'discardDraft' },
            ],
          },
        },
      },
    },
    // Hand edits of the shown version: kept in the editor until saved as a new version.
    edit: {
      initial: 'clean',
      states: {
        clean: {
          on: {
            'version.selected': { guard: 'knownVersion', actions: 'selectVersion' },
            'version.edited': { guard: 'editable', target: 'dirty', actions: 'clearSaveError' },
          },
        },
        dirty: {
          on: {
            // Switching would lose the edits: ask first (save as new version, discard, or stay).
            'version.selected': { guard: 'knownVersion', target: 'confirmingSwitch', actions: 'holdSwitch' },
            'edit.saved': { target: 'saving', actions: 'clearSaveError' },
            'edit.discarded': 'clean',
            // A newer version replaces what was being edited (the editor shows it).
            'edit.applied': { target: 'clean', actions: 'applyEdit' },
            'canvas.loaded': { target: 'clean', actions: 'loadCanvas' },
            'writing.started': 'clean',
          },
        },
        confirmingSwitch: {
          on: {
            'edit.saved': { target: 'saving', actions: 'clearSaveError' },
            'edit.discarded': { target: 'clean', actions: 'selectPending' },
            'switch.cancelled': { target: 'dirty', actions: 'dropSwitch' },
            'edit.applied': { target: 'clean', actions: ['applyEdit', 'dropSwitch'] },
            'canvas.loaded': { target: 'clean', actions: ['loadCanvas', 'dropSwitch'] },
            'writing.started': { target: 'clean', actions: 'dropSwitch' },
          },
        },
        saving: {
          invoke: {
            src: 'saveCanvas',
            input: ({ context, event }) => ({ sessionId: context.sessionId, content: event.type === 'edit.saved' ? event.content : '', fromVersion: context.currentVersion ?? 0 }),
            onDone: { target: 'clean', actions: ['loadSaved', 'selectPending'] },
            onError: { target: 'dirty', actions: ['noteSaveError', 'dropSwitch'] },
          },
        },
      },
    },
  },
});

/** Whether the shown version has unsaved hand edits, and whether they are being saved. */
export const editState = (snapshot: { matches(state: { edit: 'dirty' | 'saving' | 'confirmingSwitch' }): boolean }): 'clean' | 'dirty' | 'confirmingSwitch' | 'saving' =>
  snapshot.matches({ edit: 'saving' }) ? 'saving' : snapshot.matches({ edit: 'dirty' }) ? 'dirty' : snapshot.matches({ edit: 'confirmingSwitch' }) ? 'confirmingSwitch' : 'clean';

/** What the canvas shows: the streaming draft while writing, else the chosen version. */
export function shownVersion(context: WritingContext): (CanvasVersion & { streaming: boolean }) | null {
  if (context.draft) return { ...context.draft, timestamp: '', streaming: true };
  const chosen = context.versions.find((version) => version.version === context.currentVersion) ?? context.versions.at(-1);
  return chosen ? { ...chosen, streaming: false } : null;
}

/** Which writing events a stream item means for the canvas. */
export function writingEvent(content: WireContent): WritingEvent | null {
  switch (content.content_type) {
    case 'writing_start':
      return { type: 'writing.started', artifact_id: content.artifact_id, version: content.version, title: content.title };
    case 'writing_content':
      return { type: 'writing.chunk', artifact_id: content.artifact_id, content: content.content };
    case 'writing_rollback':
      return { type: 'writing.rollback', artifact_id: content.artifact_id, length: content.length };
    case 'writing_end':
      return {
        type: 'writing.ended',
        artifact_id: content.artifact_id,
        version: content.version,
        interrupted: content.interrupted,
        saved: content.saved,
        ...(content.title !== undefined && { title: content.title }),
        timestamp: content.timestamp,
        ...(content.citations && { citations: content.citations }),
      };
    case 'targeted_edit_result':
      return { type: 'edit.applied', version: content.version, content: content.full_content, timestamp: content.timestamp, ...(content.citations && { citations: content.citations }) };
    case 'canvas_saved':
      return { type: 'edit.applied', version: content.version, content: content.content, title: content.title, timestamp: content.timestamp };
    default:
      return null;
  }
}

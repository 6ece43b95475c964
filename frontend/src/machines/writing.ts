import { assign, setup } from 'xstate';
import type { CanvasVersion } from '@scriptorium/backend/protocol/research';

/** Spec §4/§9: an uninterrupted result shorter than this is not worth a version. */
export const MIN_WRITING_CHARS = 50;

export type WritingNotice = { kind: 'writing' | 'done' | 'interrupted' | 'discarded'; level: 'info' | 'warning'; version: number };

export interface Draft {
  version: number;
  title: string;
  content: string;
}

export interface WritingContext {
  versions: CanvasVersion[];
  /** The version the canvas shows; null until one exists. */
  currentVersion: number | null;
  draft: Draft | null;
  notice: WritingNotice | null;
}

export type WritingEvent =
  | { type: 'writing.started'; artifact_id?: string; version: number; title?: string }
  | { type: 'writing.chunk'; artifact_id?: string; content: string }
  | { type: 'writing.ended'; artifact_id?: string; version: number; interrupted: boolean; saved?: boolean; title?: string; timestamp?: string }
  | { type: 'canvas.loaded'; versions: CanvasVersion[]; currentVersion: number | null }
  | { type: 'version.selected'; version: number }
  | { type: 'version.edited'; content: string }
  | { type: 'edit.applied'; version: number; content: string; title?: string; timestamp?: string };

const hasArtifact = (event: WritingEvent) => !('artifact_id' in event) || (typeof event.artifact_id === 'string' && event.artifact_id !== '');

const withVersion = (versions: CanvasVersion[], next: CanvasVersion) => [...versions.filter((version) => version.version !== next.version), next].sort((a, b) => a.version - b.version);

export const writingMachine = setup({
  types: {
    context: {} as WritingContext,
    events: {} as WritingEvent,
  },
  guards: {
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
    saveDraft: assign(({ context, event }) => {
      if (event.type !== 'writing.ended' || !context.draft) return { draft: null };
      const saved: CanvasVersion = {
        version: context.draft.version,
        title: event.title ?? context.draft.title,
        content: context.draft.content,
        timestamp: event.timestamp ?? new Date().toISOString(),
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
    editCurrent: assign({
      versions: ({ context, event }) =>
        event.type === 'version.edited' ? context.versions.map((version) => (version.version === context.currentVersion ? { ...version, content: event.content } : version)) : context.versions,
    }),
    applyEdit: assign(({ context, event }) => {
      if (event.type !== 'edit.applied') return {};
      const previous = context.versions.find((version) => version.version === context.currentVersion);
      const next: CanvasVersion = { version: event.version, title: event.title ?? previous?.title ?? '', content: event.content, timestamp: event.timestamp ?? new Date().toISOString() };
      return { versions: withVersion(context.versions, next), currentVersion: next.version };
    }),
    warnNoArtifact: () => console.warn('writing message without artifact_id ignored'),
  },
}).createMachine({
  id: 'writing',
  context: { versions: [], currentVersion: null, draft: null, notice: null },
  initial: 'idle',
  on: {
    'canvas.loaded': { actions: 'loadCanvas' },
    'version.selected': { guard: 'knownVersion', actions: 'selectVersion' },
    'version.edited': { actions: 'editCurrent' },
    'edit.applied': { actions: 'applyEdit' },
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
        'writing.ended': [
          { guard: ({ event }) => !hasArtifact(event), actions: 'warnNoArtifact' },
          { guard: 'interrupted', target: 'idle', actions: 'saveDraft' },
          { guard: 'worthKeeping', target: 'idle', actions: 'saveDraft' },
          { target: 'idle', actions: 'discardDraft' },
        ],
      },
    },
  },
});

/** What the canvas shows: the streaming draft while writing, else the chosen version. */
export function shownVersion(context: WritingContext): (CanvasVersion & { streaming: boolean }) | null {
  if (context.draft) return { ...context.draft, timestamp: '', streaming: true };
  const chosen = context.versions.find((version) => version.version === context.currentVersion) ?? context.versions.at(-1);
  return chosen ? { ...chosen, streaming: false } : null;
}

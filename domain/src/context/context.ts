import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';

/** What a research session reads besides the web: uploaded files and selected notes (stream `contexts-<sessionId>`). */

export const FILE_TYPES = ['txt', 'md', 'pdf', 'docx', 'html'] as const;
export type ContextFileType = (typeof FILE_TYPES)[number];

/**
 * How the user wants the report written. The spec names the call but not its fields; these are the
 * choices the writing agent can honour: length, register, language, and a short free-text note.
 */
export const REPORT_LENGTHS = ['short', 'medium', 'long'] as const;
export const REPORT_STYLES = ['academic', 'professional', 'popular'] as const;
export const REPORT_LANGUAGES = ['zh', 'en'] as const;
export interface ContentPreference {
  length: (typeof REPORT_LENGTHS)[number];
  style: (typeof REPORT_STYLES)[number];
  language: (typeof REPORT_LANGUAGES)[number];
  instructions: string;
}
export const DEFAULT_PREFERENCE: ContentPreference = { length: 'medium', style: 'professional', language: 'zh', instructions: '' };

export type ContextFileAdded = DomainEvent<
  'ContextFileAdded',
  {
    contextId: string;
    sessionId: string;
    userId: string;
    filename: string;
    fileType: ContextFileType;
    size: number;
    sha256: string;
    /** The uploaded bytes and the text extracted from them, in the BlobStore. */
    blobKey: string;
    textKey: string;
    chars: number;
    truncated: boolean;
    round?: number;
    at: string;
  }
>;
export type ContextNoteSelected = DomainEvent<'ContextNoteSelected', { contextId: string; sessionId: string; userId: string; noteId: string; title: string; at: string }>;
export type ContextRemoved = DomainEvent<'ContextRemoved', { contextId: string; sessionId: string; userId: string; at: string }>;
export type ContentPreferenceSet = DomainEvent<'ContentPreferenceSet', { sessionId: string; userId: string; preference: ContentPreference; at: string }>;
export type ContextEvent = ContextFileAdded | ContextNoteSelected | ContextRemoved | ContentPreferenceSet;

export type ContextEntry =
  | { kind: 'file'; contextId: string; filename: string; sha256: string; blobKey: string; textKey: string }
  | { kind: 'note'; contextId: string; noteId: string };

export interface Contexts {
  /** The user whose session this is, from the first event; null before any. */
  ownerId: string | null;
  entries: ContextEntry[];
  preference: ContentPreference;
}

export const initialState = (): Contexts => ({ ownerId: null, entries: [], preference: DEFAULT_PREFERENCE });

export function evolve(state: Contexts, event: ContextEvent): Contexts {
  const ownerId = state.ownerId ?? event.data.userId;
  switch (event.type) {
    case 'ContextFileAdded': {
      const { contextId, filename, sha256, blobKey, textKey } = event.data;
      return { ...state, ownerId, entries: [...state.entries, { kind: 'file', contextId, filename, sha256, blobKey, textKey }] };
    }
    case 'ContextNoteSelected':
      return { ...state, ownerId, entries: [...state.entries, { kind: 'note', contextId: event.data.contextId, noteId: event.data.noteId }] };
    case 'ContextRemoved':
      return { ...state, ownerId, entries: state.entries.filter((entry) => entry.contextId !== event.data.contextId) };
    case 'ContentPreferenceSet':
      return { ...state, ownerId, preference: event.data.preference };
    default:
      return assertNever(event);
  }
}

export const contextStream = (sessionId: string): string => `contexts-${sessionId}`;

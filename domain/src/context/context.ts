import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';
import type { CONTEXT_FILE_TYPES, PREFERENCE_LANGUAGES, PREFERENCE_LENGTHS, PREFERENCE_STYLES } from '../protocol/contexts.ts';

/** What a research session reads besides the web: uploaded files and selected notes (stream `contexts-<sessionId>`). */

export type ContextFileType = (typeof CONTEXT_FILE_TYPES)[number];

/** How the user wants the report written: the protocol's choices, and a short free-text note. */
export interface ContentPreference {
  length: (typeof PREFERENCE_LENGTHS)[number];
  style: (typeof PREFERENCE_STYLES)[number];
  language: (typeof PREFERENCE_LANGUAGES)[number];
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

import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import type { Projection } from './projection.ts';
import type { ContentPreference, ContextEvent, ContextFileType } from '@scriptorium/domain/context/context';

/** One context of a session: an uploaded file or a selected note. */
export interface ContextDoc extends Doc {
  session_id: string;
  user_id: string;
  kind: 'file' | 'note';
  /** The file's name, or the note's title. */
  name: string;
  file_type: ContextFileType | 'note';
  size: number | null;
  chars: number | null;
  truncated: boolean;
  sha256: string | null;
  blob_key: string | null;
  text_key: string | null;
  note_id: string | null;
  round: number | null;
  created_at: string;
  /** Log position of the event that added it: the order contexts were added in, even within one instant. */
  position: number;
}

/** A session's report preference, once set; absent means DEFAULT_PREFERENCE. */
export interface ContentPreferenceDoc extends Doc, ContentPreference {
  user_id: string;
  updated_at: string;
}

export const CONTEXTS = 'contexts';
export const CONTENT_PREFERENCES = 'content_preferences';

export const contextsProjection: Projection = {
  name: 'contexts',
  collections: [CONTEXTS, CONTENT_PREFERENCES],
  handles: ['ContextFileAdded', 'ContextNoteSelected', 'ContextRemoved', 'ContentPreferenceSet'] satisfies ContextEvent['type'][],
  async setup(store) {
    await store.collection(CONTEXTS).ensureIndex({ fields: { session_id: 1, position: 1 } });
  },
  async apply(recorded: RecordedEvent, tx) {
    const contexts = tx.collection<ContextDoc>(CONTEXTS);
    const event = { type: recorded.type, data: recorded.data } as ContextEvent;
    switch (event.type) {
      case 'ContextFileAdded': {
        const { contextId, sessionId, userId, filename, fileType, size, sha256, blobKey, textKey, chars, truncated, round, at } = event.data;
        await contexts.put({
          _id: contextId,
          session_id: sessionId,
          user_id: userId,
          kind: 'file',
          name: filename,
          file_type: fileType,
          size,
          chars,
          truncated,
          sha256,
          blob_key: blobKey,
          text_key: textKey,
          note_id: null,
          round: round ?? null,
          created_at: at,
          position: recorded.position,
        });
        return;
      }
      case 'ContextNoteSelected': {
        const { contextId, sessionId, userId, noteId, title, at } = event.data;
        await contexts.put({
          _id: contextId,
          session_id: sessionId,
          user_id: userId,
          kind: 'note',
          name: title,
          file_type: 'note',
          size: null,
          chars: null,
          truncated: false,
          sha256: null,
          blob_key: null,
          text_key: null,
          note_id: noteId,
          round: null,
          created_at: at,
          position: recorded.position,
        });
        return;
      }
      case 'ContextRemoved':
        await contexts.delete(event.data.contextId);
        return;
      case 'ContentPreferenceSet': {
        const { sessionId, userId, preference, at } = event.data;
        await tx.collection<ContentPreferenceDoc>(CONTENT_PREFERENCES).put({ _id: sessionId, user_id: userId, ...preference, updated_at: at });
        return;
      }
      default:
        assertNever(event);
    }
  },
};

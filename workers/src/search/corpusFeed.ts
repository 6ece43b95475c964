import type { Readable } from 'node:stream';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import type { BlobStore } from '@scriptorium/infra/blob/port';
import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { CognitionEvent } from '@scriptorium/domain/cognition/cognition';
import type { ContextEvent } from '@scriptorium/domain/context/context';
import type { NoteContentEvent } from '@scriptorium/domain/notes/content';
import type { NotebookEvent } from '@scriptorium/domain/notes/notes';
import type { Reaction } from '@scriptorium/infra/eventsourcing/reactor';
import type { LocalCorpus } from '@scriptorium/infra/search/local';

async function readText(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

type IndexedEvent = ContextEvent | NotebookEvent | NoteContentEvent | CognitionEvent;

/**
 * Keeps the offline search index in step with the log: an uploaded file's extracted text, every
 * note and every cognition are indexed for their owner; what is removed or deleted leaves it. Like a
 * read model, the index can be rebuilt by replaying the log from position 0 (delete
 * `corpus.sqlite3` and its reactor checkpoint).
 */
export function corpusFeed(corpus: LocalCorpus, blobs: BlobStore): Reaction {
  return {
    name: 'corpus',
    handles: ['ContextFileAdded', 'ContextRemoved', 'NoteCreated', 'NoteRenamed', 'NoteContentSaved', 'NotesDeleted', 'CognitionCreated', 'CognitionEdited', 'CognitionDeleted'] satisfies IndexedEvent['type'][],
    async react(recorded: RecordedEvent) {
      const event = { type: recorded.type, data: recorded.data } as IndexedEvent;
      switch (event.type) {
        case 'ContextFileAdded': {
          const { contextId, userId, filename, textKey } = event.data;
          if (!(await blobs.stat(textKey))) return;
          corpus.upsert({ id: contextId, userId, kind: 'upload', title: filename, text: await readText(await blobs.get(textKey)) });
          return;
        }
        case 'ContextRemoved':
          corpus.remove(event.data.contextId);
          return;
        case 'NoteCreated':
          corpus.upsert({ id: event.data.noteId, userId: event.data.userId, kind: 'note', title: event.data.name, text: event.data.content ?? '' });
          return;
        case 'NoteRenamed':
          corpus.revise(event.data.noteId, { title: event.data.name });
          return;
        case 'NoteContentSaved':
          corpus.revise(event.data.noteId, { text: event.data.content });
          return;
        case 'NotesDeleted':
          for (const noteId of event.data.noteIds) corpus.remove(noteId);
          return;
        case 'CognitionCreated': {
          const { cognitionId, ownerId, title, summary, insights, tags } = event.data;
          corpus.upsert({ id: cognitionId, userId: ownerId, kind: 'cognition', title, text: [summary, ...insights, tags.join(' ')].join('\n') });
          return;
        }
        case 'CognitionEdited':
          if (event.data.changes.title !== undefined) corpus.revise(event.data.cognitionId, { title: event.data.changes.title });
          return;
        case 'CognitionDeleted':
          corpus.remove(event.data.cognitionId);
          return;
        case 'CognitionVisibilitySet':
        case 'CognitionViewed':
        case 'ContextNoteSelected':
        case 'ContentPreferenceSet':
        case 'NoteMoved':
        case 'NoteShared':
        case 'NoteShareRevoked':
          return;
        default:
          assertNever(event);
      }
    },
  };
}

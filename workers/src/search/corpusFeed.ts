import type { Readable } from 'node:stream';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import type { BlobStore } from '@scriptorium/infra/blob/port';
import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { ContextEvent } from '@scriptorium/backend/domain/context/context';
import type { NoteContentEvent } from '@scriptorium/backend/domain/notes/content';
import type { NotebookEvent } from '@scriptorium/backend/domain/notes/notes';
import type { Reaction } from '@scriptorium/backend/domain/tasks/reactor';
import type { LocalCorpus } from './local.ts';

async function readText(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

type IndexedEvent = ContextEvent | NotebookEvent | NoteContentEvent;

/**
 * Keeps the offline search index in step with the log: an uploaded file's extracted text and every
 * note are indexed for their owner; a removed context or a deleted note leaves the index. Like a
 * read model, the index can be rebuilt by replaying the log from position 0 (delete
 * `corpus.sqlite3` and its reactor checkpoint).
 */
export function corpusFeed(corpus: LocalCorpus, blobs: BlobStore): Reaction {
  return {
    name: 'corpus',
    handles: ['ContextFileAdded', 'ContextRemoved', 'NoteCreated', 'NoteRenamed', 'NoteContentSaved', 'NotesDeleted'] satisfies IndexedEvent['type'][],
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
          corpus.upsert({ id: event.data.noteId, userId: event.data.userId, kind: 'note', title: event.data.name, text: '' });
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

import type { Readable } from 'node:stream';
import type { BlobStore } from '@scriptorium/infra/blob/port';
import type { EventStore } from '@scriptorium/infra/eventstore/port';
import { contextStream, evolve as evolveContexts, initialState as noContexts, type ContextEvent } from '@scriptorium/domain/context/context';
import { currentContent, evolveContent, initialContent, noteContentStream, type NoteContentEvent } from '@scriptorium/domain/notes/content';
import { evolve as evolveNotebook, initialState as emptyNotebook, notebookStream, type NotebookEvent } from '@scriptorium/domain/notes/notes';

/** A file or note the user attached to a research session, with its text. */
export interface AttachedMaterial {
  /** The note's id or the upload's context id: the ids the search corpus knows them by. */
  id: string;
  kind: 'upload' | 'note';
  title: string;
  text: string;
}

/** What the user attached to a session: the agents read it before they search. */
export interface MaterialPort {
  attached(sessionId: string, userId: string): Promise<AttachedMaterial[]>;
}

/** More than a source can hold is cut by the source book anyway; reading it all would only cost memory. */
const MAX_CHARS = 60_000;

async function readText(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
    if (text.length >= MAX_CHARS) {
      stream.destroy();
      break;
    }
  }
  return text.slice(0, MAX_CHARS);
}

async function fold<State, Event>(events: EventStore, stream: string, evolve: (state: State, event: Event) => State, initial: State): Promise<State> {
  return (await events.readStream(stream)).reduce((state, recorded) => evolve(state, { type: recorded.type, data: recorded.data } as Event), initial);
}

/**
 * Reads attachments from the log, not from read models, so a note selected a moment ago is there.
 * A note deleted since it was attached is left out; so is an upload whose text is gone.
 */
export function sessionMaterial(deps: { events: EventStore; blobs: BlobStore }): MaterialPort {
  return {
    async attached(sessionId, userId) {
      const contexts = await fold<ReturnType<typeof noContexts>, ContextEvent>(deps.events, contextStream(sessionId), evolveContexts, noContexts());
      if (contexts.ownerId !== userId) return [];
      const notebook = await fold<ReturnType<typeof emptyNotebook>, NotebookEvent>(deps.events, notebookStream(userId), evolveNotebook, emptyNotebook());
      const material: AttachedMaterial[] = [];
      for (const entry of contexts.entries) {
        if (entry.kind === 'note') {
          const note = notebook.status === 'open' ? notebook.notes[entry.noteId] : undefined;
          if (!note) continue;
          const saved = await fold<ReturnType<typeof initialContent>, NoteContentEvent>(deps.events, noteContentStream(entry.noteId), evolveContent, initialContent());
          const { revision, content } = currentContent(saved, note.initialContent);
          if (revision > 0) material.push({ id: entry.noteId, kind: 'note', title: note.name, text: content.slice(0, MAX_CHARS) });
        } else if (await deps.blobs.stat(entry.textKey)) {
          material.push({ id: entry.contextId, kind: 'upload', title: entry.filename, text: await readText(await deps.blobs.get(entry.textKey)) });
        }
      }
      return material;
    },
  };
}

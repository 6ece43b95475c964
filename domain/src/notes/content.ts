import type { DomainEvent } from '@scriptorium/infra/eventsourcing/decider';

/** The text of one note (stream `note-<noteId>`); each save is a new revision. */
export type NoteContentSaved = DomainEvent<'NoteContentSaved', { noteId: string; userId: string; content: string; revision: number; at: string }>;
export type NoteContentEvent = NoteContentSaved;

export type NoteContent = { status: 'blank'; revision: 0 } | { status: 'written'; revision: number; content: string };

export const initialContent = (): NoteContent => ({ status: 'blank', revision: 0 });

export const noteContentStream = (noteId: string): string => `note-${noteId}`;

/** Every event of this stream is a save, and a save carries the whole text. */
export function evolveContent(_state: NoteContent, event: NoteContentEvent): NoteContent {
  return { status: 'written', revision: event.data.revision, content: event.data.content };
}

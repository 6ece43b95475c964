import type { DomainEvent } from '@scriptorium/infra/eventsourcing/decider';

/** The text of one note (stream `note-<noteId>`); each save is a new revision. */
export type NoteContentSaved = DomainEvent<'NoteContentSaved', { noteId: string; userId: string; content: string; revision: number; at: string }>;
export type NoteContentEvent = NoteContentSaved;

export type NoteContent = { status: 'blank'; revision: 0 } | { status: 'written'; revision: number; content: string };

export const initialContent = (): NoteContent => ({ status: 'blank', revision: 0 });

export const noteContentStream = (noteId: string): string => `note-${noteId}`;

/**
 * The note's text and revision: its last save, or else the text it was created with (revision 1),
 * or else nothing (revision 0). `initialContent` comes from the note's NoteCreated in the notebook.
 */
export function currentContent(state: NoteContent, initialContent: string | undefined): { revision: number; content: string } {
  if (state.status === 'written') return { revision: state.revision, content: state.content };
  return initialContent ? { revision: 1, content: initialContent } : { revision: 0, content: '' };
}

/** Every event of this stream is a save, and a save carries the whole text. */
export function evolveContent(_state: NoteContent, event: NoteContentEvent): NoteContent {
  return { status: 'written', revision: event.data.revision, content: event.data.content };
}

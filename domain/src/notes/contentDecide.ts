import { errorText } from '../protocol/errors.ts';
import { refuse } from '../refuse.ts';
import { type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { MAX_NOTE_CHARS } from '../protocol/http/notes.ts';
import { currentContent, evolveContent, initialContent, type NoteContent, type NoteContentEvent } from './content.ts';

export const EDITED_ELSEWHERE = errorText('notes.edited_elsewhere');

/**
 * `baseRevision` is the revision the edit started from: saving over a newer one would lose its text.
 * `initialContent` is the text the note was created with (its notebook node's), if any.
 */
export type SaveNoteContent = Command<'SaveNoteContent', { noteId: string; userId: string; content: string; baseRevision: number; initialContent?: string }>;
export type NoteContentCommand = SaveNoteContent;

export const saveNoteContent = (command: SaveNoteContent, state: NoteContent): NoteContentEvent[] => {
  const { noteId, userId, content, baseRevision } = command.data;
  if (content.length > MAX_NOTE_CHARS) throw refuse('invalid', 'notes.content_too_long', { max: MAX_NOTE_CHARS }, 'content');
  const current = currentContent(state, command.data.initialContent);
  if (baseRevision !== current.revision) throw refuse('conflict', 'notes.edited_elsewhere');
  if (current.content === content) return [];
  return [{ type: 'NoteContentSaved', data: { noteId, userId, content, revision: current.revision + 1, at: command.metadata.now.toISOString() } }];
};

export const noteContentDecider: Decider<NoteContent, NoteContentCommand, NoteContentEvent> = { initialState: initialContent, evolve: evolveContent, decide: saveNoteContent };

import { DomainError, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { evolveContent, initialContent, type NoteContent, type NoteContentEvent } from './content.ts';

/** A long chapter; the whole text travels in one JSON body, which the api caps at 1 MB. */
export const MAX_NOTE_CHARS = 300_000;
export const EDITED_ELSEWHERE = '笔记已在别处修改，请刷新后再编辑';

/** `baseRevision` is the revision the edit started from: saving over a newer one would lose its text. */
export type SaveNoteContent = Command<'SaveNoteContent', { noteId: string; userId: string; content: string; baseRevision: number }>;
export type NoteContentCommand = SaveNoteContent;

export const saveNoteContent = (command: SaveNoteContent, state: NoteContent): NoteContentEvent[] => {
  const { noteId, userId, content, baseRevision } = command.data;
  if (content.length > MAX_NOTE_CHARS) throw new DomainError('invalid', `笔记最长 ${MAX_NOTE_CHARS} 个字符`, 'content');
  if (baseRevision !== state.revision) throw new DomainError('conflict', EDITED_ELSEWHERE);
  if (state.status === 'written' ? state.content === content : content === '') return [];
  return [{ type: 'NoteContentSaved', data: { noteId, userId, content, revision: state.revision + 1, at: command.metadata.now.toISOString() } }];
};

export const noteContentDecider: Decider<NoteContent, NoteContentCommand, NoteContentEvent> = { initialState: initialContent, evolve: evolveContent, decide: saveNoteContent };

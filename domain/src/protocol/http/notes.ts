import { z } from 'zod';
import { expiresDays } from './share.ts';

/**
 * The notes routes' requests and replies (`/backend/api/notes…`); see `oauth.ts` for how they are
 * shared. A request schema is the one the route parses with; the client sends its `z.input`.
 */

export const MAX_NOTE_NAME = 200;
/** A long chapter; the whole text travels in one JSON body, which the api caps at 1 MB. */
export const MAX_NOTE_CHARS = 300_000;
const DEFAULT_NOTE_NAME = '新建笔记';

const noteName = z.string({ error: 'notes.name_required' }).trim().min(1, 'notes.name_empty').max(MAX_NOTE_NAME, 'notes.name_too_long');
export const noteId = z.uuid('notes.id_invalid');
const content = z.string({ error: 'notes.content_required' }).max(MAX_NOTE_CHARS, 'notes.content_too_long');

export const noteCreateBody = z.object({ name: noteName.default(DEFAULT_NOTE_NAME), parent_id: noteId.nullable().default(null), content: content.default('') });
export const noteRenameBody = z.object({ name: noteName });
export const noteContentBody = z.object({ content, revision: z.number({ error: 'notes.revision_required' }).int().min(0) });
export const noteMoveBody = z.object({ target_id: noteId.nullable(), position: z.enum(['before', 'after', 'inside'], { error: 'notes.position_invalid' }) });
export const noteShareBody = z.object({ expires_days: expiresDays });

export type NoteCreate = z.input<typeof noteCreateBody>;
export type NoteRename = z.input<typeof noteRenameBody>;
export type NoteContent = z.input<typeof noteContentBody>;
export type NoteMove = z.input<typeof noteMoveBody>;
export type NoteShare = z.input<typeof noteShareBody>;

export const noteSummary = z.object({
  id: z.string(),
  name: z.string(),
  parent_id: z.string().nullable(),
  order: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Its own link opens it now; the notes below it are public through that link too. */
  shared: z.boolean(),
});

export const noteShareLink = z.object({ token: z.string(), path: z.string(), expires_at: z.string().nullable() });

export const noteDetail = noteSummary.extend({ content: z.string(), revision: z.number().int(), share: noteShareLink.nullable() });

export const noteTree = z.object({ notes: z.array(noteSummary) });

export const noteSaved = z.object({ revision: z.number().int(), updated_at: z.string() });

export const notesDeleted = z.object({ deleted: z.array(z.string()) });

export const sharedNote = z.object({
  token: z.string(),
  id: z.string(),
  name: z.string(),
  content: z.string(),
  updated_at: z.string(),
  expires_at: z.string().nullable(),
  owner: z.string(),
  children: z.array(z.object({ id: z.string(), name: z.string(), parent_id: z.string(), order: z.number(), content: z.string(), updated_at: z.string() })),
});

export type NoteSummary = z.infer<typeof noteSummary>;
export type NoteDetail = z.infer<typeof noteDetail>;
export type NoteShareLink = z.infer<typeof noteShareLink>;
export type NoteTree = z.infer<typeof noteTree>;
export type NoteSaved = z.infer<typeof noteSaved>;
export type NotesDeleted = z.infer<typeof notesDeleted>;
export type SharedNote = z.infer<typeof sharedNote>;
export type SharedNoteChild = SharedNote['children'][number];

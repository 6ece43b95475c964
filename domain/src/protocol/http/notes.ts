import { z } from 'zod';

/** The notes routes' replies (`/backend/api/notes…`); see `oauth.ts` for how they are shared. */

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

import { z } from 'zod';
import { CONTEXT_FILE_TYPES, PREFERENCE_LANGUAGES, PREFERENCE_LENGTHS, PREFERENCE_STYLES } from '../contexts.ts';

/**
 * A research session's contexts (uploaded files, selected notes, the report preference) and general
 * uploads (`/conversation/api/research/…`, `/conversation/…/upload_file`): the spec's `{success, data}`
 * envelope around each reply. See `oauth.ts` for how they are shared.
 */
const succeeded = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

/** An upload as the session's context: the same file again answers with the context it already is. */
export const contextFileAdded = z.object({
  context_id: z.string(),
  conversation_id: z.string(),
  filename: z.string(),
  file_type: z.enum(CONTEXT_FILE_TYPES),
  size: z.number().int(),
  chars: z.number().int(),
  truncated: z.boolean(),
  /** The document's own title, when it has one. */
  title: z.string().optional(),
  pages: z.number().int().optional(),
  round: z.number().int().optional(),
});

export const context = z.object({
  context_id: z.string(),
  conversation_id: z.string(),
  type: z.enum(['file', 'note']),
  /** The file's name, or the note's title. */
  name: z.string(),
  filename: z.string().nullable(),
  title: z.string().nullable(),
  file_type: z.enum([...CONTEXT_FILE_TYPES, 'note']),
  size: z.number().int().nullable(),
  chars: z.number().int().nullable(),
  truncated: z.boolean(),
  note_id: z.string().nullable(),
  round: z.number().int().nullable(),
  created_at: z.string(),
});

export const contentPreference = z.object({
  length: z.enum(PREFERENCE_LENGTHS),
  style: z.enum(PREFERENCE_STYLES),
  language: z.enum(PREFERENCE_LANGUAGES),
  instructions: z.string(),
});

export const contextUploaded = succeeded(contextFileAdded);
export const contextList = succeeded(z.array(context));
export const contextRemoved = succeeded(z.object({ context_id: z.string() }));
export const noteSelected = succeeded(z.object({ context_id: z.string(), note_id: z.string(), title: z.string() }));
export const contentPreferenceReply = succeeded(contentPreference);
/** A general upload, kept for the owner at `file_url` (the socket's `add_context` names it). */
export const fileUploaded = succeeded(z.object({ file_url: z.string(), final_filename: z.string() }));

export type ContextFileAdded = z.infer<typeof contextFileAdded>;
export type ResearchContext = z.infer<typeof context>;
export type ContentPreference = z.infer<typeof contentPreference>;
export type ContextUploaded = z.infer<typeof contextUploaded>;
export type ContextList = z.infer<typeof contextList>;
export type ContextRemoved = z.infer<typeof contextRemoved>;
export type NoteSelected = z.infer<typeof noteSelected>;
export type ContentPreferenceReply = z.infer<typeof contentPreferenceReply>;
export type FileUploaded = z.infer<typeof fileUploaded>;

/** Requests: a schema is the one the route parses with; the client sends its `z.input`. */

/** The longest note a report preference carries for the writer. */
export const MAX_INSTRUCTIONS = 500;
export const conversationId = z.uuid('conversation.id_invalid');
export const contentPreferenceBody = z.object({
  conversation_id: conversationId,
  length: z.enum(PREFERENCE_LENGTHS, { error: 'context.length_invalid' }).optional(),
  style: z.enum(PREFERENCE_STYLES, { error: 'context.style_invalid' }).optional(),
  language: z.enum(PREFERENCE_LANGUAGES, { error: 'context.language_invalid' }).optional(),
  instructions: z.string().max(MAX_INSTRUCTIONS, 'context.instructions_too_long').optional(),
});
export const selectNoteBody = z.object({ conversation_id: conversationId });

export type ContentPreferenceBody = z.input<typeof contentPreferenceBody>;
export type SelectNoteBody = z.input<typeof selectNoteBody>;

import { randomUUID } from 'node:crypto';
import { ownedChat } from './ownedChat.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Router from '@koa/router';
import type { ParameterizedContext as Context } from 'koa';
import multer from 'multer';
import { z } from 'zod';
import type { BlobStore } from '@scriptorium/infra/blob/port';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import { NOTES, type NoteDoc } from '@scriptorium/projections/notes';
import { CONTENT_TYPES, ExtractError, extractText, kindOf, MAX_INPUT_BYTES, type Extracted, type FileKind } from '@scriptorium/infra/extract/index';
import { contextStream, DEFAULT_PREFERENCE, type ContextEntry } from '@scriptorium/domain/context/context';
import { contextDecider, type ContextCommand } from '@scriptorium/domain/context/decide';
import { CONTENT_PREFERENCES, CONTEXTS, type ContentPreferenceDoc, type ContextDoc } from '@scriptorium/projections/contexts';
import type { ConversationService } from '@scriptorium/domain/conversation/service';
import type { Logger } from '@scriptorium/infra/log';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { anyErrorText, coded, isErrorCode } from '@scriptorium/domain/protocol/errors';
import { HttpError, httpError, invalidField, validationError } from './errors.ts';
import { parseBody, parseParams, parseQuery } from './validate.ts';
import { contract } from './contract.ts';
import { contentPreferenceBody, contentPreferenceReply, contextList, conversationId, contextRemoved, contextUploaded, fileUploaded, noteSelected, selectNoteBody, type ContextFileAdded, type ResearchContext } from '@scriptorium/domain/protocol/http/contexts';

/** The notes read model arrives with the notes feature; only these fields are read here. */
/** Text taken from an upload, offered to whoever keeps a search corpus of the user's material. */
export interface ExtractedDocument {
  /** The context id for a research upload, the file id for a general one. */
  id: string;
  sessionId: string | null;
  filename: string;
  fileType: FileKind;
  title: string;
  text: string;
}

export interface FileRouteOptions {
  blobs: BlobStore;
  progress: ProjectionProgress;
  /** Awaited before the upload answers; a failure is logged and does not fail the upload. */
  onTextExtracted?: (userId: string, doc: ExtractedDocument) => Promise<void> | void;
}

const MAX_MB = MAX_INPUT_BYTES / 1024 / 1024;
const tooLarge = () => httpError(413, 'files.too_large', { mb: MAX_MB });
/** Room for the multipart boundaries and the small text fields next to the file. */
const MULTIPART_OVERHEAD = 64 * 1024;

const contextId = z.string().trim().min(1, 'context.id_required').max(100);
const researchFields = z.object({
  conversation_id: conversationId,
  file_type: z.string().trim().max(100).optional(),
  round: z.preprocess((value) => (value === '' ? undefined : value), z.coerce.number({ error: 'context.round_integer' }).int('context.round_integer').min(0).max(10_000).optional()),
});

const upload = multer({
  storage: multer.memoryStorage(),
  // Browsers send UTF-8 file names without saying so; busboy's default (latin1) would garble Chinese ones.
  defParamCharset: 'utf8',
  limits: { fileSize: MAX_INPUT_BYTES, files: 1, fields: 10, fieldSize: 16 * 1024, parts: 12 },
}).single('file');

interface Uploaded {
  file: Express.Multer.File | undefined;
  fields: Record<string, unknown>;
}

/** Reads a multipart body (at most one file, named `file`) into memory; nothing touches the disk. */
export async function readMultipart(ctx: Context): Promise<Uploaded> {
  const declared = Number(ctx.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_INPUT_BYTES + MULTIPART_OVERHEAD) throw tooLarge();
  const req = ctx.req as IncomingMessage & { file?: Express.Multer.File; body?: Record<string, unknown> };
  try {
    await new Promise<void>((resolve, reject) => upload(req as never, ctx.res as ServerResponse as never, (error: unknown) => (error ? reject(error) : resolve())));
  } catch (error) {
    throw multipartError(error);
  }
  return { file: req.file, fields: { ...req.body } };
}

function multipartError(error: unknown): unknown {
  if (!(error instanceof multer.MulterError)) {
    // busboy rejects a truncated or malformed body with a plain Error.
    return error instanceof Error && !(error instanceof HttpError) ? httpError(400, 'files.form_malformed') : error;
  }
  switch (error.code) {
    case 'LIMIT_FILE_SIZE':
      return tooLarge();
    case 'LIMIT_UNEXPECTED_FILE':
    case 'LIMIT_FILE_COUNT':
      return invalidField([error.field ?? 'file'], 'files.one_file_only');
    default:
      return invalidField([error.field ?? 'form'], 'files.form_too_large');
  }
}

const missingFile = () => invalidField(['file'], 'files.missing', {}, 'missing');

function extractError(error: ExtractError): HttpError {
  const code = isErrorCode(error.code) ? error.code : 'files.unreadable';
  const text = anyErrorText(code, error.params);
  switch (error.reason) {
    case 'too_large':
      return new HttpError(413, text, code, error.params);
    case 'unsupported_type':
    case 'type_mismatch':
      return new HttpError(415, text, code, error.params);
    default:
      return new HttpError(422, [{ loc: ['body', 'file'], msg: text, type: error.reason, ...coded(code, error.params) }], code, error.params);
  }
}

async function extract(file: Pick<Express.Multer.File, 'buffer' | 'mimetype'>, filename: string, hint: string | undefined): Promise<Extracted> {
  const hinted = hint ? kindOf(hint) : undefined;
  try {
    return await extractText(file.buffer, { filename, mimeType: hinted ? CONTENT_TYPES[hinted] : file.mimetype });
  } catch (error) {
    throw error instanceof ExtractError ? extractError(error) : error;
  }
}

/**
 * The last path part, without control or path characters, at most 200 characters (whole ones) with its
 * extension kept. Lone surrogates (JSON can carry `"\\ud800"`) become U+FFFD: a header cannot carry
 * one, since `encodeURIComponent` throws on it.
 */
export function safeFilename(original: string): string {
  const base = original.toWellFormed().normalize('NFC').replace(/\\/g, '/').split('/').pop() ?? '';
  const cleaned = [...base.replace(/[\u0000-\u001f\u007f"<>|:*?]/g, '').trim().replace(/^\.+/, '')];
  if (cleaned.length === 0) return 'upload';
  if (cleaned.length <= 200) return cleaned.join('');
  const dot = cleaned.lastIndexOf('.');
  const extension = dot > 0 && cleaned.length - dot <= 10 ? cleaned.slice(dot) : [];
  return [...cleaned.slice(0, 200 - extension.length), ...extension].join('');
}

const textName = (filename: string) => `${filename.replace(/\.[^.]+$/, '') || 'context'}.txt`;

export const contextDto = (doc: ContextDoc): ResearchContext => ({
  context_id: doc._id,
  conversation_id: doc.session_id,
  type: doc.kind,
  name: doc.name,
  filename: doc.kind === 'file' ? doc.name : null,
  title: doc.kind === 'note' ? doc.name : null,
  file_type: doc.file_type,
  size: doc.size,
  chars: doc.chars,
  truncated: doc.truncated,
  note_id: doc.note_id,
  round: doc.round,
  created_at: doc.created_at,
});

const preferenceDto = (preference: Pick<ContentPreferenceDoc, 'length' | 'style' | 'language' | 'instructions'>) => ({
  length: preference.length,
  style: preference.style,
  language: preference.language,
  instructions: preference.instructions,
});

/** An upload on its way to becoming a research context: the bytes, a safe name, and the form's hints. */
export interface ContextUpload {
  file: Pick<Express.Multer.File, 'buffer' | 'mimetype'>;
  filename: string;
  fileType?: string;
  round?: number;
}

export interface ContextFiles {
  /**
   * Stores the file and its text and adds it to the session's contexts; the same file again
   * answers with the context it already is. Every refusal happens before anything is stored.
   */
  add(userId: string, sessionId: string, upload: ContextUpload, log?: Logger): Promise<ContextFileAdded>;
  /** The same for a file uploaded earlier with `/conversation/api/upload_file` (the socket's `add_context`). */
  addUploaded(userId: string, sessionId: string, fileId: string, hints: Pick<ContextUpload, 'fileType' | 'round'>, log?: Logger): Promise<ContextFileAdded>;
}

export function contextFiles(services: Services, options: FileRouteOptions): ContextFiles {
  const { blobs, progress } = options;

  const add: ContextFiles['add'] = async (userId, sessionId, { file, filename, fileType, round }, log) => {
    await ownedChat(services.readStore, userId, sessionId);
    const extracted = await extract(file, filename, fileType);
    const id = randomUUID();
    const blobKey = `contexts/${userId}/${id}.original`;
    const textKey = `contexts/${userId}/${id}.txt`;
    const stored = await blobs.put(blobKey, file.buffer, { contentType: CONTENT_TYPES[extracted.kind], metadata: { filename } });
    let result;
    try {
      await blobs.put(textKey, Buffer.from(extracted.text, 'utf8'), { contentType: 'text/plain; charset=utf-8', metadata: { filename: textName(filename) } });
      result = await runContext(services, progress, userId, sessionId, {
        type: 'AddContextFile',
        data: {
          sessionId,
          userId,
          contextId: id,
          filename,
          fileType: extracted.kind,
          size: stored.size,
          sha256: stored.sha256,
          blobKey,
          textKey,
          chars: extracted.text.length,
          truncated: extracted.truncated,
          ...(round !== undefined && { round }),
        },
      });
    } catch (error) {
      await discard(blobs, [blobKey, textKey], log);
      throw error;
    }
    let contextIdOut: string = id;
    if (result.newEvents.length === 0) {
      // The same file was already a context of this session: answer with that one.
      await discard(blobs, [blobKey, textKey], log);
      const existing = result.newState.entries.find((entry): entry is Extract<ContextEntry, { kind: 'file' }> => entry.kind === 'file' && entry.sha256 === stored.sha256 && entry.filename === filename);
      contextIdOut = existing?.contextId ?? id;
    } else {
      await offer(options, userId, { id, sessionId, filename, fileType: extracted.kind, title: extracted.title ?? filename, text: extracted.text }, log);
    }
    return {
      context_id: contextIdOut,
      conversation_id: sessionId,
      filename,
      file_type: extracted.kind,
      size: stored.size,
      chars: extracted.text.length,
      truncated: extracted.truncated,
      ...(extracted.title !== undefined && { title: extracted.title }),
      ...(extracted.pages !== undefined && { pages: extracted.pages }),
      ...(round !== undefined && { round }),
    };
  };

  return {
    add,
    async addUploaded(userId, sessionId, fileId, hints, log) {
      // The owner is part of the key, so another user's file simply finds nothing.
      const key = uploadKey(userId, fileId);
      const info = await blobs.stat(key);
      if (!info) throw httpError(404, 'files.not_found');
      const buffer = Buffer.concat(await (await blobs.get(key)).toArray());
      return add(userId, sessionId, { file: { buffer, mimetype: info.contentType }, filename: info.metadata.filename ?? fileId, ...hints }, log);
    },
  };
}

const uploadKey = (userId: string, fileId: string) => `files/${userId}/${fileId}`;

async function runContext(services: Services, progress: ProjectionProgress, userId: string, sessionId: string, command: Omit<ContextCommand, 'metadata'>) {
  const result = await services.commands.handle(contextDecider, contextStream(sessionId), {
    ...command,
    metadata: { now: services.clock(), userId, correlationId: randomUUID() },
  } as ContextCommand);
  if (result.position > 0) await progress.waitFor(result.position);
  return result;
}

async function offer(options: FileRouteOptions, userId: string, doc: ExtractedDocument, log: Logger | undefined): Promise<void> {
  if (!options.onTextExtracted) return;
  try {
    await options.onTextExtracted(userId, doc);
  } catch (error) {
    log?.warn({ err: error, id: doc.id }, 'extracted text was not taken by the corpus');
  }
}

async function discard(blobs: BlobStore, keys: string[], log: Logger | undefined): Promise<void> {
  for (const key of keys) {
    await blobs.delete(key).catch((error: unknown) => log?.warn({ err: error, key }, 'blob left behind'));
  }
}

/**
 * Research contexts (uploaded files, selected notes, the report preference) and general uploads.
 * Every refusal (size, type, content, ownership) happens before anything is stored; a stored blob
 * whose command then fails is deleted again.
 */
export function fileRoutes(services: Services, conversations: ConversationService, options: FileRouteOptions, contexts: ContextFiles): Router {
  const router = new Router();
  const { blobs, progress } = options;
  const contextDocs = () => services.readStore.collection<ContextDoc>(CONTEXTS);
  const run = (actor: { userId: string }, sessionId: string, command: Omit<ContextCommand, 'metadata'>) => runContext(services, progress, actor.userId, sessionId, command);

  const researchUpload = contract({ access: 'user', multipart: researchFields, responses: { 200: contextUploaded }, refusals: [404, 413, 415] });
  router.post('/conversation/v2/research/upload_file', researchUpload, async (ctx) => {
    const user = await requireUser(services, ctx);
    const { file, fields } = await readMultipart(ctx);
    const parsed = researchFields.safeParse(fields);
    if (!parsed.success) throw validationError(parsed.error.issues, 'body');
    const body = parsed.data;
    await ownedChat(services.readStore, user.id, body.conversation_id);
    if (!file) throw missingFile();
    const upload = { file, filename: safeFilename(file.originalname), ...(body.file_type !== undefined && { fileType: body.file_type }), ...(body.round !== undefined && { round: body.round }) };
    researchUpload.reply(ctx, 200, { success: true, data: await contexts.add(user.id, body.conversation_id, upload, ctx.state.log) });
  });

  const generalUpload = contract({ access: 'user', multipart: z.object({}), responses: { 200: fileUploaded }, refusals: [413, 415] });
  router.post('/conversation/api/upload_file', generalUpload, async (ctx) => {
    const user = await requireUser(services, ctx);
    const { file } = await readMultipart(ctx);
    if (!file) throw missingFile();
    const filename = safeFilename(file.originalname);
    const extracted = await extract(file, filename, undefined);
    const id = randomUUID();
    await blobs.put(uploadKey(user.id, id), file.buffer, { contentType: CONTENT_TYPES[extracted.kind], metadata: { filename } });
    await offer(options, user.id, { id, sessionId: null, filename, fileType: extracted.kind, title: extracted.title ?? filename, text: extracted.text }, ctx.state.log);
    generalUpload.reply(ctx, 200, { success: true, data: { file_url: `/backend/conversation/api/files/${id}`, final_filename: filename } });
  });

  const filesParams = z.object({ id: z.uuid('files.id_invalid') });
  router.get('/conversation/api/files/:id', contract({ access: 'user', params: filesParams, responses: { 200: { type: 'application/octet-stream' } }, refusals: [404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, filesParams);
    const key = uploadKey(user.id, id);
    const info = await blobs.stat(key);
    if (!info) throw httpError(404, 'files.not_found');
    ctx.attachment(info.metadata.filename ?? id);
    ctx.type = info.contentType;
    ctx.length = info.size;
    // An uploaded HTML page must never run as this site, even if a browser opens it inline.
    ctx.set({ 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': 'sandbox' });
    ctx.body = await blobs.get(key);
  });

  const contextsParams = z.object({ id: conversationId });
  const listContexts = contract({ access: 'user', params: contextsParams, responses: { 200: contextList }, refusals: [404] });
  router.get('/conversation/api/research/contexts/:id', listContexts, async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, contextsParams);
    await ownedChat(services.readStore, user.id, id);
    const docs = await contextDocs().find({ session_id: id }, { sort: { position: 1 } });
    listContexts.reply(ctx, 200, { success: true, data: docs.map(contextDto) });
  });

  const contextsDeleteBody = z.object({ conversation_id: conversationId, context_id: contextId });
  const removeContext = contract({ access: 'user', body: contextsDeleteBody, responses: { 200: contextRemoved }, refusals: [404] });
  router.post('/conversation/api/research/contexts/delete', removeContext, async (ctx) => {
    const body = parseBody(ctx, contextsDeleteBody);
    const user = await requireUser(services, ctx);
    const actor = { userId: user.id };
    await ownedChat(services.readStore, actor.userId, body.conversation_id);
    const { state } = await services.commands.load(contextDecider, contextStream(body.conversation_id));
    const entry = state.entries.find((candidate) => candidate.contextId === body.context_id);
    await run(actor, body.conversation_id, { type: 'RemoveContext', data: { sessionId: body.conversation_id, userId: user.id, contextId: body.context_id } });
    // A removed upload is gone for good: its bytes go once the log says so.
    if (entry?.kind === 'file') await discard(blobs, [entry.blobKey, entry.textKey], ctx.state.log);
    removeContext.reply(ctx, 200, { success: true, data: { context_id: body.context_id } });
  });

  const requestContextQuery = z.object({ conversation_id: conversationId });
  const requestContextParams = z.object({ id: contextId });
  router.get('/conversation/api/research/request_context/:id', contract({ access: 'user', params: requestContextParams, query: requestContextQuery, responses: { 200: { type: 'text/plain' } }, refusals: [404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, requestContextParams);
    const query = parseQuery(ctx, requestContextQuery);
    await ownedChat(services.readStore, user.id, query.conversation_id);
    const doc = await contextDocs().get(id);
    if (!doc || doc.session_id !== query.conversation_id) throw httpError(404, 'context.not_found');
    ctx.attachment(textName(safeFilename(doc.name)));
    ctx.type = 'text/plain; charset=utf-8';
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (doc.kind === 'note') {
      const note = doc.note_id ? await services.readStore.collection<NoteDoc>(NOTES).get(doc.note_id) : null;
      if (!note || note.user_id !== user.id) throw httpError(404, 'notes.not_found');
      ctx.body = note.content;
      return;
    }
    const info = doc.text_key ? await blobs.stat(doc.text_key) : null;
    if (!info || !doc.text_key) throw httpError(404, 'context.not_found');
    ctx.length = info.size;
    ctx.body = await blobs.get(doc.text_key);
  });

  const selectNoteParams = z.object({ id: z.string().trim().min(1).max(100) });
  const selectNote = contract({ access: 'user', params: selectNoteParams, body: selectNoteBody, responses: { 200: noteSelected }, refusals: [404] });
  router.post('/conversation/api/research/select_note/:id', selectNote, async (ctx) => {
    const { id: noteId } = parseParams(ctx.params, selectNoteParams);
    const body = parseBody(ctx, selectNoteBody);
    const user = await requireUser(services, ctx);
    const actor = { userId: user.id };
    await ownedChat(services.readStore, actor.userId, body.conversation_id);
    const note = await services.readStore.collection<NoteDoc>(NOTES).get(noteId);
    if (!note || note.user_id !== user.id) throw httpError(404, 'notes.not_found');
    const id = randomUUID();
    const result = await run(actor, body.conversation_id, { type: 'SelectNote', data: { sessionId: body.conversation_id, userId: user.id, contextId: id, noteId, title: note.name } });
    const selected = result.newState.entries.find((entry) => entry.kind === 'note' && entry.noteId === noteId);
    selectNote.reply(ctx, 200, { success: true, data: { context_id: selected?.contextId ?? id, note_id: noteId, title: note.name } });
  });

  const contentPreferenceParams = z.object({ id: conversationId });
  const readPreference = contract({ access: 'user', params: contentPreferenceParams, responses: { 200: contentPreferenceReply }, refusals: [404] });
  router.get('/conversation/api/research/content_preference/:id', readPreference, async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, contentPreferenceParams);
    await ownedChat(services.readStore, user.id, id);
    const doc = await services.readStore.collection<ContentPreferenceDoc>(CONTENT_PREFERENCES).get(id);
    readPreference.reply(ctx, 200, { success: true, data: preferenceDto(doc ?? DEFAULT_PREFERENCE) });
  });

  const setPreference = contract({ access: 'user', body: contentPreferenceBody, responses: { 200: contentPreferenceReply }, refusals: [404] });
  router.post('/conversation/api/research/content_preference', setPreference, async (ctx) => {
    const body = parseBody(ctx, contentPreferenceBody);
    const user = await requireUser(services, ctx);
    const actor = { userId: user.id };
    await ownedChat(services.readStore, actor.userId, body.conversation_id);
    const { conversation_id: sessionId, ...changes } = body;
    const result = await run(actor, sessionId, { type: 'SetContentPreference', data: { sessionId, userId: user.id, changes } });
    setPreference.reply(ctx, 200, { success: true, data: preferenceDto(result.newState.preference) });
  });

  return router;
}

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Router from '@koa/router';
import type { ParameterizedContext as Context } from 'koa';
import multer from 'multer';
import { z } from 'zod';
import type { BlobStore } from '@scriptorium/infra/blob/port';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import { NOTES, type NoteDoc } from '@scriptorium/projections/notes';
import { CONTENT_TYPES, ExtractError, extractText, kindOf, MAX_INPUT_BYTES, type Extracted, type FileKind } from '@scriptorium/workers/extract/index';
import { contextStream, REPORT_LANGUAGES, REPORT_LENGTHS, REPORT_STYLES, DEFAULT_PREFERENCE, type ContextEntry } from '../domain/context/context.ts';
import { contextDecider, MAX_INSTRUCTIONS, type ContextCommand } from '../domain/context/decide.ts';
import { CONTENT_PREFERENCES, CONTEXTS, type ContentPreferenceDoc, type ContextDoc } from '../domain/context/projection.ts';
import type { ConversationService } from '../domain/conversation/service.ts';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { HttpError, validationError } from './errors.ts';
import { parseBody, parseParams, parseQuery } from './validate.ts';

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
const TOO_LARGE = `文件大小不能超过 ${MAX_MB} MB`;
/** Room for the multipart boundaries and the small text fields next to the file. */
const MULTIPART_OVERHEAD = 64 * 1024;

const conversationId = z.uuid('会话 ID 格式不正确');
const contextId = z.string().trim().min(1, '请提供 context_id').max(100);
const researchFields = z.object({
  conversation_id: conversationId,
  file_type: z.string().trim().max(100).optional(),
  round: z.preprocess((value) => (value === '' ? undefined : value), z.coerce.number({ error: 'round 必须是整数' }).int('round 必须是整数').min(0).max(10_000).optional()),
});
const preferenceBody = z.object({
  conversation_id: conversationId,
  length: z.enum(REPORT_LENGTHS, { error: 'length 只能是 short、medium 或 long' }).optional(),
  style: z.enum(REPORT_STYLES, { error: 'style 只能是 academic、professional 或 popular' }).optional(),
  language: z.enum(REPORT_LANGUAGES, { error: 'language 只能是 zh 或 en' }).optional(),
  instructions: z.string().max(MAX_INSTRUCTIONS, `补充要求最长 ${MAX_INSTRUCTIONS} 个字符`).optional(),
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
  if (Number.isFinite(declared) && declared > MAX_INPUT_BYTES + MULTIPART_OVERHEAD) throw new HttpError(413, TOO_LARGE);
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
    return error instanceof Error && !(error instanceof HttpError) ? new HttpError(400, '上传的表单不完整或格式错误') : error;
  }
  switch (error.code) {
    case 'LIMIT_FILE_SIZE':
      return new HttpError(413, TOO_LARGE);
    case 'LIMIT_UNEXPECTED_FILE':
    case 'LIMIT_FILE_COUNT':
      return new HttpError(422, [{ loc: ['body', error.field ?? 'file'], msg: '每次只能上传一个文件，字段名为 file', type: 'value_error' }]);
    default:
      return new HttpError(422, [{ loc: ['body', error.field ?? 'form'], msg: '表单字段过多或过长', type: 'value_error' }]);
  }
}

const missingFile = () => new HttpError(422, [{ loc: ['body', 'file'], msg: '请选择要上传的文件', type: 'missing' }]);

function extractError(error: ExtractError): HttpError {
  switch (error.reason) {
    case 'too_large':
      return new HttpError(413, error.message);
    case 'unsupported_type':
    case 'type_mismatch':
      return new HttpError(415, error.message);
    default:
      return new HttpError(422, [{ loc: ['body', 'file'], msg: error.message, type: error.reason }]);
  }
}

async function extract(file: Express.Multer.File, filename: string, hint: string | undefined): Promise<Extracted> {
  const hinted = hint ? kindOf(hint) : undefined;
  try {
    return await extractText(file.buffer, { filename, mimeType: hinted ? CONTENT_TYPES[hinted] : file.mimetype });
  } catch (error) {
    throw error instanceof ExtractError ? extractError(error) : error;
  }
}

/** The last path part, without control or path characters, at most 200 characters with its extension kept. */
export function safeFilename(original: string): string {
  const base = original.normalize('NFC').replace(/\\/g, '/').split('/').pop() ?? '';
  const cleaned = base.replace(/[\u0000-\u001f\u007f"<>|:*?]/g, '').trim().replace(/^\.+/, '');
  if (!cleaned) return 'upload';
  if (cleaned.length <= 200) return cleaned;
  const dot = cleaned.lastIndexOf('.');
  const extension = dot > 0 && cleaned.length - dot <= 10 ? cleaned.slice(dot) : '';
  return cleaned.slice(0, 200 - extension.length) + extension;
}

const textName = (filename: string) => `${filename.replace(/\.[^.]+$/, '') || 'context'}.txt`;

export const contextDto = (doc: ContextDoc) => ({
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

/**
 * Research contexts (uploaded files, selected notes, the report preference) and general uploads.
 * Every refusal (size, type, content, ownership) happens before anything is stored; a stored blob
 * whose command then fails is deleted again.
 */
export function fileRoutes(services: Services, conversations: ConversationService, options: FileRouteOptions): Router {
  const router = new Router();
  const { blobs, progress } = options;
  const contexts = () => services.readStore.collection<ContextDoc>(CONTEXTS);

  const run = async (actor: { userId: string }, sessionId: string, command: Omit<ContextCommand, 'metadata'>) => {
    const result = await services.commands.handle(contextDecider, contextStream(sessionId), {
      ...command,
      metadata: { now: services.clock(), userId: actor.userId, correlationId: randomUUID() },
    } as ContextCommand);
    if (result.position > 0) await progress.waitFor(result.position);
    return result;
  };

  const offer = async (userId: string, doc: ExtractedDocument, ctx: Context) => {
    if (!options.onTextExtracted) return;
    try {
      await options.onTextExtracted(userId, doc);
    } catch (error) {
      ctx.state.log?.warn({ err: error, id: doc.id }, 'extracted text was not taken by the corpus');
    }
  };

  const discard = async (keys: string[], ctx: Context) => {
    for (const key of keys) {
      await blobs.delete(key).catch((error: unknown) => ctx.state.log?.warn({ err: error, key }, 'blob left behind'));
    }
  };

  router.post('/conversation/v2/research/upload_file', async (ctx) => {
    const user = await requireUser(services, ctx);
    const { file, fields } = await readMultipart(ctx);
    const parsed = researchFields.safeParse(fields);
    if (!parsed.success) throw validationError(parsed.error.issues, 'body');
    const body = parsed.data;
    const actor = { userId: user.id };
    await conversations.owned(actor, body.conversation_id);
    if (!file) throw missingFile();
    const filename = safeFilename(file.originalname);
    const extracted = await extract(file, filename, body.file_type);

    const id = randomUUID();
    const blobKey = `contexts/${user.id}/${id}.original`;
    const textKey = `contexts/${user.id}/${id}.txt`;
    const stored = await blobs.put(blobKey, file.buffer, { contentType: CONTENT_TYPES[extracted.kind], metadata: { filename } });
    let result;
    try {
      await blobs.put(textKey, Buffer.from(extracted.text, 'utf8'), { contentType: 'text/plain; charset=utf-8', metadata: { filename: textName(filename) } });
      result = await run(actor, body.conversation_id, {
        type: 'AddContextFile',
        data: {
          sessionId: body.conversation_id,
          userId: user.id,
          contextId: id,
          filename,
          fileType: extracted.kind,
          size: stored.size,
          sha256: stored.sha256,
          blobKey,
          textKey,
          chars: extracted.text.length,
          truncated: extracted.truncated,
          ...(body.round !== undefined && { round: body.round }),
        },
      });
    } catch (error) {
      await discard([blobKey, textKey], ctx);
      throw error;
    }
    let contextIdOut: string = id;
    if (result.newEvents.length === 0) {
      // The same file was already a context of this session: answer with that one.
      await discard([blobKey, textKey], ctx);
      const existing = result.newState.entries.find((entry): entry is Extract<ContextEntry, { kind: 'file' }> => entry.kind === 'file' && entry.sha256 === stored.sha256 && entry.filename === filename);
      contextIdOut = existing?.contextId ?? id;
    } else {
      await offer(user.id, { id, sessionId: body.conversation_id, filename, fileType: extracted.kind, title: extracted.title ?? filename, text: extracted.text }, ctx);
    }
    ctx.body = {
      success: true,
      data: {
        context_id: contextIdOut,
        conversation_id: body.conversation_id,
        filename,
        file_type: extracted.kind,
        size: stored.size,
        chars: extracted.text.length,
        truncated: extracted.truncated,
        ...(extracted.title !== undefined && { title: extracted.title }),
        ...(extracted.pages !== undefined && { pages: extracted.pages }),
        ...(body.round !== undefined && { round: body.round }),
      },
    };
  });

  router.post('/conversation/api/upload_file', async (ctx) => {
    const user = await requireUser(services, ctx);
    const { file } = await readMultipart(ctx);
    if (!file) throw missingFile();
    const filename = safeFilename(file.originalname);
    const extracted = await extract(file, filename, undefined);
    const id = randomUUID();
    await blobs.put(`files/${user.id}/${id}`, file.buffer, { contentType: CONTENT_TYPES[extracted.kind], metadata: { filename } });
    await offer(user.id, { id, sessionId: null, filename, fileType: extracted.kind, title: extracted.title ?? filename, text: extracted.text }, ctx);
    ctx.body = { success: true, data: { file_url: `/backend/conversation/api/files/${id}`, final_filename: filename } };
  });

  router.get('/conversation/api/files/:id', async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, z.object({ id: z.uuid('文件 ID 格式不正确') }));
    // The owner is part of the key, so another user's id simply finds nothing.
    const key = `files/${user.id}/${id}`;
    const info = await blobs.stat(key);
    if (!info) throw new HttpError(404, '文件不存在');
    ctx.attachment(info.metadata.filename ?? id);
    ctx.type = info.contentType;
    ctx.length = info.size;
    // An uploaded HTML page must never run as this site, even if a browser opens it inline.
    ctx.set({ 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': 'sandbox' });
    ctx.body = await blobs.get(key);
  });

  router.get('/conversation/api/research/contexts/:id', async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, z.object({ id: conversationId }));
    await conversations.owned({ userId: user.id }, id);
    const docs = await contexts().find({ session_id: id }, { sort: { position: 1 } });
    ctx.body = { success: true, data: docs.map(contextDto) };
  });

  router.post('/conversation/api/research/contexts/delete', async (ctx) => {
    const body = parseBody(ctx, z.object({ conversation_id: conversationId, context_id: contextId }));
    const user = await requireUser(services, ctx);
    const actor = { userId: user.id };
    await conversations.owned(actor, body.conversation_id);
    const { state } = await services.commands.load(contextDecider, contextStream(body.conversation_id));
    const entry = state.entries.find((candidate) => candidate.contextId === body.context_id);
    await run(actor, body.conversation_id, { type: 'RemoveContext', data: { sessionId: body.conversation_id, userId: user.id, contextId: body.context_id } });
    // A removed upload is gone for good: its bytes go once the log says so.
    if (entry?.kind === 'file') await discard([entry.blobKey, entry.textKey], ctx);
    ctx.body = { success: true, data: { context_id: body.context_id } };
  });

  router.get('/conversation/api/research/request_context/:id', async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, z.object({ id: contextId }));
    const query = parseQuery(ctx, z.object({ conversation_id: conversationId }));
    await conversations.owned({ userId: user.id }, query.conversation_id);
    const doc = await contexts().get(id);
    if (!doc || doc.session_id !== query.conversation_id) throw new HttpError(404, '上下文不存在');
    ctx.attachment(textName(doc.name));
    ctx.type = 'text/plain; charset=utf-8';
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (doc.kind === 'note') {
      const note = doc.note_id ? await services.readStore.collection<NoteDoc>(NOTES).get(doc.note_id) : null;
      if (!note || note.user_id !== user.id) throw new HttpError(404, '笔记不存在');
      ctx.body = note.content;
      return;
    }
    const info = doc.text_key ? await blobs.stat(doc.text_key) : null;
    if (!info || !doc.text_key) throw new HttpError(404, '上下文不存在');
    ctx.length = info.size;
    ctx.body = await blobs.get(doc.text_key);
  });

  router.post('/conversation/api/research/select_note/:id', async (ctx) => {
    const { id: noteId } = parseParams(ctx.params, z.object({ id: z.string().trim().min(1).max(100) }));
    const body = parseBody(ctx, z.object({ conversation_id: conversationId }));
    const user = await requireUser(services, ctx);
    const actor = { userId: user.id };
    await conversations.owned(actor, body.conversation_id);
    const note = await services.readStore.collection<NoteDoc>(NOTES).get(noteId);
    if (!note || note.user_id !== user.id) throw new HttpError(404, '笔记不存在');
    const id = randomUUID();
    const result = await run(actor, body.conversation_id, { type: 'SelectNote', data: { sessionId: body.conversation_id, userId: user.id, contextId: id, noteId, title: note.name } });
    const selected = result.newState.entries.find((entry) => entry.kind === 'note' && entry.noteId === noteId);
    ctx.body = { success: true, data: { context_id: selected?.contextId ?? id, note_id: noteId, title: note.name } };
  });

  router.get('/conversation/api/research/content_preference/:id', async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, z.object({ id: conversationId }));
    await conversations.owned({ userId: user.id }, id);
    const doc = await services.readStore.collection<ContentPreferenceDoc>(CONTENT_PREFERENCES).get(id);
    ctx.body = { success: true, data: preferenceDto(doc ?? DEFAULT_PREFERENCE) };
  });

  router.post('/conversation/api/research/content_preference', async (ctx) => {
    const body = parseBody(ctx, preferenceBody);
    const user = await requireUser(services, ctx);
    const actor = { userId: user.id };
    await conversations.owned(actor, body.conversation_id);
    const { conversation_id: sessionId, ...changes } = body;
    const result = await run(actor, sessionId, { type: 'SetContentPreference', data: { sessionId, userId: user.id, changes } });
    ctx.body = { success: true, data: preferenceDto(result.newState.preference) };
  });

  return router;
}

import { randomBytes, randomUUID } from 'node:crypto';
import Router from '@koa/router';
import { z } from 'zod';
import { NOTE_SHARES, NOTES, type NoteDoc, type NoteShareDoc } from '@scriptorium/projections/notes';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import { USERS, type UserDoc } from '@scriptorium/projections/users';
import { noteContentStream } from '../domain/notes/content.ts';
import { MAX_NOTE_CHARS, noteContentDecider } from '../domain/notes/contentDecide.ts';
import { MAX_NOTE_NAME, NOTE_NOT_FOUND, notebookDecider, type NotebookCommand } from '../domain/notes/decide.ts';
import { notebookStream } from '../domain/notes/notes.ts';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { HttpError } from './errors.ts';
import { parseBody, parseParams } from './validate.ts';

const GONE = '分享不存在或已过期';
/** A shared folder shows at most this many notes below the shared one. */
const MAX_SHARED_NOTES = 500;
export const DEFAULT_NOTE_NAME = '新建笔记';

const noteName = z.string({ error: '请提供笔记名称' }).trim().min(1, '笔记名称不能为空').max(MAX_NOTE_NAME, `笔记名称最多 ${MAX_NOTE_NAME} 个字符`);
const noteId = z.uuid('笔记 ID 格式不正确');
const idParam = z.object({ id: noteId });
const content = z.string({ error: '请提供笔记内容' }).max(MAX_NOTE_CHARS, `笔记最长 ${MAX_NOTE_CHARS} 个字符`);

const createBody = z.object({ name: noteName.default(DEFAULT_NOTE_NAME), parent_id: noteId.nullable().default(null), content: content.default('') });
const renameBody = z.object({ name: noteName });
const contentBody = z.object({ content, revision: z.number({ error: '请提供编辑起点的 revision' }).int().min(0) });
const moveBody = z.object({ target_id: noteId.nullable(), position: z.enum(['before', 'after', 'inside'], { error: 'position 只能是 before、after 或 inside' }) });
const shareBody = z.object({
  expires_days: z.number().int('有效期需为整数天').min(1, '有效期至少 1 天').max(3650, '有效期最多 3650 天').nullable().default(null),
});
const tokenParam = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, '分享链接格式不正确') });

const summaryDto = (doc: NoteDoc) => ({ id: doc._id, name: doc.name, parent_id: doc.parent_id, order: doc.order, created_at: doc.created_at, updated_at: doc.updated_at });
const detailDto = (doc: NoteDoc) => ({
  ...summaryDto(doc),
  content: doc.content,
  revision: doc.revision,
  share: doc.share_token ? { token: doc.share_token, path: `/share/${doc.share_token}`, expires_at: doc.share_expires_at } : null,
});

/** The notes tree: one notebook stream per user for the tree, one stream per note for its text. */
export function noteRoutes(services: Services, progress: ProjectionProgress): Router {
  const router = new Router();
  const notes = () => services.readStore.collection<NoteDoc>(NOTES);

  const notebook = (userId: string, command: Omit<NotebookCommand, 'metadata'>) =>
    services.commands.handle(notebookDecider, notebookStream(userId), { ...command, metadata: { now: services.clock(), userId } } as NotebookCommand);

  /** The caller's note, as the read model has it once everything the caller did is applied. */
  async function owned(userId: string, id: string, position = 0): Promise<NoteDoc> {
    await progress.waitFor(position);
    const doc = await notes().get(id);
    if (!doc || doc.user_id !== userId) throw new HttpError(404, NOTE_NOT_FOUND);
    return doc;
  }

  async function tree(userId: string) {
    return (await notes().find({ user_id: userId }, { sort: { order: 1 } })).map(summaryDto);
  }

  router.get('/api/notes', async (ctx) => {
    const user = await requireUser(services, ctx);
    ctx.body = { notes: await tree(user.id) };
  });

  router.post('/api/notes', async (ctx) => {
    const user = await requireUser(services, ctx);
    const body = parseBody(ctx, createBody);
    const id = randomUUID();
    let { position } = await notebook(user.id, { type: 'CreateNote', data: { userId: user.id, noteId: id, name: body.name, parentId: body.parent_id } });
    if (body.content) {
      const saved = await services.commands.handle(noteContentDecider, noteContentStream(id), {
        type: 'SaveNoteContent',
        data: { noteId: id, userId: user.id, content: body.content, baseRevision: 0 },
        metadata: { now: services.clock(), userId: user.id },
      });
      position = saved.position;
    }
    ctx.status = 201;
    ctx.body = detailDto(await owned(user.id, id, position));
  });

  router.get('/api/notes/shared/:token', async (ctx) => {
    const { token } = parseParams(ctx.params, tokenParam);
    const share = await services.readStore.collection<NoteShareDoc>(NOTE_SHARES).get(token);
    if (!share || (share.expires_at !== null && Date.parse(share.expires_at) <= services.clock().getTime())) throw new HttpError(404, GONE);
    const [note, owner] = await Promise.all([notes().get(share.note_id), services.readStore.collection<UserDoc>(USERS).get(share.user_id)]);
    if (!note) throw new HttpError(404, GONE);
    // A shared note takes the notes below it along: the link is a folder when it has any.
    const all = await notes().find({ user_id: share.user_id }, { sort: { order: 1 } });
    const below = new Set<string>([note._id]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const candidate of all) {
        if (candidate.parent_id !== null && below.has(candidate.parent_id) && !below.has(candidate._id)) {
          below.add(candidate._id);
          grew = true;
        }
      }
    }
    const children = all
      .filter((candidate) => candidate._id !== note._id && below.has(candidate._id))
      .slice(0, MAX_SHARED_NOTES)
      .map((child) => ({ id: child._id, name: child.name, parent_id: child.parent_id, order: child.order, content: child.content, updated_at: child.updated_at }));
    ctx.body = { token, id: note._id, name: note.name, content: note.content, updated_at: note.updated_at, expires_at: share.expires_at, owner: owner?.username ?? '', children };
  });

  router.get('/api/notes/:id', async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    ctx.body = detailDto(await owned(user.id, id));
  });

  router.patch('/api/notes/:id', async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    const body = parseBody(ctx, renameBody);
    const { position } = await notebook(user.id, { type: 'RenameNote', data: { userId: user.id, noteId: id, name: body.name } });
    ctx.body = summaryDto(await owned(user.id, id, position));
  });

  router.put('/api/notes/:id/content', async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    const body = parseBody(ctx, contentBody);
    const { state } = await services.commands.load(notebookDecider, notebookStream(user.id));
    if (state.status !== 'open' || !state.notes[id]) throw new HttpError(404, NOTE_NOT_FOUND);
    const result = await services.commands.handle(noteContentDecider, noteContentStream(id), {
      type: 'SaveNoteContent',
      data: { noteId: id, userId: user.id, content: body.content, baseRevision: body.revision },
      metadata: { now: services.clock(), userId: user.id },
    });
    const doc = await owned(user.id, id, result.position);
    ctx.body = { revision: result.newState.revision, updated_at: doc.updated_at };
  });

  router.post('/api/notes/:id/move', async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    const body = parseBody(ctx, moveBody);
    const { position } = await notebook(user.id, { type: 'MoveNote', data: { userId: user.id, noteId: id, targetId: body.target_id, position: body.position } });
    await progress.waitFor(position);
    ctx.body = { notes: await tree(user.id) };
  });

  router.delete('/api/notes/:id', async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    const result = await notebook(user.id, { type: 'DeleteNote', data: { userId: user.id, noteId: id } });
    await progress.waitFor(result.position);
    const deleted = result.newEvents.flatMap((event) => (event.type === 'NotesDeleted' ? event.data.noteIds : []));
    ctx.body = { deleted };
  });

  router.post('/api/notes/:id/share', async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    const body = parseBody(ctx, shareBody);
    const token = randomBytes(16).toString('base64url');
    const { position } = await notebook(user.id, { type: 'ShareNote', data: { userId: user.id, noteId: id, token, expiresDays: body.expires_days } });
    const doc = await owned(user.id, id, position);
    ctx.body = { token, path: `/share/${token}`, expires_at: doc.share_expires_at };
  });

  router.delete('/api/notes/:id/share', async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    const { position } = await notebook(user.id, { type: 'RevokeNoteShare', data: { userId: user.id, noteId: id } });
    await progress.waitFor(position);
    ctx.body = { revoked: true };
  });

  return router;
}

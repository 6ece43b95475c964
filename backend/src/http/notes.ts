import { randomBytes, randomUUID } from 'node:crypto';
import Router from '@koa/router';
import { z } from 'zod';
import { NOTE_SHARES, NOTES, type NoteDoc, type NoteShareDoc } from '@scriptorium/projections/notes';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import { USERS, type UserDoc } from '@scriptorium/projections/users';
import { currentContent, noteContentStream } from '@scriptorium/domain/notes/content';
import { noteContentDecider } from '@scriptorium/domain/notes/contentDecide';
import { notebookDecider, type NotebookCommand } from '@scriptorium/domain/notes/decide';
import { notebookStream } from '@scriptorium/domain/notes/notes';
import { isOpen } from '@scriptorium/domain/share/decide';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { httpError } from './errors.ts';
import { parseBody, parseParams } from './validate.ts';
import { contract } from './contract.ts';
import {
  noteContentBody,
  noteCreateBody,
  noteDetail,
  noteId,
  noteMoveBody,
  noteRenameBody,
  noteSaved,
  notesDeleted,
  noteShareBody,
  noteShareLink,
  noteSummary,
  noteTree,
  sharedNote,
} from '@scriptorium/domain/protocol/http/notes';
import { revoked } from '@scriptorium/domain/protocol/http/acknowledged';

/** A shared folder shows at most this many notes below the shared one. */
const MAX_SHARED_NOTES = 500;
const idParam = z.object({ id: noteId });
const tokenParam = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'share.token_invalid') });

/** `shared`: the note's own link opens it now (the notes below a shared one are public through it too). */
const summaryDto = (doc: NoteDoc, now: Date) => ({
  id: doc._id,
  name: doc.name,
  parent_id: doc.parent_id,
  order: doc.order,
  created_at: doc.created_at,
  updated_at: doc.updated_at,
  shared: doc.share_token !== null && isOpen({ revoked: false, expiresAt: doc.share_expires_at }, now),
});
const detailDto = (doc: NoteDoc, now: Date) => ({
  ...summaryDto(doc, now),
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
    if (!doc || doc.user_id !== userId) throw httpError(404, 'notes.not_found');
    return doc;
  }

  async function tree(userId: string) {
    const now = services.clock();
    return (await notes().find({ user_id: userId }, { sort: { order: 1 } })).map((doc) => summaryDto(doc, now));
  }

  router.get('/api/notes', contract({ access: 'user', responses: { 200: noteTree } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    ctx.body = { notes: await tree(user.id) };
  });

  router.post('/api/notes', contract({ access: 'user', body: noteCreateBody, responses: { 201: noteDetail }, refusals: [404, 409] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const body = parseBody(ctx, noteCreateBody);
    const id = randomUUID();
    // One request, one append: the first text travels in the creation, so a refusal leaves no empty note.
    const { position } = await notebook(user.id, { type: 'CreateNote', data: { userId: user.id, noteId: id, name: body.name, parentId: body.parent_id, content: body.content } });
    ctx.status = 201;
    ctx.body = detailDto(await owned(user.id, id, position), services.clock());
  });

  router.get('/api/notes/shared/:token', contract({ access: 'public', params: tokenParam, responses: { 200: sharedNote }, refusals: [404] }), async (ctx) => {
    const { token } = parseParams(ctx.params, tokenParam);
    const share = await services.readStore.collection<NoteShareDoc>(NOTE_SHARES).get(token);
    if (!share || !isOpen({ revoked: false, expiresAt: share.expires_at }, services.clock())) throw httpError(404, 'share.gone');
    const [note, owner] = await Promise.all([notes().get(share.note_id), services.readStore.collection<UserDoc>(USERS).get(share.user_id)]);
    if (!note) throw httpError(404, 'share.gone');
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

  router.get('/api/notes/:id', contract({ access: 'user', params: idParam, responses: { 200: noteDetail } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    ctx.body = detailDto(await owned(user.id, id), services.clock());
  });

  router.patch('/api/notes/:id', contract({ access: 'user', params: idParam, body: noteRenameBody, responses: { 200: noteSummary }, refusals: [409] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    const body = parseBody(ctx, noteRenameBody);
    const { position } = await notebook(user.id, { type: 'RenameNote', data: { userId: user.id, noteId: id, name: body.name } });
    ctx.body = summaryDto(await owned(user.id, id, position), services.clock());
  });

  router.put('/api/notes/:id/content', contract({ access: 'user', params: idParam, body: noteContentBody, responses: { 200: noteSaved }, refusals: [404, 409] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    const body = parseBody(ctx, noteContentBody);
    const { state } = await services.commands.load(notebookDecider, notebookStream(user.id));
    if (state.status !== 'open' || !state.notes[id]) throw httpError(404, 'notes.not_found');
    const result = await services.commands.handle(noteContentDecider, noteContentStream(id), {
      type: 'SaveNoteContent',
      data: { noteId: id, userId: user.id, content: body.content, baseRevision: body.revision, initialContent: state.notes[id].initialContent },
      metadata: { now: services.clock(), userId: user.id },
    });
    const doc = await owned(user.id, id, result.position);
    ctx.body = { revision: currentContent(result.newState, state.notes[id].initialContent).revision, updated_at: doc.updated_at };
  });

  router.post('/api/notes/:id/move', contract({ access: 'user', params: idParam, body: noteMoveBody, responses: { 200: noteTree }, refusals: [409] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    const body = parseBody(ctx, noteMoveBody);
    const { position } = await notebook(user.id, { type: 'MoveNote', data: { userId: user.id, noteId: id, targetId: body.target_id, position: body.position } });
    await progress.waitFor(position);
    ctx.body = { notes: await tree(user.id) };
  });

  router.delete('/api/notes/:id', contract({ access: 'user', params: idParam, responses: { 200: notesDeleted } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    const result = await notebook(user.id, { type: 'DeleteNote', data: { userId: user.id, noteId: id } });
    await progress.waitFor(result.position);
    const deleted = result.newEvents.flatMap((event) => (event.type === 'NotesDeleted' ? event.data.noteIds : []));
    ctx.body = { deleted };
  });

  router.post('/api/notes/:id/share', contract({ access: 'user', params: idParam, body: noteShareBody, responses: { 200: noteShareLink } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    const body = parseBody(ctx, noteShareBody);
    const token = randomBytes(16).toString('base64url');
    const { position } = await notebook(user.id, { type: 'ShareNote', data: { userId: user.id, noteId: id, token, expiresDays: body.expires_days } });
    const doc = await owned(user.id, id, position);
    ctx.body = { token, path: `/share/${token}`, expires_at: doc.share_expires_at };
  });

  router.delete('/api/notes/:id/share', contract({ access: 'user', params: idParam, responses: { 200: revoked } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    const { position } = await notebook(user.id, { type: 'RevokeNoteShare', data: { userId: user.id, noteId: id } });
    await progress.waitFor(position);
    ctx.body = { revoked: true };
  });

  return router;
}

import Router from '@koa/router';
import { z } from 'zod';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import { CANVAS, type CanvasDoc } from '@scriptorium/projections/canvas';
import { CHATS, type ChatDoc } from '@scriptorium/projections/chats';
import { MESSAGES, type MessageDoc } from '@scriptorium/projections/messages';
import { SHARES, type ShareDoc } from '@scriptorium/projections/shares';
import { isOpen, shareDecider } from '../domain/share/decide.ts';
import { shareStream } from '../domain/share/share.ts';
import type { ConversationService } from '../domain/conversation/service.ts';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { canvasDto, messageDto, sessionDto } from './conversation.ts';
import { HttpError } from './errors.ts';
import { sendPdf } from './exports.ts';
import { parseBody, parseParams, parseQuery } from './validate.ts';

const GONE = '分享不存在或已过期';
const shareIdParam = z.object({ shareId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, '分享链接格式不正确') });

const shareBody = z.object({
  session_id: z.uuid('会话 ID 格式不正确'),
  title: z.string().trim().max(200, '标题最多 200 个字符').default(''),
  description: z.string().trim().max(2000, '描述最多 2000 个字符').default(''),
  expires_days: z.number().int('有效期需为整数天').min(1, '有效期至少 1 天').max(3650, '有效期最多 3650 天').nullable().default(null),
});

const artifactShareBody = z.object({
  session_id: z.uuid('会话 ID 格式不正确'),
  message_id: z.string().min(1).max(100),
  filename: z.string().min(1).max(300),
  expires_days: z.number().int('有效期需为整数天').min(1, '有效期至少 1 天').max(3650, '有效期最多 3650 天').nullable().default(null),
});

/** The finished artifact of that name in a message, if there is one. */
function artifactIn(message: MessageDoc, filename: string) {
  return message.contents.find((content) => content.content_type === 'artifact_complete' && content.filename === filename) ?? null;
}

/** Public read-only links to a conversation: created by its owner, opened by anyone until expiry or revocation. */
export function shareRoutes(services: Services, conversations: ConversationService, progress: ProjectionProgress): Router {
  const router = new Router();
  const shares = () => services.readStore.collection<ShareDoc>(SHARES);

  router.post('/conversation/sessions/share', async (ctx) => {
    const user = await requireUser(services, ctx);
    const body = parseBody(ctx, shareBody);
    const chat = await conversations.owned({ userId: user.id }, body.session_id);
    const shareId = crypto.randomUUID().replaceAll('-', '');
    const result = await services.commands.handle(shareDecider, shareStream(shareId), {
      type: 'ShareConversation',
      data: { shareId, sessionId: body.session_id, ownerId: user.id, title: body.title || chat.title || chat.name, description: body.description, expiresDays: body.expires_days },
      metadata: { now: services.clock(), userId: user.id },
    });
    await progress.waitFor(result.position);
    ctx.body = { share_id: shareId, path: `/share/conversation/${shareId}` };
  });

  router.delete('/conversation/share/:shareId', async (ctx) => {
    const user = await requireUser(services, ctx);
    const { shareId } = parseParams(ctx.params, shareIdParam);
    const result = await services.commands.handle(shareDecider, shareStream(shareId), { type: 'RevokeShare', data: { actorId: user.id }, metadata: { now: services.clock(), userId: user.id } });
    if (result.position) await progress.waitFor(result.position);
    ctx.body = { share_id: shareId, revoked: true };
  });

  router.get('/conversation/share/:shareId', async (ctx) => {
    const { shareId } = parseParams(ctx.params, shareIdParam);
    const share = await shares().get(shareId);
    if (!share || share.kind === 'artifact' || !isOpen({ revoked: share.revoked, expiresAt: share.expires_at }, services.clock())) throw new HttpError(404, GONE);
    const [chat, messages, canvas] = await Promise.all([
      services.readStore.collection<ChatDoc>(CHATS).get(share.session_id),
      services.readStore.collection<MessageDoc>(MESSAGES).find({ session_id: share.session_id }, { sort: { order: 1 } }),
      services.readStore.collection<CanvasDoc>(CANVAS).get(share.session_id),
    ]);
    if (!chat) throw new HttpError(404, GONE);
    ctx.body = {
      share_id: shareId,
      title: share.title,
      description: share.description,
      created_at: share.created_at,
      expires_at: share.expires_at,
      session: sessionDto(chat),
      messages: messages.map(messageDto),
      canvas: canvas ? canvasDto(canvas) : null,
    };
  });

  router.post('/conversation/artifacts/share', async (ctx) => {
    const user = await requireUser(services, ctx);
    const body = parseBody(ctx, artifactShareBody);
    await conversations.owned({ userId: user.id }, body.session_id);
    const message = await services.readStore.collection<MessageDoc>(MESSAGES).get(body.message_id);
    if (!message || message.session_id !== body.session_id || !artifactIn(message, body.filename)) throw new HttpError(404, '文件不存在');
    const shareId = crypto.randomUUID().replaceAll('-', '');
    const result = await services.commands.handle(shareDecider, shareStream(shareId), {
      type: 'ShareArtifact',
      data: { shareId, sessionId: body.session_id, ownerId: user.id, messageId: body.message_id, filename: body.filename, expiresDays: body.expires_days },
      metadata: { now: services.clock(), userId: user.id },
    });
    await progress.waitFor(result.position);
    ctx.body = { share_id: shareId, path: `/share/artifact/${shareId}` };
  });

  router.get('/conversation/artifact-share/:shareId', async (ctx) => {
    const { shareId } = parseParams(ctx.params, shareIdParam);
    const share = await shares().get(shareId);
    if (!share || share.kind !== 'artifact' || !share.message_id || !share.filename || !isOpen({ revoked: share.revoked, expiresAt: share.expires_at }, services.clock())) throw new HttpError(404, GONE);
    const message = await services.readStore.collection<MessageDoc>(MESSAGES).get(share.message_id);
    const artifact = message ? artifactIn(message, share.filename) : null;
    if (!artifact) throw new HttpError(404, GONE);
    ctx.body = { share_id: shareId, filename: share.filename, filetype: artifact.filetype === 'html' ? 'html' : 'markdown', content: String(artifact.content ?? ''), created_at: share.created_at, expires_at: share.expires_at };
  });

  /** Anyone with the link may take the report away as a PDF, as its owner can. */
  router.get('/conversation/share/:shareId/pdf', async (ctx) => {
    const { shareId } = parseParams(ctx.params, shareIdParam);
    const { version } = parseQuery(ctx, z.object({ version: z.coerce.number().int().min(1).optional() }));
    const share = await shares().get(shareId);
    if (!share || !isOpen({ revoked: share.revoked, expiresAt: share.expires_at }, services.clock())) throw new HttpError(404, GONE);
    const canvas = await services.readStore.collection<CanvasDoc>(CANVAS).get(share.session_id);
    const shown = canvas?.versions.find((candidate) => candidate.version === (version ?? canvas.currentVersion));
    if (!shown) throw new HttpError(404, '报告版本不存在');
    await sendPdf(ctx, shown.content, `${shown.title || share.title}-v${shown.version}`);
  });

  return router;
}

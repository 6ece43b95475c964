import type { ContentOf } from '@scriptorium/domain/protocol/content';
import Router from '@koa/router';
import { ownedChat } from './ownedChat.ts';
import { z } from 'zod';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import { CANVAS, type CanvasDoc } from '@scriptorium/projections/canvas';
import { CHATS, type ChatDoc } from '@scriptorium/projections/chats';
import { COGNITIONS, type CognitionDoc } from '@scriptorium/projections/cognitions';
import { MESSAGE_HEADS, MESSAGES, type MessageDoc, type MessageHeadDoc } from '@scriptorium/projections/messages';
import { SHARES, type ShareDoc } from '@scriptorium/projections/shares';
import { isOpen, shareDecider } from '@scriptorium/domain/share/decide';
import { shareStream } from '@scriptorium/domain/share/share';
import type { ConversationService } from '@scriptorium/domain/conversation/service';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { canvasDto, messageDto, sessionDto } from './conversation.ts';
import { httpError } from './errors.ts';
import { recommendedCognitions, withoutPrivate } from './sharedView.ts';
import { sendPdf } from './exports.ts';
import { parseBody, parseParams, parseQuery } from './validate.ts';
import { contract } from './contract.ts';
import { historyPageKey, pageRequest, readHistory } from './history.ts';
import { HistoryPages } from './historyCache.ts';
import { acceptedEncoding, encodeJson, sendEncodedJson } from './compression.ts';
import {
  artifactShareBody,
  artifactShared,
  conversationShareBody,
  conversationShared,
  conversationShareRevoked,
  historyPageQuery,
  sessionShares,
  sharedArtifact,
  sharedConversation,
  sharePdfQuery,
  type SharedConversation,
} from '@scriptorium/domain/protocol/http/conversation';

const shareIdParam = z.object({ shareId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'share.token_invalid') });



/** The finished artifact of that name in a message, if there is one. */
function artifactIn(message: MessageDoc, filename: string): ContentOf<'artifact_complete'> | null {
  return message.contents.find((content): content is ContentOf<'artifact_complete'> => content.content_type === 'artifact_complete' && content.filename === filename) ?? null;
}

/** Public read-only links to a conversation: created by its owner, opened by anyone until expiry or revocation. */
export function shareRoutes(services: Services, conversations: ConversationService, progress: ProjectionProgress): Router {
  const router = new Router();
  const shares = () => services.readStore.collection<ShareDoc>(SHARES);
  /** A link opens only what it was made for: a file link is not a key to its conversation or report. */
  async function openShare(shareId: string, kind: 'conversation' | 'artifact'): Promise<ShareDoc> {
    const share = await shares().get(shareId);
    // Links made before files could be shared carry no kind: they are conversation links.
    if (!share || (share.kind ?? 'conversation') !== kind || !isOpen({ revoked: share.revoked, expiresAt: share.expires_at }, services.clock())) throw httpError(404, 'share.gone');
    return share;
  }

  router.post('/conversation/sessions/share', contract({ access: 'user', body: conversationShareBody, responses: { 200: conversationShared }, refusals: [404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const body = parseBody(ctx, conversationShareBody);
    const chat = await ownedChat(services.readStore, user.id, body.session_id);
    const shareId = crypto.randomUUID().replaceAll('-', '');
    const result = await services.commands.handle(shareDecider, shareStream(shareId), {
      type: 'ShareConversation',
      data: {
        shareId,
        sessionId: body.session_id,
        ownerId: user.id,
        title: body.title || chat.title || chat.name,
        description: body.description,
        expiresDays: body.expires_days,
        includePrivate: body.include_private,
      },
      metadata: { now: services.clock(), userId: user.id },
    });
    await progress.waitFor(result.position);
    ctx.body = { share_id: shareId, path: `/share/conversation/${shareId}`, include_private: body.include_private };
  });

  router.delete('/conversation/share/:shareId', contract({ access: 'user', params: shareIdParam, responses: { 200: conversationShareRevoked } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { shareId } = parseParams(ctx.params, shareIdParam);
    const result = await services.commands.handle(shareDecider, shareStream(shareId), { type: 'RevokeShare', data: { actorId: user.id }, metadata: { now: services.clock(), userId: user.id } });
    if (result.position) await progress.waitFor(result.position);
    ctx.body = { share_id: shareId, revoked: true };
  });

  /** The shared view's pages as sent, by share, page and encoding (see `HistoryPages`). */
  const sharedPages = new HistoryPages();
  const openShared = contract({ access: 'public', params: shareIdParam, query: historyPageQuery, responses: { 200: sharedConversation }, refusals: [404] });
  router.get('/conversation/share/:shareId', openShared, async (ctx) => {
    const { shareId } = parseParams(ctx.params, shareIdParam);
    const page = pageRequest(parseQuery(ctx, historyPageQuery));
    // Open (not revoked, not expired) before the cache is asked: its entries say nothing of that.
    const share = await openShare(shareId, 'conversation');
    // The version is read before the page, so a page stored under it is never older than it: the
    // session (its own position), its messages (their head) and the canvas (its versions are only
    // ever added). The share's own fields do not change; revoking it is refused above.
    const [chat, head, canvas] = await Promise.all([
      services.readStore.collection<ChatDoc>(CHATS).get(share.session_id),
      services.readStore.collection<MessageHeadDoc>(MESSAGE_HEADS).get(share.session_id),
      services.readStore.collection<CanvasDoc>(CANVAS).get(share.session_id),
    ]);
    if (!chat) throw httpError(404, 'share.gone');
    const version = head && `${chat.last_position}:${head.last_position}:${canvas?.versions.length ?? 0}`;
    const encoding = acceptedEncoding(ctx.get('accept-encoding'));
    const key = historyPageKey(shareId, page, encoding);
    const cached = version ? sharedPages.get(key, version) : undefined;
    if (cached) return sendEncodedJson(ctx, cached);
    const { messages, earlier } = await readHistory(services.readStore, share.session_id, page);
    const hidePrivate = !share.include_private;
    const report = canvas?.versions.map((version) => version.content).join('\n') ?? '';
    const recommended = hidePrivate ? recommendedCognitions(messages) : [];
    const publicCognitions = new Set(recommended.length > 0 ? (await services.readStore.collection<CognitionDoc>(COGNITIONS).find({ _id: { $in: recommended }, public: true })).map((doc) => doc._id) : []);
    // Sent as encoded bytes, not through `openShared.reply`: the body the cache keeps is typed here instead.
    const body: SharedConversation = {
      share_id: shareId,
      title: share.title,
      description: share.description,
      created_at: share.created_at,
      expires_at: share.expires_at,
      session: sessionDto(chat),
      // Where this read stands in the log, so a visitor's page that reads it again shows only a newer one.
      position: Math.max(chat.last_position, ...messages.map((doc) => doc.last_position)),
      messages: messages.map((message) => {
        const dto = messageDto(message);
        return hidePrivate ? { ...dto, contents: dto.contents.map((content) => withoutPrivate(content, report, publicCognitions)) } : dto;
      }),
      canvas: canvas ? canvasDto(canvas) : null,
      private_material_hidden: hidePrivate,
      ...(page && { earlier }),
    };
    const json = await encodeJson(JSON.stringify(body), encoding);
    // Which recommended cognitions are public changes without moving the version: such a page is not kept.
    if (version && recommended.length === 0) sharedPages.set(key, version, json);
    sendEncodedJson(ctx, json);
  });

  const sessionParam = z.object({ id: z.uuid('conversation.id_invalid') });
  /** The owner's links to one research session, newest first, so they can be seen and revoked. */
  const sessionLinks = contract({ access: 'user', params: sessionParam, responses: { 200: sessionShares } });
  router.get('/conversation/api/research/share/:id', sessionLinks, async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, sessionParam);
    await ownedChat(services.readStore, user.id, id);
    const links = await shares().find({ session_id: id }, { sort: { created_at: -1 } });
    const now = services.clock();
    sessionLinks.reply(ctx, 200, {
      session_id: id,
      shares: links.map((share) => {
        // Links made before files could be shared carry no kind: they are conversation links.
        const kind = share.kind ?? 'conversation';
        return {
          share_id: share._id,
          kind,
          title: share.title,
          description: share.description,
          filename: share.filename ?? null,
          path: `/share/${kind}/${share._id}`,
          created_at: share.created_at,
          expires_at: share.expires_at,
          revoked: share.revoked,
          open: isOpen({ revoked: share.revoked, expiresAt: share.expires_at }, now),
          include_private: share.include_private ?? false,
        };
      }),
    });
  });

  router.post('/conversation/artifacts/share', contract({ access: 'user', body: artifactShareBody, responses: { 200: artifactShared }, refusals: [404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const body = parseBody(ctx, artifactShareBody);
    await ownedChat(services.readStore, user.id, body.session_id);
    const message = await services.readStore.collection<MessageDoc>(MESSAGES).get(body.message_id);
    if (!message || message.session_id !== body.session_id || !artifactIn(message, body.filename)) throw httpError(404, 'files.not_found');
    const shareId = crypto.randomUUID().replaceAll('-', '');
    const result = await services.commands.handle(shareDecider, shareStream(shareId), {
      type: 'ShareArtifact',
      data: { shareId, sessionId: body.session_id, ownerId: user.id, messageId: body.message_id, filename: body.filename, expiresDays: body.expires_days },
      metadata: { now: services.clock(), userId: user.id },
    });
    await progress.waitFor(result.position);
    ctx.body = { share_id: shareId, path: `/share/artifact/${shareId}` };
  });

  router.get('/conversation/artifact-share/:shareId', contract({ access: 'public', params: shareIdParam, responses: { 200: sharedArtifact }, refusals: [404] }), async (ctx) => {
    const { shareId } = parseParams(ctx.params, shareIdParam);
    const share = await openShare(shareId, 'artifact');
    if (!share.message_id || !share.filename) throw httpError(404, 'share.gone');
    const message = await services.readStore.collection<MessageDoc>(MESSAGES).get(share.message_id);
    const artifact = message?.session_id === share.session_id ? artifactIn(message, share.filename) : null;
    if (!artifact) throw httpError(404, 'share.gone');
    ctx.body = { share_id: shareId, filename: share.filename, filetype: artifact.filetype === 'html' ? 'html' : 'markdown', content: String(artifact.content ?? ''), created_at: share.created_at, expires_at: share.expires_at };
  });

  /** Anyone with the link may take the report away as a PDF, as its owner can. */
  router.get('/conversation/share/:shareId/pdf', contract({ access: 'public', params: shareIdParam, query: sharePdfQuery, responses: { 200: { type: 'application/pdf' } }, refusals: [404, 503] }), async (ctx) => {
    const { shareId } = parseParams(ctx.params, shareIdParam);
    const { version } = parseQuery(ctx, sharePdfQuery);
    const share = await openShare(shareId, 'conversation');
    const canvas = await services.readStore.collection<CanvasDoc>(CANVAS).get(share.session_id);
    const shown = canvas?.versions.find((candidate) => candidate.version === (version ?? canvas.currentVersion));
    if (!shown) throw httpError(404, 'conversation.report_version_not_found');
    await sendPdf(ctx, shown.content, `${shown.title || share.title}-v${shown.version}`);
  });

  return router;
}

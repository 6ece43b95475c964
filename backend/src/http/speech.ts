import Router from '@koa/router';
import { ownedChat } from './ownedChat.ts';
import { z } from 'zod';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import type { ConversationService } from '@scriptorium/domain/conversation/service';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { httpError, invalidField } from './errors.ts';
import { readMultipart } from './files.ts';
import { parseParams } from './validate.ts';
import { contract } from './contract.ts';
import { speechQuestion, speechStatus, speechText } from '@scriptorium/domain/protocol/http/conversation';

const MAX_AUDIO_BYTES = 10 * 1024 * 1024;
/** A language other than the two the product speaks falls back to Chinese rather than refusing the recording. */
// `default` first, so the document marks the field optional: the server defaults it.
const audioFields = z.object({ language: z.enum(['zh', 'en']).default('zh').catch('zh') });

/**
 * Short voice input through an OpenAI-compatible `/audio/transcriptions` server. With none
 * configured the routes answer 501; the status route tells the client so before it offers the microphone.
 */
export function speechRoutes(services: Services, conversations: ConversationService, progress: ProjectionProgress): Router {
  const router = new Router();
  async function transcribe(ctx: Parameters<typeof readMultipart>[0]): Promise<string> {
    // Asked per request: an administrator may set or change speech in Connections at any time.
    const speech = services.connections.speech();
    if (!speech) throw httpError(501, 'speech.not_configured');
    const { file, fields } = await readMultipart(ctx);
    if (!file) throw invalidField(['file'], 'speech.file_missing', {}, 'missing');
    if (file.size > MAX_AUDIO_BYTES) throw httpError(413, 'speech.too_large');
    if (!/^(audio|video)\//.test(file.mimetype) && file.mimetype !== 'application/octet-stream') throw httpError(415, 'speech.audio_only');
    const { language } = audioFields.parse(fields);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file.buffer)], { type: file.mimetype }), file.originalname || 'audio.webm');
    form.append('model', speech.model);
    form.append('language', language);
    let response: Response;
    try {
      response = await fetch(`${speech.baseUrl.replace(/\/$/, '')}/audio/transcriptions`, {
        method: 'POST',
        body: form,
        headers: speech.apiKey ? { authorization: `Bearer ${speech.apiKey}` } : {},
        signal: AbortSignal.timeout(60_000),
      });
    } catch {
      throw httpError(502, 'speech.unavailable');
    }
    if (!response.ok) throw httpError(502, 'speech.failed', { status: response.status });
    const body = (await response.json().catch(() => null)) as { text?: unknown } | null;
    if (typeof body?.text !== 'string') throw httpError(502, 'speech.bad_response');
    return body.text.trim();
  }

  // Tells the client whether to offer voice input at all, so it never calls a recogniser that is not there.
  router.get('/conversation/api/v2/asr/status', contract({ access: 'user', responses: { 200: speechStatus } }), async (ctx) => {
    await requireUser(services, ctx);
    ctx.body = { configured: services.connections.speech() !== undefined };
  });

  router.post('/conversation/api/v2/asr/short', contract({ access: 'user', multipart: audioFields, responses: { 200: speechText }, refusals: [413, 415, 501, 502] }), async (ctx) => {
    await requireUser(services, ctx);
    const text = await transcribe(ctx);
    ctx.body = { success: true, text };
  });

  const toQuestionParams = z.object({ id: z.uuid('conversation.id_invalid') });
  router.post('/conversation/api/v2/asr/short_to_question/:id', contract({ access: 'user', params: toQuestionParams, multipart: audioFields, responses: { 200: speechQuestion }, refusals: [402, 404, 413, 415, 501, 502] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, toQuestionParams);
    await ownedChat(services.readStore, user.id, id);
    const text = await transcribe(ctx);
    if (!text) throw invalidField(['file'], 'speech.no_speech');
    const posted = await conversations.post({ userId: user.id }, id, text);
    await progress.waitFor(posted.position);
    ctx.body = { success: true, text, session_id: id, message_id: posted.messageId, reply_id: posted.replyId };
  });

  return router;
}

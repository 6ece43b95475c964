import Router from '@koa/router';
import { z } from 'zod';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import type { ConversationService } from '../domain/conversation/service.ts';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { HttpError } from './errors.ts';
import { readMultipart } from './files.ts';
import { parseParams } from './validate.ts';

const NOT_CONFIGURED = '语音识别未配置（需要设置 ASR_BASE_URL）';
const MAX_AUDIO_BYTES = 10 * 1024 * 1024;

/**
 * Short voice input through an OpenAI-compatible `/audio/transcriptions` server. With none
 * configured the routes answer 501, which the client reads as "hide the microphone".
 */
export function speechRoutes(services: Services, conversations: ConversationService, progress: ProjectionProgress): Router {
  const router = new Router();
  const { ASR_BASE_URL, ASR_API_KEY, ASR_MODEL } = services.config;

  async function transcribe(ctx: Parameters<typeof readMultipart>[0]): Promise<string> {
    if (!ASR_BASE_URL) throw new HttpError(501, NOT_CONFIGURED);
    const { file, fields } = await readMultipart(ctx);
    if (!file) throw new HttpError(422, [{ loc: ['body', 'file'], msg: '请上传音频文件', type: 'missing' }]);
    if (file.size > MAX_AUDIO_BYTES) throw new HttpError(413, '音频不能超过 10 MB');
    if (!/^(audio|video)\//.test(file.mimetype) && file.mimetype !== 'application/octet-stream') throw new HttpError(415, '只支持音频文件');
    const language = z.enum(['zh', 'en']).catch('zh').parse(fields.language);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file.buffer)], { type: file.mimetype }), file.originalname || 'audio.webm');
    form.append('model', ASR_MODEL);
    form.append('language', language);
    let response: Response;
    try {
      response = await fetch(`${ASR_BASE_URL.replace(/\/$/, '')}/audio/transcriptions`, {
        method: 'POST',
        body: form,
        headers: ASR_API_KEY ? { authorization: `Bearer ${ASR_API_KEY}` } : {},
        signal: AbortSignal.timeout(60_000),
      });
    } catch {
      throw new HttpError(502, '语音识别服务不可用');
    }
    if (!response.ok) throw new HttpError(502, `语音识别失败（${response.status}）`);
    const body = (await response.json().catch(() => null)) as { text?: unknown } | null;
    if (typeof body?.text !== 'string') throw new HttpError(502, '语音识别返回了无法解析的结果');
    return body.text.trim();
  }

  router.post('/conversation/api/v2/asr/short', async (ctx) => {
    await requireUser(services, ctx);
    const text = await transcribe(ctx);
    ctx.body = { success: true, text };
  });

  router.post('/conversation/api/v2/asr/short_to_question/:id', async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, z.object({ id: z.uuid('会话 ID 格式不正确') }));
    await conversations.owned({ userId: user.id }, id);
    const text = await transcribe(ctx);
    if (!text) throw new HttpError(422, [{ loc: ['body', 'file'], msg: '没有识别到语音内容', type: 'value_error' }]);
    const posted = await conversations.post({ userId: user.id }, id, text);
    await progress.waitFor(posted.position);
    ctx.body = { success: true, text, session_id: id, message_id: posted.messageId, reply_id: posted.replyId };
  });

  return router;
}

import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import Router from '@koa/router';
import { z } from 'zod';
import { failureCode, failureText } from '@scriptorium/domain/conversation/failures';
import type { Usage } from '@scriptorium/infra/model/port';
import { openModelCall } from '@scriptorium/domain/usage/accounted';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { httpError } from './errors.ts';
import { parseBody } from './validate.ts';
import { contract } from './contract.ts';

const completionBody = z.object({
  model: z.string().max(200).optional(),
  messages: z
    .array(z.object({ role: z.enum(['system', 'user', 'assistant'], { error: 'engineer.role_invalid' }), content: z.string().max(200_000) }), { error: 'engineer.messages_required' })
    .min(1, 'engineer.messages_empty')
    .max(200),
  stream: z.boolean().default(false),
  max_tokens: z.number().int().min(1).max(32_000).optional(),
  temperature: z.number().min(0).max(2).optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).optional(),
});

const sse = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;

/**
 * The OpenAI-compatible chat endpoint the command-line tool talks to (any OpenAI client works):
 * the user's own model (or the offline engine) behind the user's budget. Each call holds budget
 * before it starts, is capped to what is free, and records its usage like every other call.
 */
export function engineerRoutes(services: Services): Router {
  const router = new Router();

  router.post('/engineer/v1/chat/completions', contract({ access: 'user', body: completionBody, refusals: [402, 502] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const body = parseBody(ctx, completionBody);
    const callId = `chatcmpl-${randomBytes(12).toString('hex')}`;
    const { request, settle } = await openModelCall(services, user.id, callId, {
      messages: body.messages,
      ...(body.max_tokens !== undefined && { maxTokens: body.max_tokens }),
      ...(body.temperature !== undefined && { temperature: body.temperature }),
    });
    const created = Math.floor(services.clock().getTime() / 1000);
    const model = services.model.name;
    const abort = new AbortController();
    ctx.req.on('close', () => {
      if (!ctx.res.writableFinished) abort.abort();
    });

    if (!body.stream) {
      try {
        const completion = await services.model.complete({ ...request, signal: abort.signal });
        await settle(completion.usage, 'completed');
        ctx.body = {
          id: callId,
          object: 'chat.completion',
          created,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: completion.text }, finish_reason: 'stop' }],
          usage: { prompt_tokens: completion.usage.promptTokens, completion_tokens: completion.usage.completionTokens, total_tokens: completion.usage.promptTokens + completion.usage.completionTokens },
        };
      } catch (error) {
        await settle(null, 'failed');
        services.log.warn({ err: error, callId }, 'engineer chat completion failed');
        throw httpError(502, failureCode(error));
      }
      return;
    }

    const out = new PassThrough();
    ctx.type = 'text/event-stream';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = out;
    const chunk = (delta: Record<string, unknown>, finish: string | null) => sse({ id: callId, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] });
    void (async () => {
      let usage: Usage | null = null;
      try {
        out.write(chunk({ role: 'assistant', content: '' }, null));
        for await (const delta of services.model.stream({ ...request, signal: abort.signal })) {
          if (delta.type === 'text') out.write(chunk({ content: delta.text }, null));
          else usage = delta;
        }
        out.write(chunk({}, 'stop'));
        if (usage && body.stream_options?.include_usage) {
          out.write(sse({ id: callId, object: 'chat.completion.chunk', created, model, choices: [], usage: { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.promptTokens + usage.completionTokens } }));
        }
        out.write('data: [DONE]\n\n');
        await settle(usage, 'completed');
      } catch (error) {
        services.log.warn({ err: error, callId }, 'engineer chat completion failed');
        if (!out.destroyed) out.write(sse({ error: { message: failureText(error), type: 'server_error' } }));
        await settle(usage, 'failed').catch((settleError) => services.log.error({ err: settleError, callId }, 'could not record the failed call'));
      } finally {
        out.end();
      }
    })();
  });

  return router;
}

import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import Router from '@koa/router';
import { z } from 'zod';
import { failure, failureText } from '@scriptorium/domain/conversation/failures';
import { partialUsageOf, type ChatMessage, type ModelDelta, type ToolCall, type ToolDefinition, type Usage, type UsageDelta } from '@scriptorium/infra/model/port';
import { estimateMessageTokens, estimateTokens } from '@scriptorium/infra/model/tokens';
import { RUN_COMMAND_TOOL } from '@scriptorium/domain/protocol/engineer';
import { offlineProposal } from '@scriptorium/domain/engineer/proposals';
import { stopAt, type StopOutcome } from '@scriptorium/infra/model/stop';
import { openModelCall } from '@scriptorium/domain/usage/accounted';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { HttpError, httpError } from './errors.ts';
import { parseBody, parseParams } from './validate.ts';
import { contract } from './contract.ts';
import { chatCompletion, chatCompletionChunk, openAiModel, openAiModelList } from '@scriptorium/domain/protocol/http/openai';

const textPart = z.object({ type: z.literal('text'), text: z.string().max(200_000) });
const content = z.union([z.string().max(200_000), z.array(textPart).min(1).max(100)], { error: 'engineer.content_invalid' });
const stopSequence = z.string().min(1, 'engineer.stop_invalid').max(200, 'engineer.stop_invalid');

const toolCallBody = z.object({ id: z.string().max(200), type: z.literal('function'), function: z.object({ name: z.string().max(64), arguments: z.string().max(200_000) }) });
const toolBody = z.object(
  {
    type: z.literal('function'),
    function: z.object({ name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/), description: z.string().max(10_000).optional(), parameters: z.record(z.string(), z.unknown()).optional(), strict: z.boolean().nullish() }),
  },
  { error: 'engineer.tools_invalid' },
);

// Fields OpenAI's clients send that change nothing here (`user`, `seed`, `top_p`, `parallel_tool_calls`…) are accepted and ignored.
const completionBody = z.object({
  model: z.string().max(200).optional(),
  messages: z
    .array(
      z.object({
        role: z.enum(['system', 'developer', 'user', 'assistant', 'tool'], { error: 'engineer.role_invalid' }),
        // An assistant turn that only called tools has no text.
        content: content.nullish(),
        name: z.string().max(200).optional(),
        tool_calls: z.array(toolCallBody).max(64).nullish(),
        tool_call_id: z.string().max(200).optional(),
      }),
      { error: 'engineer.messages_required' },
    )
    .min(1, 'engineer.messages_empty')
    .max(200),
  tools: z.array(toolBody, { error: 'engineer.tools_invalid' }).max(64, 'engineer.tools_invalid').nullish(),
  tool_choice: z.union([z.enum(['none', 'auto', 'required']), z.object({ type: z.literal('function'), function: z.object({ name: z.string().max(64) }) })], { error: 'engineer.tools_invalid' }).nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
  max_tokens: z.number().int().min(1).max(32_000).nullish(),
  max_completion_tokens: z.number().int().min(1).max(32_000).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  stop: z.union([stopSequence, z.array(stopSequence).max(4, 'engineer.stop_invalid')], { error: 'engineer.stop_invalid' }).nullish(),
  n: z.literal(1, { error: 'engineer.n_unsupported' }).nullish(),
});

const modelIdParam = z.object({ id: z.string().min(1).max(200) });

type CompletionBody = z.infer<typeof completionBody>;

const textOf = (value: CompletionBody['messages'][number]['content']): string => (value == null ? '' : typeof value === 'string' ? value : value.map((part) => part.text).join('\n'));

/**
 * OpenAI's message forms as the model port takes them: `developer` is the system role of newer
 * models, text parts one text. The port carries text turns only, so a turn that called tools says
 * which in words, and a tool's result comes back as the user's turn naming the call.
 */
const chatMessages = (messages: CompletionBody['messages']): ChatMessage[] =>
  messages.map((message) => {
    const text = textOf(message.content);
    if (message.role === 'tool') return { role: 'user', content: `[tool result ${message.tool_call_id ?? ''}]\n${text}` };
    const calls = (message.tool_calls ?? []).map((call) => `[called ${call.function.name}(${call.function.arguments}) as ${call.id}]`);
    return { role: message.role === 'developer' ? 'system' : message.role, content: [text, ...calls].filter(Boolean).join('\n') };
  });

const toolsOf = (body: CompletionBody): ToolDefinition[] =>
  body.tool_choice === 'none' ? [] : (body.tools ?? []).map(({ function: { name, description, parameters } }) => ({ name, ...(description !== undefined && { description }), ...(parameters && { parameters }) }));

const toolCallsBody = (calls: readonly ToolCall[]) => calls.map((call, index) => ({ index, id: call.id, type: 'function' as const, function: { name: call.name, arguments: call.arguments } }));

const stopsOf = (stop: CompletionBody['stop']): string[] => (stop == null ? [] : typeof stop === 'string' ? [stop] : stop);

const usageBody = (usage: Usage) => ({ prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.promptTokens + usage.completionTokens });

const sse = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;

/**
 * The OpenAI-compatible api the command-line tool talks to (any OpenAI client works): the user's own
 * model (or the offline engine) behind the user's budget. Each call holds budget before it starts,
 * is capped to what is free, and records its usage like every other call. Refusals take OpenAI's
 * shape (`./openai.ts`).
 */
export function engineerRoutes(services: Services): Router {
  const router = new Router();
  // One model serves every request, whatever `model` a client names; its "created" is when this api started.
  const served = { id: services.model.name, object: 'model' as const, created: Math.floor(services.clock().getTime() / 1000), owned_by: 'scriptorium' };

  router.get('/engineer/v1/models', contract({ access: 'user', errors: 'openai', summary: 'The models a completion can name (OpenAI list shape)', responses: { 200: openAiModelList } }), async (ctx) => {
    await requireUser(services, ctx);
    ctx.body = { object: 'list', data: [served] };
  });

  router.get('/engineer/v1/models/:id', contract({ access: 'user', errors: 'openai', summary: 'One model (OpenAI model object)', params: modelIdParam, responses: { 200: openAiModel } }), async (ctx) => {
    await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, modelIdParam);
    if (id !== served.id) throw httpError(404, 'engineer.model_not_found', { model: id });
    ctx.body = served;
  });

  router.post('/engineer/v1/chat/completions', contract({ access: 'user', errors: 'openai', body: completionBody, responses: { 200: [chatCompletion, { type: 'text/event-stream', item: chatCompletionChunk, description: 'With `stream: true`: one chunk per `data:` event, then `data: [DONE]`' }] }, refusals: [402, 429, 502] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const body = parseBody(ctx, completionBody);
    const callId = `chatcmpl-${randomBytes(12).toString('hex')}`;
    const stops = stopsOf(body.stop);
    const maxTokens = body.max_completion_tokens ?? body.max_tokens;
    const tools = toolsOf(body);
    const { request, settle } = await openModelCall(services, user.id, callId, {
      messages: chatMessages(body.messages),
      ...(maxTokens != null && { maxTokens }),
      ...(body.temperature != null && { temperature: body.temperature }),
      ...(stops.length > 0 && { stop: stops }),
      ...(tools.length > 0 && { tools }),
    }, services.model.profile);
    const created = Math.floor(services.clock().getTime() / 1000);
    const model = services.model.name;
    const abort = new AbortController();
    ctx.req.on('close', () => {
      if (!ctx.res.writableFinished) abort.abort();
    });
    const stopped: StopOutcome = { stopped: false };
    // The offline engine cannot choose a tool; for `run_command` a fixed rule on the user's last words stands in for it.
    const last = body.messages.at(-1)!;
    const rule = services.model.offline && tools.some((tool) => tool.name === RUN_COMMAND_TOOL) && last.role === 'user' ? offlineProposal(textOf(last.content)) : null;
    const deltas = (): AsyncIterable<ModelDelta> =>
      rule ? proposed(request.messages, rule, `call_${randomBytes(12).toString('hex')}`) : stopAt(services.model.stream({ ...request, signal: abort.signal }), stops, stopped);
    // A reply that used all the tokens it was allowed was cut by the cap, not ended by the model.
    const finishReason = (usage: UsageDelta | null) =>
      usage?.toolCalls?.length ? 'tool_calls' : !stopped.stopped && usage && request.maxTokens !== undefined && usage.completionTokens >= request.maxTokens ? 'length' : 'stop';

    if (!body.stream) {
      let text = '';
      let usage: UsageDelta | null = null;
      try {
        for await (const delta of deltas()) {
          if (delta.type === 'text') text += delta.text;
          else usage = delta;
        }
        await settle(usage, 'completed');
      } catch (error) {
        await settle(usage ?? partialUsageOf(error), 'failed');
        services.log.warn({ err: error, callId }, 'engineer chat completion failed');
        const { code, params } = failure(error);
        throw new HttpError(502, failureText(error), code, params);
      }
      ctx.body = {
        id: callId,
        object: 'chat.completion',
        created,
        model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: usage?.toolCalls?.length && !text ? null : text, ...(usage?.toolCalls?.length && { tool_calls: toolCallsBody(usage.toolCalls).map(({ index: _, ...call }) => call) }) },
            logprobs: null,
            finish_reason: finishReason(usage),
          },
        ],
        ...(usage && { usage: usageBody(usage) }),
      };
      return;
    }

    const includeUsage = body.stream_options?.include_usage === true;
    const out = new PassThrough();
    ctx.type = 'text/event-stream';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = out;
    // With include_usage OpenAI sends `usage: null` on every chunk but the last, which carries it with no choices.
    const chunk = (delta: Record<string, unknown>, finish: string | null) =>
      sse({ id: callId, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(includeUsage && { usage: null }) });
    void (async () => {
      let usage: UsageDelta | null = null;
      try {
        out.write(chunk({ role: 'assistant', content: '' }, null));
        for await (const delta of deltas()) {
          if (delta.type === 'text') out.write(chunk({ content: delta.text }, null));
          else usage = delta;
        }
        if (usage?.toolCalls?.length) out.write(chunk({ tool_calls: toolCallsBody(usage.toolCalls) }, null));
        out.write(chunk({}, finishReason(usage)));
        if (usage && includeUsage) out.write(sse({ id: callId, object: 'chat.completion.chunk', created, model, choices: [], usage: usageBody(usage) }));
        out.write('data: [DONE]\n\n');
        await settle(usage, 'completed');
      } catch (error) {
        services.log.warn({ err: error, callId }, 'engineer chat completion failed');
        if (!out.destroyed) out.write(sse({ error: { message: failureText(error), type: 'server_error', code: failure(error).code, param: null } }));
        await settle(usage ?? partialUsageOf(error), 'failed').catch((settleError) => services.log.error({ err: settleError, callId }, 'could not record the failed call'));
      } finally {
        out.end();
      }
    })();
  });

  return router;
}

/** The offline rule's reply as a model stream: its label as text, then the call on the usage delta. */
async function* proposed(messages: readonly ChatMessage[], rule: NonNullable<ReturnType<typeof offlineProposal>>, id: string): AsyncGenerator<ModelDelta> {
  yield { type: 'text', text: rule.text };
  yield {
    type: 'usage',
    promptTokens: estimateMessageTokens(messages),
    completionTokens: estimateTokens(rule.text + rule.arguments),
    model: 'offline',
    estimated: true,
    toolCalls: [{ id, name: RUN_COMMAND_TOOL, arguments: rule.arguments }],
  };
}

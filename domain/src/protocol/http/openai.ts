import { z } from 'zod';

/** The OpenAI-compatible api's replies (`/backend/engineer/v1/…`), in OpenAI's own shapes; see `oauth.ts` for how they are shared. */

export const openAiModel = z.object({ id: z.string(), object: z.literal('model'), created: z.number().int(), owned_by: z.string() });
export const openAiModelList = z.object({ object: z.literal('list'), data: z.array(openAiModel) });

const usage = z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int() });
const toolCall = z.object({ id: z.string(), type: z.literal('function'), function: z.object({ name: z.string(), arguments: z.string() }) });
const finishReason = z.enum(['stop', 'length', 'tool_calls']);

/** `stream: false`: the whole answer at once. */
export const chatCompletion = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({ role: z.literal('assistant'), content: z.string().nullable(), tool_calls: z.array(toolCall).optional() }),
      logprobs: z.null(),
      finish_reason: finishReason,
    }),
  ),
  usage: usage.optional(),
});

/**
 * `stream: true`: server-sent events, each `data:` line one of these, then `data: [DONE]`. The last
 * chunk before it carries the usage when `stream_options.include_usage` asked for it (its
 * `choices` empty); a failure after the stream began is one `{error}` event in OpenAI's shape.
 */
export const chatCompletionChunk = z.union([
  z.object({
    id: z.string(),
    object: z.literal('chat.completion.chunk'),
    created: z.number().int(),
    model: z.string(),
    choices: z.array(
      z.object({
        index: z.number().int(),
        delta: z.object({ role: z.literal('assistant').optional(), content: z.string().optional(), tool_calls: z.array(toolCall.extend({ index: z.number().int() })).optional() }),
        logprobs: z.null(),
        finish_reason: finishReason.nullable(),
      }),
    ),
    usage: usage.nullable().optional(),
  }),
  z.object({ error: z.object({ message: z.string(), type: z.literal('server_error'), code: z.string(), param: z.null() }) }),
]);

export type OpenAiModel = z.infer<typeof openAiModel>;
export type OpenAiModelList = z.infer<typeof openAiModelList>;
export type ChatCompletion = z.infer<typeof chatCompletion>;
export type ChatCompletionChunk = z.infer<typeof chatCompletionChunk>;

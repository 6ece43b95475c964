/**
 * The ModelProvider port: streaming chat with token usage. Adapters: the OpenAI-compatible client
 * (OpenAI, vLLM, Ollama, LiteLLM…) and the offline extractive engine used when no model is set.
 *
 * Contract of `stream`: zero or more `text` deltas, then exactly one `usage` delta, then the end —
 * or a thrown `ModelError`, in which case no usage delta follows. Concatenating the text deltas
 * gives the answer once; an adapter never restarts a reply it has already begun to emit. Tool calls
 * the model asked for ride on the usage delta, whole. Reasoning (`reasoning_content`, `<think>`
 * blocks) is never text, but its tokens are in the usage. A `ModelError` thrown after the model had
 * begun to answer carries what the call cost so far (`partialUsage`), for the caller to charge.
 */

import type { ModelProfile, ModelRole } from './profile.ts';

export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

/**
 * A source the answer should draw on. Providers number them from 1 in the order given and answers
 * cite them as `[n]`, so a caller can map a marker back to `context[n - 1]`.
 */
export interface ContextDocument {
  title: string;
  url?: string;
  text: string;
}

/** A function the model may call instead of answering, in OpenAI's tools protocol; `parameters` is a JSON Schema. */
export interface ToolDefinition {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
}

/** A call the model asked for: `arguments` is the JSON text the model wrote, unparsed. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface ModelRequest {
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  /**
   * Sequences the model should stop before. Servers that take `stop` are sent it; a caller that must
   * be sure of the cut (not every server honours it, the offline engine does not) reads through `stopAt`.
   */
  stop?: string[];
  signal?: AbortSignal;
  context?: ContextDocument[];
  /** Functions the model may call; servers are sent them, the offline engine ignores them. */
  tools?: ToolDefinition[];
}

export interface TextDelta {
  type: 'text';
  text: string;
}

export interface UsageDelta {
  type: 'usage';
  promptTokens: number;
  completionTokens: number;
  /** The model that answered, as the server names it (or `offline`). */
  model: string;
  /** True when the server reported no usage and the numbers come from `estimateTokens`. */
  estimated: boolean;
  /** Calls the model asked for, known whole only once the reply ends; absent when it made none. */
  toolCalls?: ToolCall[];
}

export type ModelDelta = TextDelta | UsageDelta;

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  model: string;
  estimated: boolean;
}

export interface Completion {
  text: string;
  usage: Usage;
  toolCalls?: ToolCall[];
}

export interface ModelProvider {
  /** `openai-compatible:<model>` or `offline`; recorded with token usage. */
  readonly name: string;
  /** True for the offline engine, so the UI and events can say so. */
  readonly offline: boolean;
  /** Its window, output cap and reasoning format: every call is sized to it. */
  readonly profile: ModelProfile;
  stream(request: ModelRequest): AsyncIterable<ModelDelta>;
  complete(request: ModelRequest): Promise<Completion>;
}

/**
 * The models of a deployment by role. `for(role)` always answers: a role with no model of its own
 * gets the `default` one. Implementations may change what they answer while running (an
 * administrator's new connection), so callers ask per call instead of keeping the provider.
 */
export interface ModelRouter {
  for(role: ModelRole): ModelProvider;
}

/** One configured model endpoint: where it answers, which model, its profile override, what it is for. */
export interface ModelEndpoint {
  id: string;
  baseUrl: string;
  apiKey?: string;
  model: string;
  profile?: Partial<ModelProfile>;
  roles: ModelRole[];
}

/**
 * `refused`: the provider refused this request as it was made (a 400 for a prompt over the window or
 * `max_tokens` over the cap, an unknown model): retrying it unchanged cannot help, and the user is
 * told it was the request, not the model's answer. `providerMessage` carries the provider's words.
 */
export type ModelErrorKind = 'timeout' | 'rate_limited' | 'server' | 'bad_response' | 'refused' | 'aborted' | 'network' | 'auth';

const retryableKinds: ReadonlySet<ModelErrorKind> = new Set(['timeout', 'rate_limited', 'server', 'network']);

export interface ModelErrorOptions {
  status?: number;
  retryAfterMs?: number;
  textEmitted?: boolean;
  /** What the provider said, verbatim and truncated, for `refused` and the logs. */
  providerMessage?: string;
  /**
   * What the failed call cost before it failed, once the model had begun to answer: the provider's
   * figures when it sent them, else the estimate of the prompt and of what streamed (reasoning
   * included). The caller charges it; absent, nothing was consumed that a provider bills.
   */
  partialUsage?: Usage;
  cause?: unknown;
}

export class ModelError extends Error {
  /**
   * Whether trying the same request again later may succeed. The client has already spent its own
   * retries; this tells the job queue whether another attempt of the job is worth it.
   */
  readonly retryable: boolean;
  readonly status: number | undefined;
  /** What the server asked us to wait before the next try, when it said. */
  readonly retryAfterMs: number | undefined;
  /** True when part of the reply had already been streamed to the caller before the failure. */
  readonly textEmitted: boolean;
  readonly providerMessage: string | undefined;
  readonly partialUsage: Usage | undefined;

  constructor(readonly kind: ModelErrorKind, message: string, options: ModelErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ModelError';
    this.retryable = retryableKinds.has(kind);
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.textEmitted = options.textEmitted ?? false;
    this.providerMessage = options.providerMessage;
    this.partialUsage = options.partialUsage;
  }

  /** The same failure, marked as having happened after text reached the caller. */
  afterText(): ModelError {
    if (this.textEmitted) return this;
    return new ModelError(this.kind, this.message, { ...this.options(), textEmitted: true });
  }

  /** The same failure, carrying what the call cost before it failed. */
  withPartialUsage(partialUsage: Usage): ModelError {
    return new ModelError(this.kind, this.message, { ...this.options(), partialUsage });
  }

  private options(): ModelErrorOptions {
    return {
      ...(this.status !== undefined && { status: this.status }),
      ...(this.retryAfterMs !== undefined && { retryAfterMs: this.retryAfterMs }),
      textEmitted: this.textEmitted,
      ...(this.providerMessage !== undefined && { providerMessage: this.providerMessage }),
      ...(this.partialUsage !== undefined && { partialUsage: this.partialUsage }),
      ...(this.cause !== undefined && { cause: this.cause }),
    };
  }
}

/** What a failed call cost, for a caller that charges failures: nothing unless the model began to answer. */
export function partialUsageOf(error: unknown): Usage | null {
  return error instanceof ModelError ? (error.partialUsage ?? null) : null;
}

/** Drains a stream into the full text and its usage; the shared body of every `complete`. */
export async function collect(stream: AsyncIterable<ModelDelta>): Promise<Completion> {
  let text = '';
  let usage: Usage | undefined;
  let toolCalls: ToolCall[] | undefined;
  for await (const delta of stream) {
    if (delta.type === 'text') text += delta.text;
    else {
      usage = { promptTokens: delta.promptTokens, completionTokens: delta.completionTokens, model: delta.model, estimated: delta.estimated };
      toolCalls = delta.toolCalls;
    }
  }
  if (!usage) throw new ModelError('bad_response', 'the model stream ended without usage');
  return { text, usage, ...(toolCalls && { toolCalls }) };
}

import { setTimeout as delay } from 'node:timers/promises';
import { collect, ModelError, type ToolCall, type ChatMessage, type Completion, type ContextDocument, type ModelDelta, type ModelProvider, type ModelRequest, type Usage } from './port.ts';
import { profileFor, type ModelProfile } from './profile.ts';
import { ReasoningFilter } from './reasoning.ts';
import { SseParser } from './sse.ts';
import { estimateMessageTokens, estimateTokens } from './tokens.ts';

export interface RetryInfo {
  /** The attempt that failed, from 1. */
  attempt: number;
  delayMs: number;
  error: ModelError;
}

export interface OpenAICompatibleOptions {
  /** See `chatCompletionsUrl` for how the path is completed. */
  baseUrl: string;
  model: string;
  /** The model's window, output cap and reasoning format; `profileFor(model)` when absent. */
  profile?: ModelProfile;
  /** Sent as `Authorization: Bearer …` when set; local servers usually need none. */
  apiKey?: string;
  /** Extra request headers (LiteLLM tags, OpenRouter attribution…). */
  headers?: Record<string, string>;
  /** Tries per call including the first. Default 3. */
  maxAttempts?: number;
  /** From sending the request to the response headers. Default 60 s. */
  connectTimeoutMs?: number;
  /** Longest silence while reading the body, the wait for the first token included. Default 60 s. */
  idleTimeoutMs?: number;
  /** First backoff; doubles per retry, with jitter. Default 500 ms. */
  retryBaseDelayMs?: number;
  /**
   * Longest wait before a retry. A `Retry-After` beyond it is not waited out here: the error is
   * thrown with `retryAfterMs` so the job queue can reschedule instead of holding a worker. Default 30 s.
   */
  maxRetryDelayMs?: number;
  onRetry?: (info: RetryInfo) => void;
  fetch?: typeof fetch;
}

/**
 * Where chat completions are posted. A bare origin gets the conventional `/v1`; any other path is
 * taken to be the API root as the vendor documents it, so `http://localhost:11434`,
 * `http://localhost:11434/v1`, `https://open.bigmodel.cn/api/paas/v4` and
 * `https://generativelanguage.googleapis.com/v1beta/openai` all work. A URL that already ends in
 * `/chat/completions` is used as it is.
 */
export function chatCompletionsUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith('/chat/completions')) url.pathname = path;
  else url.pathname = `${path === '' ? '/v1' : path}/chat/completions`;
  return url.toString();
}

/** How sources reach a real model: one system message after the caller's own system messages. */
export function withContext(messages: readonly ChatMessage[], context: readonly ContextDocument[] | undefined): ChatMessage[] {
  if (!context || context.length === 0) return [...messages];
  const sources = context
    .map((doc, i) => `[${i + 1}] ${doc.title}${doc.url ? ` <${doc.url}>` : ''}\n${doc.text.trim()}`)
    .join('\n\n');
  const message: ChatMessage = {
    role: 'system',
    content: `Sources for this answer. Cite them inline as [n]; do not cite anything else.\n\n${sources}`,
  };
  const firstNonSystem = messages.findIndex((m) => m.role !== 'system');
  const at = firstNonSystem === -1 ? messages.length : firstNonSystem;
  return [...messages.slice(0, at), message, ...messages.slice(at)];
}

/** A piece of a tool call: the first piece of each `index` names it, later ones add to its arguments. */
interface ToolCallPiece {
  index?: unknown;
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

/** `reasoning_content` (DeepSeek, vLLM's reasoning parsers) and `reasoning` (Ollama, OpenRouter) are never the answer. */
interface ChunkMessage {
  content?: unknown;
  reasoning_content?: unknown;
  reasoning?: unknown;
  tool_calls?: unknown;
}

interface ChunkChoice {
  delta?: ChunkMessage;
  message?: ChunkMessage;
  finish_reason?: unknown;
}

interface Chunk {
  model?: unknown;
  choices?: ChunkChoice[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null;
  error?: unknown;
}

/** What one HTTP attempt produced besides its text. */
interface AttemptState {
  model: string | undefined;
  usage: { promptTokens: number; completionTokens: number } | undefined;
  /** Tool calls by their `index`, assembled from the pieces streamed so far. */
  calls: Map<number, ToolCall>;
  /** Everything the model wrote, reasoning included: what an estimate charges when the server reports no usage. */
  received: string;
}

export class OpenAICompatibleProvider implements ModelProvider {
  readonly name: string;
  readonly offline = false;
  readonly profile: ModelProfile;
  private readonly url: string;
  private readonly fetch: typeof fetch;
  private readonly maxAttempts: number;
  private readonly connectTimeoutMs: number;
  private readonly idleTimeoutMs: number;
  private readonly retryBaseDelayMs: number;
  private readonly maxRetryDelayMs: number;

  constructor(private readonly options: OpenAICompatibleOptions) {
    this.name = `openai-compatible:${options.model}`;
    this.profile = options.profile ?? profileFor(options.model);
    this.url = chatCompletionsUrl(options.baseUrl);
    this.fetch = options.fetch ?? globalThis.fetch;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 3);
    this.connectTimeoutMs = options.connectTimeoutMs ?? 60_000;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
    this.retryBaseDelayMs = options.retryBaseDelayMs ?? 500;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
  }

  complete(request: ModelRequest): Promise<Completion> {
    return collect(this.stream(request));
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelDelta> {
    const messages = withContext(request.messages, request.context);
    const body = JSON.stringify({
      model: this.options.model,
      messages,
      stream: true,
      stream_options: { include_usage: true },
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
      ...(request.stop?.length ? { stop: request.stop } : {}),
      ...(request.tools?.length ? { tools: request.tools.map((tool) => ({ type: 'function', function: tool })) } : {}),
    });
    let text = '';
    // Attempts that failed after the model had begun to answer (reasoning only, or cut before any
    // text) were still billed by the provider: their cost joins the call's.
    let lost: Usage | undefined;
    for (let attempt = 1; ; attempt++) {
      const state: AttemptState = { model: undefined, usage: undefined, calls: new Map(), received: '' };
      try {
        for await (const piece of this.attempt(body, request.signal, state)) {
          text += piece;
          yield { type: 'text', text: piece };
        }
      } catch (caught) {
        let error = caught instanceof ModelError ? caught : new ModelError('network', String(caught), { cause: caught });
        if (state.received.length > 0 || state.usage) lost = sum(lost, this.spent(messages, state));
        if (lost) error = error.withPartialUsage(lost);
        // Once text is out, a restart would repeat it: the caller decides what to do with a partial reply.
        if (text.length > 0) throw error.afterText();
        const wait = this.retryDelay(error, attempt);
        if (wait === undefined) throw error;
        this.options.onRetry?.({ attempt, delayMs: wait, error });
        await sleep(wait, request.signal);
        continue;
      }
      const usage = sum(lost, this.spent(messages, state));
      yield { type: 'usage', ...usage, ...(state.calls.size > 0 && { toolCalls: [...state.calls.values()] }) };
      return;
    }
  }

  /** What one attempt cost: the server's figures when it sent them, else the estimate of what went and came. */
  private spent(messages: readonly ChatMessage[], state: AttemptState): Usage {
    return {
      promptTokens: state.usage?.promptTokens ?? estimateMessageTokens(messages),
      completionTokens: state.usage?.completionTokens ?? estimateTokens(state.received),
      model: state.model ?? this.options.model,
      estimated: state.usage === undefined,
    };
  }

  private retryDelay(error: ModelError, attempt: number): number | undefined {
    if (!error.retryable || attempt >= this.maxAttempts) return undefined;
    if (error.retryAfterMs !== undefined) {
      return error.retryAfterMs <= this.maxRetryDelayMs ? error.retryAfterMs : undefined;
    }
    const exponential = Math.min(this.maxRetryDelayMs, this.retryBaseDelayMs * 2 ** (attempt - 1));
    // Jitter keeps workers that failed together from retrying together.
    return Math.round(exponential * (0.5 + Math.random() * 0.5));
  }

  /** One HTTP request; yields text pieces and fills `state` with the model name and usage. */
  private async *attempt(body: string, signal: AbortSignal | undefined, state: AttemptState): AsyncGenerator<string> {
    if (signal?.aborted) throw aborted(signal);
    const controller = new AbortController();
    let timeout: ModelError | undefined;
    let timer: NodeJS.Timeout | undefined;
    const arm = (ms: number, what: string) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timeout = new ModelError('timeout', `${what} after ${ms} ms`);
        controller.abort(timeout);
      }, ms);
    };
    const disarm = () => clearTimeout(timer);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const failure = (cause: unknown): ModelError => {
      if (timeout) return timeout;
      if (signal?.aborted) return aborted(signal);
      if (cause instanceof ModelError) return cause;
      return new ModelError('network', `request to ${this.url} failed: ${describe(cause)}`, { cause });
    };

    try {
      let response: Response;
      arm(this.connectTimeoutMs, 'no response headers');
      try {
        response = await this.fetch(this.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'text/event-stream',
            ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
            ...this.options.headers,
          },
          body,
          signal: controller.signal,
        });
      } catch (cause) {
        throw failure(cause);
      } finally {
        disarm();
      }

      const readAll = async (): Promise<string> => {
        arm(this.idleTimeoutMs, 'response body stalled');
        try {
          return await response.text();
        } catch (cause) {
          throw failure(cause);
        } finally {
          disarm();
        }
      };

      if (!response.ok) throw httpError(response, await readAll());

      const contentType = response.headers.get('content-type') ?? '';
      if (contentType.includes('application/json')) {
        // A server that ignores `stream: true` answers with one completion object.
        const chunk = parseChunk(await readAll());
        const message = chunk.choices?.[0]?.message;
        absorb(chunk, state);
        addToolCalls(message?.tool_calls, state);
        const filter = new ReasoningFilter(this.profile.reasoning);
        if (reasoningOf(message, state)) filter.separatedByServer();
        const content = contentOf(message, state);
        const text = filter.push(content).text + filter.end().text;
        if (text.length > 0) yield text;
        return;
      }
      if (contentType.includes('text/html')) {
        // Typically a base URL that points at a web page or a login portal rather than the API.
        throw new ModelError('bad_response', `expected an event stream from ${this.url}, got ${contentType}`, { status: response.status });
      }
      if (!response.body) throw new ModelError('bad_response', 'the response has no body');

      const reader = response.body.getReader();
      const parser = new SseParser();
      const filter = new ReasoningFilter(this.profile.reasoning);
      let finished = false;
      try {
        for (;;) {
          // The timer runs only while waiting on the network, not while the caller digests a piece.
          arm(this.idleTimeoutMs, 'no data from the model');
          let read: Awaited<ReturnType<typeof reader.read>>;
          try {
            read = await reader.read();
          } catch (cause) {
            throw failure(cause);
          } finally {
            disarm();
          }
          const events = read.done ? parser.end() : parser.push(read.value);
          for (const event of events) {
            // One read can carry many events; none of them may reach a caller that has aborted.
            if (signal?.aborted) throw aborted(signal);
            const data = event.data.trim();
            if (data === '[DONE]') {
              const rest = filter.end().text;
              if (rest.length > 0) yield rest;
              return;
            }
            // Empty events are keep-alives in all but name.
            if (data === '') continue;
            if (event.event === 'error') throw streamError(data);
            const chunk = parseChunk(data);
            if (chunk.error !== undefined && chunk.error !== null) throw streamError(chunk.error);
            absorb(chunk, state);
            const choice = chunk.choices?.[0];
            if (choice?.finish_reason) finished = true;
            addToolCalls(choice?.delta?.tool_calls, state);
            let text = reasoningOf(choice?.delta, state) ? filter.separatedByServer().text : '';
            text += filter.push(contentOf(choice?.delta, state)).text;
            if (text.length > 0) yield text;
          }
          if (read.done) break;
        }
      } finally {
        reader.releaseLock();
      }
      // Without `[DONE]` a clean close is only trusted when the model said why it stopped.
      if (!finished) throw new ModelError('network', 'the stream ended before the model finished');
      const rest = filter.end().text;
      if (rest.length > 0) yield rest;
    } finally {
      disarm();
      signal?.removeEventListener('abort', onAbort);
      // Frees the connection when the caller stops early; a no-op after a complete read.
      controller.abort();
    }
  }
}

/** The content of a delta or message, noted as received. */
function contentOf(message: ChunkMessage | undefined, state: AttemptState): string {
  const content = message?.content;
  if (typeof content !== 'string') return '';
  state.received += content;
  return content;
}

/** True when the delta or message carried reasoning beside the content, noted as received. */
function reasoningOf(message: ChunkMessage | undefined, state: AttemptState): boolean {
  const reasoning = [message?.reasoning_content, message?.reasoning].find((value) => typeof value === 'string' && value.length > 0);
  if (typeof reasoning !== 'string') return false;
  state.received += reasoning;
  return true;
}

function sum(a: Usage | undefined, b: Usage): Usage {
  if (!a) return b;
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens, model: b.model, estimated: true };
}

function absorb(chunk: Chunk, state: AttemptState): void {
  if (typeof chunk.model === 'string' && chunk.model.length > 0) state.model = chunk.model;
  const usage = chunk.usage;
  // Some servers repeat running totals on every chunk; the last one wins.
  if (usage && typeof usage.prompt_tokens === 'number' && typeof usage.completion_tokens === 'number') {
    state.usage = { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens };
  }
}

/** Folds streamed tool-call pieces (or a whole completion's calls) into `state.calls`. */
function addToolCalls(pieces: unknown, state: AttemptState): void {
  if (!Array.isArray(pieces)) return;
  pieces.forEach((raw: ToolCallPiece, position) => {
    const index = typeof raw.index === 'number' ? raw.index : position;
    const call = state.calls.get(index) ?? { id: '', name: '', arguments: '' };
    if (typeof raw.id === 'string' && raw.id) call.id = raw.id;
    // OpenAI names the call in its first piece only; a server that repeats the name must not double it.
    if (typeof raw.function?.name === 'string' && !call.name) call.name = raw.function.name;
    if (typeof raw.function?.arguments === 'string') call.arguments += raw.function.arguments;
    state.calls.set(index, call);
  });
}

function parseChunk(data: string): Chunk {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw new ModelError('bad_response', `the model sent malformed JSON: ${truncate(data)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ModelError('bad_response', `the model sent a chunk that is not an object: ${truncate(data)}`);
  }
  const chunk = value as Chunk;
  if (chunk.choices !== undefined && chunk.choices !== null && !Array.isArray(chunk.choices)) {
    throw new ModelError('bad_response', `the model sent choices that are not a list: ${truncate(data)}`);
  }
  return chunk;
}

/** An error the server reported inside the stream, as vLLM and LiteLLM do after headers are sent. */
function streamError(payload: unknown): ModelError {
  let detail: unknown = payload;
  if (typeof payload === 'string') {
    try {
      detail = (JSON.parse(payload) as { error?: unknown }).error ?? payload;
    } catch {
      detail = payload;
    }
  }
  const record = typeof detail === 'object' && detail !== null ? (detail as Record<string, unknown>) : {};
  const message = typeof record['message'] === 'string' ? record['message'] : truncate(typeof detail === 'string' ? detail : JSON.stringify(detail));
  const code = Number(record['code'] ?? record['status']);
  const status = Number.isInteger(code) && code >= 400 && code < 600 ? code : undefined;
  const kind = status === undefined ? 'server' : kindForStatus(status);
  return new ModelError(kind, `the model reported an error mid-stream: ${message}`, { ...(status !== undefined && { status }), providerMessage: message });
}

function kindForStatus(status: number): ModelError['kind'] {
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limited';
  if (status === 408 || status === 504) return 'timeout';
  if (status >= 500) return 'server';
  // Other 4xx: the request itself is refused (over the window or the output cap, an unknown model); retrying it cannot help.
  return 'refused';
}

function httpError(response: Response, body: string): ModelError {
  let message = truncate(body);
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const candidate = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof candidate === 'string') message = truncate(candidate);
  } catch {
    // Not JSON: the raw text is the best description there is.
  }
  const retryAfterMs = parseRetryAfter(response.headers);
  return new ModelError(kindForStatus(response.status), `HTTP ${response.status}${message ? `: ${message}` : ''}`, {
    status: response.status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(message && { providerMessage: message }),
  });
}

/** `retry-after-ms` (OpenAI, Azure) first, then `Retry-After` in seconds or as an HTTP date. */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number(headers.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return Math.ceil(ms);
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function aborted(signal: AbortSignal): ModelError {
  return new ModelError('aborted', 'the request was aborted', { cause: signal.reason });
}

async function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await delay(ms, undefined, signal ? { signal } : {});
  } catch (cause) {
    if (signal?.aborted) throw aborted(signal);
    throw cause;
  }
}

function describe(cause: unknown): string {
  if (cause instanceof Error) {
    const inner = cause.cause instanceof Error ? `: ${cause.cause.message}` : '';
    return `${cause.message}${inner}`;
  }
  return String(cause);
}

function truncate(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

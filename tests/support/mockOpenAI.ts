/**
 * A local stand-in for an OpenAI-compatible server: `POST …/chat/completions` answering with the
 * SSE chunk stream OpenAI sends for `stream: true`, plus the ways real servers misbehave.
 *
 * The scenario of a request comes from the `x-mock-scenario` header, else from the model name when
 * it names a scenario (`model: 'rate-limit'`), else from `options.scenario`. Failing scenarios
 * fail the first `failTimes` requests that share a scenario and `x-mock-key`, then answer
 * normally, so "fails then succeeds" needs no extra setup. Headers can override the numeric
 * options per request: `x-mock-delay-ms`, `x-mock-tokens-per-chunk`, `x-mock-fail-times`,
 * `x-mock-fail-at`, `x-mock-retry-after`.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

export const mockScenarios = [
  /** Role chunk, content chunks, finish chunk, usage chunk when asked for, `[DONE]`. */
  'normal',
  /** As normal with `delayMs` (default 30) before each chunk. */
  'slow',
  /** The frames cut into 1–7 byte writes, across lines, fields and UTF-8 characters. */
  'fragmented',
  /** CRLF line ends, `:` comments, `id:` and `event:` fields, JSON spread over several `data:` lines. */
  'quirky',
  /** The first chunk is `delta: { role }` with no content key at all (vLLM, some proxies). */
  'role-only',
  /** Never sends usage, whatever `stream_options` says (older Ollama, some proxies). */
  'no-usage',
  /** A non-streaming `chat.completion` JSON body, as from a server that ignores `stream`. */
  'json',
  /** 429 with `Retry-After: retryAfter` (seconds) and an OpenAI error body. */
  'rate-limit',
  /** 500 with an OpenAI error body. */
  'server-error',
  /** Destroys the socket after `failAt` content chunks. */
  'disconnect',
  /** A `data:` line that is not JSON after `failAt` content chunks. */
  'malformed',
  /** An in-stream `{"error":{…}}` chunk after `failAt` content chunks, then the end. */
  'error-event',
  /** Stops sending after `failAt` content chunks and keeps the connection open. */
  'stall',
  /** Never sends response headers. */
  'hang',
  /** All content, then a clean end without `finish_reason` or `[DONE]`. */
  'truncated',
] as const;

export type MockScenario = (typeof mockScenarios)[number];

const failing: ReadonlySet<MockScenario> = new Set(['rate-limit', 'server-error', 'disconnect', 'malformed', 'error-event', 'stall', 'hang', 'truncated']);

export interface MockRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body. */
  body: ChatBody;
  /** What was played: `normal` once a failing scenario has used up its failures. */
  scenario: MockScenario;
  /** `completed` when the response was sent in full, `client-closed` when the client went away first. */
  outcome: Promise<'completed' | 'client-closed'>;
}

export interface ChatBody {
  model?: string;
  messages?: { role: string; content: string }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  temperature?: number;
  max_tokens?: number;
  [key: string]: unknown;
}

export interface MockOpenAIOptions {
  scenario?: MockScenario;
  /** The assistant's answer; a function can answer from the request. */
  reply?: string | ((body: ChatBody) => string);
  /** Tokens (a CJK character or a word with its leading space) per content chunk. Default 1. */
  tokensPerChunk?: number;
  /** Pause before each chunk. Default 0, or 30 in `slow`. */
  delayMs?: number;
  /** How many requests a failing scenario fails before answering normally. Default 1. */
  failTimes?: number;
  /** Content chunks sent before a mid-stream failure. Default: half of them. */
  failAt?: number;
  /** `Retry-After` value for 429. Default `1`. */
  retryAfter?: string;
  /** When set, requests without `Authorization: Bearer <apiKey>` get 401. */
  apiKey?: string;
  /** Tool calls to make after the reply's text (none when it returns nothing); streamed in pieces, finish_reason `tool_calls`. */
  toolCalls?: (body: ChatBody) => { name: string; arguments: string }[] | undefined;
}

export interface MockOpenAI {
  /** Base URL including `/v1`, as a user would configure it. */
  url: string;
  /** The server's origin, without `/v1`. */
  origin: string;
  requests: MockRequest[];
  close(): Promise<void>;
}

export const defaultMockReply = '你好，这是模拟服务器的回答：流式输出正常。Hello from the mock server, streaming works.';

/** Splits text the way the mock streams it; joining the pieces gives the text back exactly. */
export function mockTokens(text: string): string[] {
  return text.match(/\s*(?:\p{Script=Han}|[^\s\p{Script=Han}]+)|\s+$/gu) ?? [];
}

export async function startMockOpenAI(options: MockOpenAIOptions = {}): Promise<MockOpenAI> {
  const requests: MockRequest[] = [];
  const failures = new Map<string, number>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
        sendJson(res, 404, { error: { message: `no route for ${req.method} ${path}`, type: 'invalid_request_error' } });
        return;
      }
      let body: ChatBody;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatBody;
      } catch {
        sendJson(res, 400, { error: { message: 'body is not JSON', type: 'invalid_request_error' } });
        return;
      }

      const header = (name: string) => {
        const value = req.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      const numeric = (name: string, fallback: number | undefined) => {
        const value = header(name);
        return value === undefined ? fallback : Number(value);
      };
      const asked = header('x-mock-scenario') ?? (isScenario(body.model) ? body.model : undefined) ?? options.scenario ?? 'normal';
      if (!isScenario(asked)) {
        sendJson(res, 400, { error: { message: `unknown mock scenario ${asked}` } });
        return;
      }
      let scenario: MockScenario = asked;
      if (failing.has(asked)) {
        const key = `${asked}\u0000${header('x-mock-key') ?? ''}`;
        const failed = failures.get(key) ?? 0;
        if (failed >= (numeric('x-mock-fail-times', options.failTimes) ?? 1)) scenario = 'normal';
        else failures.set(key, failed + 1);
      }

      let settle!: (outcome: 'completed' | 'client-closed') => void;
      const outcome = new Promise<'completed' | 'client-closed'>((resolve) => (settle = resolve));
      res.on('close', () => settle(res.writableFinished ? 'completed' : 'client-closed'));
      requests.push({ method: req.method, path, headers: req.headers, body, scenario, outcome });

      if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
        sendJson(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
        return;
      }

      const reply = typeof options.reply === 'function' ? options.reply(body) : (options.reply ?? defaultMockReply);
      const tokens = mockTokens(reply);
      const play: Play = {
        res,
        body,
        calls: options.toolCalls?.(body) ?? [],
        scenario,
        tokens,
        perChunk: Math.max(1, numeric('x-mock-tokens-per-chunk', options.tokensPerChunk) ?? 1),
        delayMs: numeric('x-mock-delay-ms', options.delayMs) ?? (scenario === 'slow' ? 30 : 0),
        failAt: numeric('x-mock-fail-at', options.failAt),
        retryAfter: header('x-mock-retry-after') ?? options.retryAfter ?? '1',
      };
      respond(play).catch(() => res.destroy());
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/v1`,
    origin,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

interface Play {
  res: ServerResponse;
  body: ChatBody;
  calls: { name: string; arguments: string }[];
  scenario: MockScenario;
  tokens: string[];
  perChunk: number;
  delayMs: number;
  failAt: number | undefined;
  retryAfter: string;
}

function isScenario(value: unknown): value is MockScenario {
  return typeof value === 'string' && (mockScenarios as readonly string[]).includes(value);
}

function sendJson(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(payload));
}

async function respond(play: Play): Promise<void> {
  const { res, body, scenario, tokens, calls } = play;
  const finishReason = calls.length > 0 ? 'tool_calls' : 'stop';
  const callId = (index: number) => `call_mock_${index}`;
  const model = body.model ?? 'mock-model';
  const contents: string[] = [];
  for (let i = 0; i < tokens.length; i += play.perChunk) contents.push(tokens.slice(i, i + play.perChunk).join(''));
  const failAt = Math.min(contents.length, play.failAt ?? Math.floor(contents.length / 2));
  const promptChars = (body.messages ?? []).reduce((sum, m) => sum + String(m.content).length, 0);
  const usage = { prompt_tokens: Math.ceil(promptChars / 4) + 7, completion_tokens: tokens.length, total_tokens: 0 };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;

  switch (scenario) {
    case 'hang':
      return;
    case 'rate-limit':
      sendJson(res, 429, { error: { message: 'Rate limit reached, retry later', type: 'requests', code: 'rate_limit_exceeded' } }, { 'retry-after': play.retryAfter });
      return;
    case 'server-error':
      sendJson(res, 500, { error: { message: 'The server had an error while processing your request', type: 'server_error' } });
      return;
    case 'json':
      sendJson(res, 200, {
        id: 'chatcmpl-mock',
        object: 'chat.completion',
        created: 1_700_000_000,
        model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: tokens.join(''), ...(calls.length > 0 && { tool_calls: calls.map((call, index) => ({ id: callId(index), type: 'function', function: call })) }) },
            finish_reason: finishReason,
          },
        ],
        usage,
      });
      return;
  }

  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const quirky = scenario === 'quirky';
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
    id: 'chatcmpl-mock',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model,
    choices,
    ...extra,
  });
  const frame = (payload: unknown, n: number): string => {
    const json = typeof payload === 'string' ? payload : JSON.stringify(payload);
    if (!quirky) return `data: ${json}\n\n`;
    // Field order and spacing vary on purpose: `data:` with and without a space, JSON split at a comma.
    const comma = json.indexOf(',');
    const data = comma === -1 || json === '[DONE]' ? `data:${json}` : `data: ${json.slice(0, comma + 1)}\r\ndata:${json.slice(comma + 1)}`;
    return `: keep-alive ${n}\r\nid: ${n}\r\nevent: message\r\n${data}\r\n\r\n`;
  };
  let n = 0;
  const send = async (payload: unknown) => {
    if (play.delayMs > 0) await delay(play.delayMs);
    if (res.destroyed) throw new Error('client went away');
    const bytes = Buffer.from(frame(payload, n++), 'utf8');
    // Waiting for each write to be flushed keeps a later `destroy()` from discarding what was sent.
    const write = (data: Uint8Array) => new Promise<void>((resolve, reject) => res.write(data, (error) => (error ? reject(error) : resolve())));
    if (scenario !== 'fragmented') {
      await write(bytes);
      return;
    }
    const sizes = [1, 3, 2, 7, 5];
    for (let offset = 0, i = 0; offset < bytes.length; i++) {
      const size = sizes[i % sizes.length]!;
      // Each flushed write leaves as its own TCP segment (the server socket has no Nagle delay).
      await write(bytes.subarray(offset, offset + size));
      offset += size;
    }
  };

  await send(chunk([{ index: 0, delta: scenario === 'role-only' ? { role: 'assistant' } : { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]));
  /** Plays the scenario's mid-stream failure; true when the response is over. */
  const fail = async (): Promise<boolean> => {
    switch (scenario) {
      case 'disconnect':
        res.socket?.destroy();
        return true;
      case 'stall':
        return true;
      case 'malformed':
        await send('{"id":"chatcmpl-mock","choices":[{"delta":{"content":"oops"');
        return false;
      case 'error-event':
        await send({ error: { message: 'model worker crashed', type: 'server_error', code: 500 } });
        res.end();
        return true;
      default:
        return false;
    }
  };
  for (let index = 0; index <= contents.length; index++) {
    if (index === failAt && (await fail())) return;
    const content = contents[index];
    if (content !== undefined) await send(chunk([{ index: 0, delta: { content }, logprobs: null, finish_reason: null }]));
  }
  if (scenario === 'truncated') {
    res.end();
    return;
  }
  for (const [index, call] of calls.entries()) {
    // As OpenAI streams a call: its id and name first, then the arguments in pieces.
    await send(chunk([{ index: 0, delta: { tool_calls: [{ index, id: callId(index), type: 'function', function: { name: call.name, arguments: '' } }] }, logprobs: null, finish_reason: null }]));
    const half = Math.ceil(call.arguments.length / 2);
    for (const piece of [call.arguments.slice(0, half), call.arguments.slice(half)]) {
      await send(chunk([{ index: 0, delta: { tool_calls: [{ index, function: { arguments: piece } }] }, logprobs: null, finish_reason: null }]));
    }
  }
  await send(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: finishReason }]));
  if (body.stream_options?.include_usage && scenario !== 'no-usage') await send(chunk([], { usage }));
  await send('[DONE]');
  res.end();
}

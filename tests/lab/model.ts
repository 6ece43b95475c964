/**
 * The lab's scripted OpenAI-compatible model: `POST /v1/chat/completions`, streamed as SSE (usage in
 * the last chunk when asked) or as one JSON body. It recognises the research agent's prompts by what
 * they ask for and answers as a careful model would, from the sources it is given: every `[n]` it
 * writes stands after a sentence taken from source n. At `mistakeRate` it makes the mistakes real
 * models make (a citation to the wrong source, a number past the source list, a made-up claim with a
 * citation) and remembers each, so the lab can tell what the product published of them. A fault plan
 * makes it misbehave as providers do (see faults.ts). It counts calls, tokens and calls in flight.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { answerFor, sourcesIn, type Answer, type CallKind, type Mistake } from './answers.ts';
import { embeddingOf } from './embeddings.ts';
import { tokenCount, seeded } from './text.ts';

export interface Speed {
  /** Milliseconds before the first token. */
  firstTokenMs: number;
  tokensPerSecond: number;
}

/** Which calls a fault touches: of the given kinds (any when absent), the first `times` of them. */
export interface CallMatch {
  kinds?: CallKind[];
  times: number;
}

export type Fault =
  | { kind: 'status'; status: number; retryAfter?: string; match: CallMatch }
  | { kind: 'cut'; match: CallMatch }
  | { kind: 'replace'; match: CallMatch; text: (answer: string) => string; finish?: 'stop' | 'length' }
  | { kind: 'think'; match: CallMatch }
  | { kind: 'reasoning'; match: CallMatch }
  | { kind: 'firstToken'; ms: number; match: CallMatch }
  | { kind: 'noUsage' }
  | { kind: 'outputCap'; cap: number }
  | { kind: 'window'; tokens: number };

export interface CallRecord {
  kind: CallKind;
  stream: boolean;
  status: number;
  maxTokens?: number;
  /** What the call cost as the model counts it, whether or not the usage was sent. */
  promptTokens: number;
  completionTokens: number;
  usageSent: boolean;
  /** The fault played on this call, if any. */
  fault?: string;
  /** For a call that writes the report, the text of the sources it was shown. */
  shown?: string;
}

export interface ScriptedModelOptions {
  seed?: number;
  /** Chance that a cited sentence carries a mistake (0–1). */
  mistakeRate?: number;
  /** Off: the citation judge never restates a claim, so a claim its source does not hold stays marked. */
  rewrites?: boolean;
  speed?: Speed | null;
}

export interface ScriptedModel {
  /** Base URL including `/v1`. */
  url: string;
  calls: CallRecord[];
  mistakes: Mistake[];
  /** The most calls that were open at once since the last reset. */
  maxInFlight: number;
  /** Texts embedded (`POST /v1/embeddings`) since the last reset. */
  embedded: number;
  /**
   * Forgets calls, mistakes and the in-flight peak (between tasks); the fault plan is kept. A seed
   * starts the mistakes' random sequence again, so a task makes the same mistakes alone or in a suite.
   */
  reset(seed?: number): void;
  setFault(faults: Fault[]): void;
  close(): Promise<void>;
}

interface ChatBody {
  model?: string;
  messages?: Array<{ role: string; content: string }>;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
}

/** The calls whose answers become the report. */
const WRITING = new Set<CallKind>(['section', 'summary', 'deepen', 'revise']);

const sendJson = (res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(payload));
};

/** Splits text into tokens as the model streams them: a Han character, or a word with its leading space. */
const tokensOf = (text: string) => text.match(/\s*(?:\p{Script=Han}|[^\s\p{Script=Han}]+)|\s+$/gu) ?? [];

export async function startScriptedModel(options: ScriptedModelOptions = {}): Promise<ScriptedModel> {
  let random = seeded(options.seed ?? 27);
  const state = { calls: [] as CallRecord[], mistakes: [] as Mistake[], inFlight: 0, maxInFlight: 0, embedded: 0, faults: [] as Fault[], used: new Map<Fault, number>() };

  /** The first fault of `kind` that applies to this call, counting it as used. */
  const take = <K extends Fault['kind']>(kind: K, call: CallKind): Extract<Fault, { kind: K }> | undefined => {
    for (const fault of state.faults) {
      if (fault.kind !== kind) continue;
      if (!('match' in fault)) return fault as Extract<Fault, { kind: K }>;
      if (fault.match.kinds && !fault.match.kinds.includes(call)) continue;
      const used = state.used.get(fault) ?? 0;
      if (used >= fault.match.times) continue;
      state.used.set(fault, used + 1);
      return fault as Extract<Fault, { kind: K }>;
    }
    return undefined;
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      if (req.method === 'POST' && path.endsWith('/embeddings')) {
        embed(Buffer.concat(chunks).toString('utf8'), res);
        return;
      }
      if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
        sendJson(res, 404, { error: { message: `Unknown request URL: ${req.method} ${path}`, type: 'invalid_request_error' } });
        return;
      }
      let body: ChatBody;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatBody;
      } catch {
        sendJson(res, 400, { error: { message: 'We could not parse the JSON body of your request.', type: 'invalid_request_error' } });
        return;
      }
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      res.on('close', () => state.inFlight--);
      play(body, res).catch(() => res.destroy());
    });
  });

  /** OpenAI's embeddings route: `{model, input: string | string[]}` in, one vector per input out. */
  function embed(raw: string, res: ServerResponse): void {
    let input: unknown;
    try {
      input = (JSON.parse(raw) as { input?: unknown }).input;
    } catch {
      input = undefined;
    }
    const texts = typeof input === 'string' ? [input] : Array.isArray(input) && input.every((text) => typeof text === 'string') ? (input as string[]) : null;
    if (!texts) {
      sendJson(res, 400, { error: { message: "'input' must be a string or an array of strings", type: 'invalid_request_error' } });
      return;
    }
    state.embedded += texts.length;
    const tokens = texts.reduce((sum, text) => sum + tokenCount(text), 0);
    sendJson(res, 200, {
      object: 'list',
      model: 'lab-embeddings',
      data: texts.map((text, index) => ({ object: 'embedding', index, embedding: embeddingOf(text) })),
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }

  async function play(body: ChatBody, res: ServerResponse): Promise<void> {
    const messages = body.messages ?? [];
    const answer: Answer = answerFor(messages, { random: () => random(), mistakeRate: options.mistakeRate ?? 0, rewrites: options.rewrites ?? true });
    const promptTokens = tokenCount(messages.map((message) => message.content).join('\n'));
    const record: CallRecord = { kind: answer.kind, stream: body.stream === true, status: 200, promptTokens, completionTokens: 0, usageSent: false, ...(body.max_tokens !== undefined && { maxTokens: body.max_tokens }) };
    if (WRITING.has(answer.kind)) record.shown = sourcesIn(messages).map((source) => source.text).join('\n');
    state.calls.push(record);
    const refuse = (status: number, payload: unknown, fault: string, headers: Record<string, string> = {}) => {
      record.status = status;
      record.fault = fault;
      sendJson(res, status, payload, headers);
    };

    const cap = take('outputCap', answer.kind);
    if (cap && (body.max_tokens ?? 0) > cap.cap) {
      // DeepSeek's words for a max_tokens past its output cap.
      refuse(400, { error: { message: `Invalid max_tokens value, the valid range of max_tokens is [1, ${cap.cap}]`, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } }, 'output-cap');
      return;
    }
    const window = take('window', answer.kind);
    if (window && promptTokens + (body.max_tokens ?? 0) > window.tokens) {
      // vLLM's words for a request past the context window.
      const message = `This model's maximum context length is ${window.tokens} tokens. However, you requested ${promptTokens + (body.max_tokens ?? 0)} tokens (${promptTokens} in the messages, ${body.max_tokens ?? 0} in the completion). Please reduce the length of the messages or completion.`;
      refuse(400, { object: 'error', message, type: 'BadRequestError', param: null, code: 400 }, 'context-window');
      return;
    }
    const status = take('status', answer.kind);
    if (status) {
      const payload =
        status.status === 429
          ? { error: { message: 'Rate limit reached for requests. Please try again later.', type: 'requests', param: null, code: 'rate_limit_exceeded' } }
          : { error: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null } };
      refuse(status.status, payload, `status-${status.status}`, status.retryAfter ? { 'retry-after': status.retryAfter } : {});
      return;
    }
    state.mistakes.push(...answer.mistakes);
    let text = answer.text;
    let finish: 'stop' | 'length' = 'stop';
    const replaced = take('replace', answer.kind);
    if (replaced) {
      text = replaced.text(text);
      finish = replaced.finish ?? 'stop';
      record.fault = 'replace';
    }
    const think = take('think', answer.kind);
    // A reasoning model served without a reasoning parser: its thoughts, braces and all, arrive as content.
    if (think) text = `<think>\n${answer.kind === 'section' ? '用户要我写这一节。先看资料 {"n": 1} 里有什么' : 'The user wants JSON like {"ok": true}. Let me think'}……\n</think>\n\n${text}`;
    const reasoning = take('reasoning', answer.kind) ? 'Let me weigh the sources first. 先比较各个来源的说法。' : '';
    const cut = take('cut', answer.kind);
    const slow = take('firstToken', answer.kind);
    const usageOn = !state.faults.some((fault) => fault.kind === 'noUsage');
    if (think) record.fault = 'think';
    if (reasoning) record.fault = 'reasoning';
    if (cut) record.fault = 'cut';
    if (slow) record.fault = 'slow-first-token';
    record.completionTokens = tokenCount(reasoning + text);
    const usage = { prompt_tokens: promptTokens, completion_tokens: record.completionTokens, total_tokens: promptTokens + record.completionTokens };
    const speed = options.speed;
    const firstWait = (slow?.ms ?? 0) + (speed?.firstTokenMs ?? 0);
    const tokens = tokensOf(text);
    const created = Math.floor(Date.now() / 1000);
    const model = body.model ?? 'lab-scripted';

    if (!body.stream) {
      const total = firstWait + (speed ? (record.completionTokens / speed.tokensPerSecond) * 1000 : 0);
      if (total > 0) await delay(total);
      if (cut) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(JSON.stringify({ id: 'chatcmpl-lab', choices: [{ message: { content: text } }] }).slice(0, 40));
        res.destroy();
        return;
      }
      record.usageSent = usageOn;
      const message = { role: 'assistant', content: text, ...(reasoning && { reasoning_content: reasoning }) };
      sendJson(res, 200, { id: 'chatcmpl-lab', object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finish }], ...(usageOn && { usage }) });
      return;
    }

    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (payload: unknown) =>
      new Promise<void>((resolve, reject) => {
        if (res.destroyed) {
          reject(new Error('the client went away'));
          return;
        }
        res.write(`data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`, (error) => (error ? reject(error) : resolve()));
      });
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({ id: 'chatcmpl-lab', object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });
    if (firstWait > 0) await delay(firstWait);
    await send(chunk({ role: 'assistant', content: '' }));
    // Several tokens a frame, as servers batch them; paced at the realistic speed when one is set.
    const perFrame = 4;
    const pace = speed ? (perFrame / speed.tokensPerSecond) * 1000 : 0;
    if (reasoning) {
      for (const piece of tokensOf(reasoning)) await send(chunk({ reasoning_content: piece }));
    }
    const cutAt = cut ? Math.max(1, Math.floor(tokens.length / 2)) : -1;
    for (let i = 0; i < tokens.length; i += perFrame) {
      if (cut && i >= cutAt) {
        res.socket?.destroy();
        return;
      }
      if (pace > 0) await delay(pace);
      await send(chunk({ content: tokens.slice(i, i + perFrame).join('') }));
    }
    await send(chunk({}, finish));
    if (usageOn && body.stream_options?.include_usage) {
      record.usageSent = true;
      await send({ id: 'chatcmpl-lab', object: 'chat.completion.chunk', created, model, choices: [], usage });
    }
    await send('[DONE]');
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/v1`,
    get calls() {
      return state.calls;
    },
    get mistakes() {
      return state.mistakes;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    get embedded() {
      return state.embedded;
    },
    reset(seed) {
      if (seed !== undefined) random = seeded(seed);
      state.calls = [];
      state.embedded = 0;
      state.mistakes = [];
      state.maxInFlight = state.inFlight;
      state.used.clear();
    },
    setFault(faults) {
      state.faults = faults;
      state.used.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * An OpenAI-compatible streaming server in a process of its own, for streaming.ts. The shared mock
 * cannot say when it wrote each token, and in the bench's process its timers would share the event
 * loop with the app being measured (synchronous SQLite commits included), so a busy app would slow
 * the "model" down and hide its own delay. Here the model runs on its own clock, as a remote one does.
 *
 * IPC protocol (fork with an IPC channel):
 *   child → parent  {type:'listening', url}
 *   parent → child  {type:'script', question, tokens, delayMs}   a timed answer, acknowledged by
 *   child → parent  {type:'scripted', question}                    (so no request can overtake it)
 *   parent → child  {type:'clock', id} → {type:'clock', id, now}  for clock-offset calibration
 *   child → parent  {type:'written', question, writes}            epoch ms of each content chunk's write
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';

export interface Script {
  question: string;
  tokens: string[];
  delayMs: number;
}

export type ToChild = ({ type: 'script' } & Script) | { type: 'clock'; id: number };
export type FromChild =
  | { type: 'listening'; url: string }
  | { type: 'scripted'; question: string }
  | { type: 'clock'; id: number; now: number }
  | { type: 'written'; question: string; writes: number[] };

/** Epoch milliseconds with sub-millisecond resolution, comparable across processes once calibrated. */
export const epochNow = (): number => performance.timeOrigin + performance.now();

interface ChatBody {
  model?: string;
  messages?: { role: string; content: string }[];
  stream_options?: { include_usage?: boolean };
}

const send = (message: FromChild) => process.send!(message);

function frame(res: ServerResponse, payload: unknown): Promise<void> {
  const data = `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`;
  return new Promise((resolve, reject) => res.write(data, (error) => (error ? reject(error) : resolve())));
}

const chunk = (model: string, choices: unknown[], extra: Record<string, unknown> = {}) => ({
  id: 'chatcmpl-bench',
  object: 'chat.completion.chunk',
  created: 1_700_000_000,
  model,
  choices,
  ...extra,
});

async function answer(res: ServerResponse, body: ChatBody, tokens: string[], delayMs: number): Promise<number[]> {
  const model = body.model ?? 'bench';
  const writes: number[] = [];
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  await frame(res, chunk(model, [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]));
  for (const token of tokens) {
    if (delayMs > 0) await delay(delayMs);
    writes.push(epochNow());
    await frame(res, chunk(model, [{ index: 0, delta: { content: token }, finish_reason: null }]));
  }
  await frame(res, chunk(model, [{ index: 0, delta: {}, finish_reason: 'stop' }]));
  if (body.stream_options?.include_usage) {
    await frame(res, chunk(model, [], { usage: { prompt_tokens: 50, completion_tokens: tokens.length, total_tokens: 50 + tokens.length } }));
  }
  await frame(res, '[DONE]');
  res.end();
  return writes;
}

function serve(): void {
  if (process.send === undefined) throw new Error('sseServer.ts talks over an IPC channel: start it with child_process.fork (streaming.ts does)');
  const scripts = new Map<string, Script>();
  process.on('message', (message: ToChild) => {
    if (message.type === 'script') {
      scripts.set(message.question, message);
      send({ type: 'scripted', question: message.question });
    } else send({ type: 'clock', id: message.id, now: epochNow() });
  });

  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as ChatBody;
      const last = body.messages?.at(-1);
      const script = last?.role === 'user' ? scripts.get(last.content) : undefined;
      // Anything not scripted (the session title the agent asks for after a reply) gets a short, instant answer.
      const played = script
        ? answer(res, body, script.tokens, script.delayMs).then((writes) => send({ type: 'written', question: script.question, writes }))
        : answer(res, body, ['基准', '测试'], 0);
      played.catch(() => res.destroy());
    });
  });
  server.listen(0, '127.0.0.1', () => send({ type: 'listening', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` }));
  process.on('disconnect', () => process.exit(0));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) serve();

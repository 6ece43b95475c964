/**
 * One 2,000-token answer (1 token per SSE chunk, 2 ms apart) read (a) straight from the model
 * provider and (b) end to end: POST → job → worker → event store → gateway → socket, until the
 * socket's message_end. Prints both times, the ratio end-to-end/direct (target ≤ 1.10×) and the
 * latency each token gains on the way: when it reached the socket minus when the model server
 * wrote it (target p95 ≤ 25 ms; the worker's 16 ms flush interval bounds what it adds).
 * Times are medians of a few runs, after a short warm-up of both paths; the per-token percentiles are
 * taken over every token of those runs.
 * Run: npx tsx tests/bench/streaming.ts
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createModelProvider } from '@scriptorium/infra/model/index';
import { signUp, startTestApp, type TestApp } from '../support/app.ts';
import { mockTokens } from '../support/mockOpenAI.ts';
import { openSocket, type TestSocket } from '../support/socket.ts';
import { epochNow, type FromChild, type Script, type ToChild } from './sseServer.ts';
import { sized } from './short.ts';

const TOKENS = sized(2_000, 200);
const WARM_UP_TOKENS = sized(200, 20);
const DELAY_MS = 2;
const RUNS = sized(3, 1);
export const CLIENT_ID = 'bench-streaming';

const PARAGRAPH =
  '事件溯源把每一次变化都记录为不可变的事件，读模型可以随时从日志重建。 Event sourcing keeps every change as an immutable fact, and projections rebuild the present from it. ';

export function answerTokens(count: number): string[] {
  const tokens = mockTokens(PARAGRAPH.repeat(Math.ceil(count / mockTokens(PARAGRAPH).length) + 1));
  return tokens.slice(0, count);
}

/** The model server's process, with its clock mapped onto ours. */
export class ModelServer {
  private readonly waiters = new Map<string, (message: FromChild) => void>();
  /** Child clock minus ours, from the round trip with the smallest delay. */
  private offset = 0;

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {
    child.on('message', (message: FromChild) => {
      const key = message.type === 'clock' ? `clock:${message.id}` : message.type === 'listening' ? 'listening' : `${message.type}:${message.question}`;
      this.waiters.get(key)?.(message);
      this.waiters.delete(key);
    });
  }

  static async start(): Promise<ModelServer> {
    const child = fork(fileURLToPath(new URL('./sseServer.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    const listening = await new Promise<FromChild>((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`the model server exited with ${code} before listening`)));
    });
    if (listening.type !== 'listening') throw new Error(`unexpected first message from the model server: ${JSON.stringify(listening)}`);
    const server = new ModelServer(child, listening.url);
    await server.calibrate();
    return server;
  }

  private ask(message: ToChild, key: string): Promise<FromChild> {
    return new Promise((resolve) => {
      this.waiters.set(key, resolve);
      this.child.send(message);
    });
  }

  private async calibrate(): Promise<void> {
    let best = Number.POSITIVE_INFINITY;
    for (let id = 0; id < 50; id++) {
      const sent = epochNow();
      const reply = await this.ask({ type: 'clock', id }, `clock:${id}`);
      const received = epochNow();
      if (reply.type === 'clock' && received - sent < best) {
        best = received - sent;
        this.offset = reply.now - (sent + received) / 2;
      }
    }
  }

  script(script: Script): Promise<FromChild> {
    return this.ask({ type: 'script', ...script }, `scripted:${script.question}`);
  }

  /** When each content chunk of the scripted answer was written, on our clock. */
  written(question: string): Promise<number[]> {
    return new Promise((resolve) => {
      this.waiters.set(`written:${question}`, (message) => resolve(message.type === 'written' ? message.writes.map((at) => at - this.offset) : []));
    });
  }

  close(): void {
    this.child.disconnect();
  }
}

interface Arrival {
  at: number;
  text: string;
}

export interface Sample {
  ms: number;
  /** Per token: arrival of the piece that completed it minus the model server's write. */
  latencies: number[];
  /** When each text event of the reply reached the socket (end to end only). */
  events?: number[];
}

function tokenLatencies(tokens: string[], writes: number[], arrivals: Arrival[]): number[] {
  const received = arrivals.map((arrival) => arrival.text).join('');
  if (received !== tokens.join('')) throw new Error(`received ${received.length} characters that differ from the ${tokens.join('').length} sent`);
  if (writes.length !== tokens.length) throw new Error(`the model server reported ${writes.length} writes for ${tokens.length} tokens`);
  const latencies: number[] = [];
  let piece = 0;
  let receivedUpTo = arrivals[0]?.text.length ?? 0;
  let tokenEnd = 0;
  for (const [i, token] of tokens.entries()) {
    tokenEnd += token.length;
    while (receivedUpTo < tokenEnd) receivedUpTo += arrivals[++piece]!.text.length;
    latencies.push(arrivals[piece]!.at - writes[i]!);
  }
  return latencies;
}

export async function direct(server: ModelServer, question: string, tokens: string[]): Promise<Sample> {
  const provider = createModelProvider({ LLM_BASE_URL: server.url, LLM_MODEL: 'bench' });
  await server.script({ question, tokens, delayMs: DELAY_MS });
  const written = server.written(question);
  const arrivals: Arrival[] = [];
  const started = epochNow();
  for await (const delta of provider.stream({ messages: [{ role: 'user', content: question }] })) {
    if (delta.type === 'text') arrivals.push({ at: epochNow(), text: delta.text });
  }
  const ms = epochNow() - started;
  return { ms, latencies: tokenLatencies(tokens, await written, arrivals) };
}

export async function endToEnd(user: StreamingUser, socket: TestSocket, server: ModelServer, question: string, tokens: string[], delayMs = DELAY_MS): Promise<Sample> {
  const created = await user.request('POST', '/backend/conversation/sessions', { client_id: CLIENT_ID });
  const sessionId = created.body.session_id as string;
  socket.send({ session_id: sessionId, agent: 'none', payload: { content_type: 'subscribe' } });
  await socket.next((message) => message.type === 'subscribed' && message.session_id === sessionId);
  await server.script({ question, tokens, delayMs });
  const written = server.written(question);

  // `next` runs its predicate once per message as it arrives, so the predicate doubles as an arrival clock.
  const arrivals: Array<{ at: number; message: any }> = [];
  const ended = socket.next((message) => {
    arrivals.push({ at: epochNow(), message });
    return message.type === 'message' && message.session_id === sessionId && message.content.content_type === 'message_end';
  }, 60_000);
  const started = epochNow();
  const sent = await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: sessionId, text: question });
  if (sent.status !== 200) throw new Error(`poe/start: ${sent.status} ${JSON.stringify(sent.body)}`);
  const end = await ended;
  const ms = arrivals.find((arrival) => arrival.message === end)!.at - started;
  if (end.content.outcome !== 'completed') throw new Error(`the reply ended ${end.content.outcome}: ${end.content.error_message ?? ''}`);
  const chunks = arrivals
    .filter(({ message }) => message.type === 'message' && message.content.message_id === sent.body.reply_id && message.content.content_type === 'chat_chunk')
    .map(({ at, message }) => ({ at, text: String(message.content.content) }));
  return { ms, latencies: tokenLatencies(tokens, await written, chunks), events: chunks.map((chunk) => chunk.at) };
}

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
};
const median = (values: number[]): number => percentile(values, 50);
export const ms = (value: number, digits = 0) => `${value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })} ms`;

function summary(samples: Sample[]) {
  return {
    ms: median(samples.map((sample) => sample.ms)),
    // Over every token's own difference, all runs pooled: not a median of per-run percentiles.
    p50: percentile(samples.flatMap((sample) => sample.latencies), 50),
    p95: percentile(samples.flatMap((sample) => sample.latencies), 95),
    runs: samples.map((sample) => Math.round(sample.ms).toLocaleString('en-US')).join(', '),
  };
}

export type StreamingUser = Awaited<ReturnType<typeof signUp>>;

/** A model server in its own process and the app talking to it, with one signed-in socket. */
export async function withStreamingApp(username: string, work: (server: ModelServer, user: StreamingUser, socket: TestSocket) => Promise<void>): Promise<void> {
  const server = await ModelServer.start();
  let app: TestApp | undefined;
  let socket: TestSocket | undefined;
  try {
    app = await startTestApp({ LLM_BASE_URL: server.url, LLM_MODEL: 'bench' });
    const user = await signUp(app.url, username);
    socket = await openSocket(app.url, CLIENT_ID, user.token);
    await work(server, user, socket);
  } finally {
    socket?.close();
    await app?.stop();
    server.close();
  }
}

export const question = (label: string, count: number) => `基准测试 ${label}：请流式输出 ${count} 个词元。`;

export function run(): Promise<void> {
  return withStreamingApp('bench_streaming', async (server, user, socket) => {
    const tokens = answerTokens(TOKENS);
    await direct(server, question('warm-up direct', WARM_UP_TOKENS), answerTokens(WARM_UP_TOKENS));
    await endToEnd(user, socket, server, question('warm-up end-to-end', WARM_UP_TOKENS), answerTokens(WARM_UP_TOKENS));
    const directSamples: Sample[] = [];
    const endToEndSamples: Sample[] = [];
    for (let i = 1; i <= RUNS; i++) {
      // Interleaved, so that whatever the machine does meanwhile weighs on both paths alike.
      directSamples.push(await direct(server, question(`direct ${i}`, TOKENS), tokens));
      endToEndSamples.push(await endToEnd(user, socket, server, question(`end-to-end ${i}`, TOKENS), tokens));
    }

    const a = summary(directSamples);
    const b = summary(endToEndSamples);
    console.log(`streaming: ${TOKENS.toLocaleString('en-US')} tokens, 1 per chunk, ${DELAY_MS} ms apart, from a model server in its own process; median of ${RUNS} runs`);
    console.log(`  (a) direct from the model provider:        ${ms(a.ms)}  (runs ${a.runs} ms; per-token latency p50 ${ms(a.p50, 1)}, p95 ${ms(a.p95, 1)})`);
    console.log(`  (b) end to end, POST → socket message_end: ${ms(b.ms)}  (runs ${b.runs} ms)`);
    console.log(`  ratio end-to-end/direct:                   ${(b.ms / a.ms).toFixed(2)}× (target ≤ 1.10×)`);
    console.log(`  added latency per token, model write → socket: p50 ${ms(b.p50, 1)}, p95 ${ms(b.p95, 1)} (target p95 ≤ 25 ms)`);
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await run();

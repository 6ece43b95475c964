/**
 * Socket fan-out: 1,000 sockets on 100 sessions (10 per session, sessions owned by 20 users), one
 * mock reply driven in every session at once. Prints the messages/s delivered across all sockets
 * and checks that every socket received every message of its session exactly once, in order and
 * byte for byte as the log maps it. The baseline is the same drive with 1 socket per session on
 * other sessions of the same users, so the ratio of the two drive times is what fan-out costs
 * (1.0× would mean ten times the sockets cost nothing).
 *
 * Then at saturation: chunk events for all 100 sessions are appended to the log as fast as it takes
 * them, and the messages/s reaching the 1,000 sockets is set against a bare `ws` server in this
 * process broadcasting the same JSON to 1,000 sockets in the same 100 rooms (target ≥ 0.5×), the
 * median of SATURATION_ROUNDS bursts on each side. Clients
 * on both sides parse every message, as the browser does, and run in processes of their own
 * (`fanoutClients.ts`, CLIENT_PROCESSES of them), so the servers measured have this process to
 * themselves.
 * Run: npx tsx tests/bench/fanout.ts
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { conversationStream } from '@scriptorium/domain/conversation/conversation';
import { toWire } from '@scriptorium/domain/conversation/wire';
import { signUp, startTestApp, type TestApp } from '../support/app.ts';
import { owned } from '../support/children.ts';
import { startMockOpenAI, type ChatBody } from '../support/mockOpenAI.ts';
import { WebSocketServer, type WebSocket } from 'ws';
import { sized } from './short.ts';
import type { Received, Request, Slot } from './fanoutClients.ts';

export interface FanoutOptions {
  sockets?: number;
  sessions?: number;
  users?: number;
}

const QUESTION = '扇出基准测试：请简要介绍事件溯源。';
const REPLY = '事件溯源把每一次变化都记录为不可变的事件，读模型可以随时从日志重建。Event sourcing keeps every change as an immutable fact. '.repeat(12);
/** argon2id at its default cost takes 64 MiB and a thread-pool thread per hash: a few at a time is all that helps. */
const REGISTRATION_CONCURRENCY = 4;
/** A bound to fail by, not a measure: on a loaded machine (load 27 on two cores) a drive of main took over 45 s. */
const DRIVE_TIMEOUT_MS = 120_000;
/** Processes the sockets' clients run in: the machine's two cores are shared with the servers measured. */
const CLIENT_PROCESSES = sized(4, 2);
/** Chunk events per session in the saturation run. */
const SATURATION_CHUNKS = 40;
/**
 * Bursts timed on each side: one burst is a few seconds, and a spell of the machine's load fell on one
 * side or the other (a single pair at load 20 gave 1.72×, the next 0.40×); the median of each is compared.
 */
const SATURATION_ROUNDS = sized(3, 1);

type User = Awaited<ReturnType<typeof signUp>>;
interface Session {
  user: User;
  sessionId: string;
}
interface DriveResult extends Received {
  sockets: number;
  ms: number;
}

/**
 * The client processes, each holding a contiguous share of the sockets (so each has whole sessions).
 * `ask` sends a request to every process (`each` makes the request of process i) and resolves when
 * all have answered.
 */
class Clients {
  private readonly children: ChildProcess[];
  private readonly pending = new Map<number, { resolve: (answer: any) => void; reject: (error: Error) => void }>();
  private next = 0;
  sockets = 0;

  constructor(count: number) {
    this.children = Array.from({ length: count }, () => {
      const child = owned(fork(fileURLToPath(new URL('./fanoutClients.ts', import.meta.url)), { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
      child.on('message', (answer: { id: number; error?: string }) => {
        const waiting = this.pending.get(answer.id);
        this.pending.delete(answer.id);
        if (answer.error !== undefined) waiting?.reject(new Error(`fan-out client: ${answer.error}`));
        else waiting?.resolve(answer);
      });
      child.once('exit', (code) => {
        for (const [, waiting] of this.pending) waiting.reject(new Error(`a fan-out client process exited with ${code}`));
        this.pending.clear();
      });
      return child;
    });
  }

  /** `items` cut into one contiguous share per process. */
  shares<T>(items: T[]): T[][] {
    const size = Math.ceil(items.length / this.children.length);
    return this.children.map((_, i) => items.slice(i * size, (i + 1) * size));
  }

  ask<A>(each: (index: number) => Request): Promise<A[]> {
    return Promise.all(
      this.children.map(
        (child, index) =>
          new Promise<A>((resolve, reject) => {
            const id = this.next++;
            this.pending.set(id, { resolve, reject });
            child.send({ ...each(index), id });
          }),
      ),
    );
  }

  async stop(): Promise<void> {
    await Promise.all(this.children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : (child.once('exit', resolve), child.disconnect())))));
  }
}

async function pool<T, R>(items: T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/** The soft limit on open files, or undefined where /proc does not say (not Linux). */
function openFileLimit(): number | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((row) => row.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    return soft === undefined || soft === 'unlimited' ? Number.POSITIVE_INFINITY : Number(soft);
  } catch {
    return undefined;
  }
}

async function createSessions(users: User[], count: number): Promise<Session[]> {
  return pool(Array.from({ length: count }, (_, i) => users[i % users.length]!), 10, async (user) => {
    const created = await user.request('POST', '/backend/conversation/sessions', { client_id: 'bench-fanout' });
    if (created.status !== 200) throw new Error(`create session: ${created.status} ${JSON.stringify(created.body)}`);
    return { user, sessionId: created.body.session_id as string };
  });
}

/** Opens `perSession` subscribed sockets on each session, spread over the client processes. */
async function subscribe(app: TestApp, clients: Clients, sessions: Session[], perSession: number, label: string): Promise<void> {
  const slots: Slot[] = sessions.flatMap((session) => Array.from({ length: perSession }, (_, k) => ({ clientId: `fan-${label}-${session.sessionId.slice(0, 8)}-${k}`, token: session.user.token, sessionId: session.sessionId })));
  const shares = clients.shares(slots);
  await clients.ask((index) => ({ op: 'open', url: app.url, slots: shares[index]! }));
  clients.sockets = slots.length;
}

async function drive(app: TestApp, clients: Clients, sessions: Session[]): Promise<DriveResult> {
  const started = performance.now();
  const ends = clients.ask<{ outcomes: string[] }>(() => ({ op: 'ends', timeoutMs: DRIVE_TIMEOUT_MS }));
  await Promise.all(
    sessions.map(async ({ user, sessionId }) => {
      const sent = await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: sessionId, text: QUESTION });
      if (sent.status !== 200) throw new Error(`poe/start: ${sent.status} ${JSON.stringify(sent.body)}`);
    }),
  );
  const outcomes = (await ends).flatMap((answer) => answer.outcomes);
  const ms = performance.now() - started;
  const failed = outcomes.filter((outcome) => outcome !== 'completed');
  if (failed.length > 0) throw new Error(`${failed.length} replies did not complete, e.g. ${failed[0]}`);

  const expected: Record<string, Array<[number, string]>> = {};
  for (const { sessionId } of sessions) {
    const wires: Array<[number, string]> = [];
    for (const event of await app.services.events.readStream(conversationStream(sessionId))) {
      const wire = toWire(event);
      if (wire?.type === 'message') wires.push([wire.position, JSON.stringify(wire)]);
    }
    expected[sessionId] = wires;
  }
  const received = await clients.ask<Received>(() => ({ op: 'verify', expected, settleMs: 5_000 }));
  const result: DriveResult = { sockets: clients.sockets, ms, delivered: 0, metadataUpdates: 0, missing: 0, duplicated: 0, outOfOrder: 0, altered: 0 };
  for (const part of received) for (const key of ['delivered', 'metadataUpdates', 'missing', 'duplicated', 'outOfOrder', 'altered'] as const) result[key] += part[key];
  return result;
}

const until = async (done: () => boolean, what: string): Promise<void> => {
  const deadline = performance.now() + DRIVE_TIMEOUT_MS;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
};

/** Appends a reply's worth of chunks to every session at once and times until every socket has them all; returns the JSON each session was sent. */
async function saturate(app: TestApp, clients: Clients, sessions: Session[]): Promise<{ ms: number; delivered: number; sent: Map<string, string[]> }> {
  const replies = new Map(sessions.map(({ sessionId }) => [sessionId, randomUUID()]));
  const started = performance.now();
  const received = clients.ask(() => ({ op: 'chunks', replies: Object.fromEntries(replies), count: SATURATION_CHUNKS, timeoutMs: DRIVE_TIMEOUT_MS }));
  await Promise.all(
    sessions.map(({ user, sessionId }) =>
      app.services.events.appendToStream(
        conversationStream(sessionId),
        Array.from({ length: SATURATION_CHUNKS }, (_, seq) => ({
          id: randomUUID(),
          type: 'MessageChunksAppended',
          data: { sessionId, messageId: replies.get(sessionId)!, agent: 'poe_llm', contentType: 'chat_chunk', seq, text: REPLY.slice(seq * 8, seq * 8 + 64) },
          metadata: { at: new Date().toISOString(), userId: user.userId, correlationId: replies.get(sessionId)! },
        })),
      ),
    ),
  );
  await received;
  const ms = performance.now() - started;
  const sent = new Map<string, string[]>();
  for (const { sessionId } of sessions) {
    const events = await app.services.events.readStream(conversationStream(sessionId));
    sent.set(sessionId, events.filter((event) => (event.data as { messageId?: string }).messageId === replies.get(sessionId)).map((event) => JSON.stringify(toWire(event))));
  }
  return { ms, delivered: clients.sockets * SATURATION_CHUNKS, sent };
}

/** The same messages to the same rooms from a bare `ws` server that does nothing else, `rounds` bursts: the ceiling for this process. */
async function bareBroadcast(clients: Clients, sent: Map<string, string[]>, perSession: number, rounds: number): Promise<Array<{ ms: number; delivered: number }>> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const rooms = new Map<string, Set<WebSocket>>();
  server.on('connection', (socket, request) => {
    const room = new URL(request.url!, 'http://bench').searchParams.get('room')!;
    if (!rooms.has(room)) rooms.set(room, new Set());
    rooms.get(room)!.add(socket);
  });
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const slots = [...sent.keys()].flatMap((room) => Array.from({ length: perSession }, () => room));
  const shares = clients.shares(slots);
  try {
    await clients.ask((index) => ({ op: 'openBare', url, rooms: shares[index]! }));
    await until(() => [...rooms.values()].reduce((sum, room) => sum + room.size, 0) === slots.length, 'the bare server to see every client');
    const bursts: Array<{ ms: number; delivered: number }> = [];
    for (let round = 1; round <= rounds; round++) {
      const started = performance.now();
      // Each client counts all it received: after this burst, `round` bursts' worth.
      const received = clients.ask(() => ({ op: 'bareCount', count: round * SATURATION_CHUNKS, timeoutMs: DRIVE_TIMEOUT_MS }));
      // Interleaved across rooms, as the log interleaves sessions.
      for (let i = 0; i < SATURATION_CHUNKS; i++) for (const [room, messages] of sent) for (const socket of rooms.get(room)!) socket.send(messages[i]!);
      await received;
      bursts.push({ ms: performance.now() - started, delivered: slots.length * SATURATION_CHUNKS });
    }
    return bursts;
  } finally {
    await clients.ask(() => ({ op: 'close' }));
    await new Promise((resolve) => server.close(resolve));
  }
}

function report(label: string, result: DriveResult): void {
  const rate = Math.round(result.delivered / (result.ms / 1000)).toLocaleString('en-US');
  const problems = [
    result.missing > 0 && `${result.missing} missing`,
    result.duplicated > 0 && `${result.duplicated} duplicated`,
    result.outOfOrder > 0 && `${result.outOfOrder} out of order`,
    result.altered > 0 && `${result.altered} differing from the log`,
  ].filter(Boolean);
  console.log(
    `  ${label}: ${result.delivered.toLocaleString('en-US')} messages in ${Math.round(result.ms).toLocaleString('en-US')} ms = ${rate} messages/s` +
      ` (+${result.metadataUpdates.toLocaleString('en-US')} metadata_update); ${problems.length === 0 ? 'none missing, none doubled, all in order' : problems.join(', ')}`,
  );
}

export async function run(options: FanoutOptions = {}): Promise<void> {
  const sockets = options.sockets ?? sized(1_000, 40);
  const sessionCount = options.sessions ?? sized(100, 8);
  const userCount = options.users ?? sized(20, 4);
  const perSession = Math.ceil(sockets / sessionCount);
  // Each socket is a descriptor in this process (the server's end), the baseline's sockets included;
  // its client's end is in a client process, which holds a share of them.
  const needed = sessionCount * perSession + sessionCount + 200;
  const limit = openFileLimit();
  console.log(`fanout: ${sessionCount * perSession} sockets on ${sessionCount} sessions (${perSession} per session) of ${userCount} users, one mock reply per session; clients in ${CLIENT_PROCESSES} processes of their own`);
  if (limit !== undefined && limit < needed) {
    console.log(`  skipped: this needs about ${needed} open files and the limit is ${limit}; raise it first (ulimit -n ${Math.max(4096, needed)}) and run again`);
    return;
  }

  const mock = await startMockOpenAI({
    scenario: 'normal',
    // Several tokens per SSE chunk keep the in-process mock's own writes from dominating the drive.
    tokensPerChunk: 8,
    // The agent's follow-up call (the session title) gets a short answer, as a real model would give.
    reply: (body: ChatBody) => (body.messages?.at(-1)?.content === QUESTION ? REPLY : '扇出基准'),
  });
  let app: TestApp | undefined;
  const clients = new Clients(CLIENT_PROCESSES);
  try {
    app = await startTestApp({ LLM_BASE_URL: mock.url, LLM_MODEL: 'normal' });
    const registering = performance.now();
    const users = await pool(Array.from({ length: userCount }, (_, i) => `bench_fan_${i}`), REGISTRATION_CONCURRENCY, (name) => signUp(app!.url, name));
    console.log(`  setup: ${userCount} users registered and logged in in ${Math.round(performance.now() - registering).toLocaleString('en-US')} ms`);

    const baselineSessions = await createSessions(users, sessionCount);
    await subscribe(app, clients, baselineSessions, 1, 'base');
    const baseline = await drive(app, clients, baselineSessions);
    report(`baseline, ${baseline.sockets} sockets`, baseline);
    await clients.ask(() => ({ op: 'close' }));

    const sessions = await createSessions(users, sessionCount);
    const connecting = performance.now();
    await subscribe(app, clients, sessions, perSession, 'fan');
    console.log(`  ${clients.sockets} sockets connected and subscribed in ${Math.round(performance.now() - connecting).toLocaleString('en-US')} ms`);
    const fanned = await drive(app, clients, sessions);
    report(`fan-out,  ${fanned.sockets} sockets`, fanned);
    console.log(`  drive time fan-out/baseline: ${(fanned.ms / baseline.ms).toFixed(2)}× for ${perSession}× the sockets (1.0× would mean fan-out is free)`);

    const saturated: Array<{ ms: number; delivered: number }> = [];
    let sent = new Map<string, string[]>();
    for (let round = 0; round < SATURATION_ROUNDS; round++) {
      const burst = await saturate(app, clients, sessions);
      saturated.push(burst);
      sent = burst.sent;
    }
    await clients.ask(() => ({ op: 'close' }));
    const bare = await bareBroadcast(clients, sent, perSession, SATURATION_ROUNDS);
    const perSecond = (run: { ms: number; delivered: number }) => run.delivered / (run.ms / 1000);
    const median = (runs: Array<{ ms: number; delivered: number }>) => [...runs].sort((a, b) => perSecond(a) - perSecond(b))[Math.floor(runs.length / 2)]!;
    const line = (runs: Array<{ ms: number; delivered: number }>) => {
      const run = median(runs);
      const all = runs.length > 1 ? ` (median of ${runs.length}: ${runs.map((each) => Math.round(perSecond(each)).toLocaleString('en-US')).join(', ')})` : '';
      return `${run.delivered.toLocaleString('en-US')} messages in ${Math.round(run.ms).toLocaleString('en-US')} ms = ${Math.round(perSecond(run)).toLocaleString('en-US')} messages/s${all}`;
    };
    console.log(`  saturation, ${SATURATION_CHUNKS} chunks per session appended at once, ${SATURATION_ROUNDS} bursts each side:`);
    console.log(`    gateway (log → subscription → sockets): ${line(saturated)}`);
    console.log(`    bare ws broadcast of the same JSON:     ${line(bare)}`);
    console.log(`    ratio gateway/bare: ${(perSecond(median(saturated)) / perSecond(median(bare))).toFixed(2)}× (target ≥ 0.5×)`);
  } finally {
    await clients.stop();
    await app?.stop();
    await mock.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await run();

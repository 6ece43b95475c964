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
 * process broadcasting the same JSON to 1,000 sockets in the same 100 rooms (target ≥ 0.5×). Clients
 * on both sides parse every message, as the browser does.
 * Run: npx tsx tests/bench/fanout.ts
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { conversationStream } from '@scriptorium/domain/conversation/conversation';
import { toWire } from '@scriptorium/domain/conversation/wire';
import { signUp, startTestApp, type TestApp } from '../support/app.ts';
import { startMockOpenAI, type ChatBody } from '../support/mockOpenAI.ts';
import { openSocket, type TestSocket } from '../support/socket.ts';
import WebSocket, { WebSocketServer } from 'ws';
import { sized } from './short.ts';

export interface FanoutOptions {
  sockets?: number;
  sessions?: number;
  users?: number;
}

const QUESTION = '扇出基准测试：请简要介绍事件溯源。';
const REPLY = '事件溯源把每一次变化都记录为不可变的事件，读模型可以随时从日志重建。Event sourcing keeps every change as an immutable fact. '.repeat(12);
/** argon2id at its default cost takes 64 MiB and a thread-pool thread per hash: a few at a time is all that helps. */
const REGISTRATION_CONCURRENCY = 4;
const CONNECT_CONCURRENCY = 50;
const DRIVE_TIMEOUT_MS = 45_000;
/** Chunk events per session in the saturation run. */
const SATURATION_CHUNKS = 40;

type User = Awaited<ReturnType<typeof signUp>>;
interface Session {
  user: User;
  sessionId: string;
}
interface Subscriber {
  session: Session;
  socket: TestSocket;
  /** What the server said it had sent up to when the subscription began. */
  from: number;
}
interface DriveResult {
  sockets: number;
  ms: number;
  delivered: number;
  metadataUpdates: number;
  missing: number;
  duplicated: number;
  outOfOrder: number;
  altered: number;
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

async function subscribe(app: TestApp, sessions: Session[], perSession: number, label: string): Promise<Subscriber[]> {
  const slots = sessions.flatMap((session) => Array.from({ length: perSession }, (_, k) => ({ session, clientId: `fan-${label}-${session.sessionId.slice(0, 8)}-${k}` })));
  return pool(slots, CONNECT_CONCURRENCY, async ({ session, clientId }) => {
    const socket = await openSocket(app.url, clientId, session.user.token);
    socket.send({ session_id: session.sessionId, agent: 'none', payload: { content_type: 'subscribe' } });
    const subscribed = await socket.next((message) => message.type === 'subscribed' && message.session_id === session.sessionId);
    return { session, socket, from: subscribed.position as number };
  });
}

const isEnd = (sessionId: string) => (message: any) => message.type === 'message' && message.session_id === sessionId && message.content.content_type === 'message_end';

async function drive(app: TestApp, sessions: Session[], subscribers: Subscriber[]): Promise<DriveResult> {
  const started = performance.now();
  const ends = subscribers.map((subscriber) => subscriber.socket.next(isEnd(subscriber.session.sessionId), DRIVE_TIMEOUT_MS));
  await Promise.all(
    sessions.map(async ({ user, sessionId }) => {
      const sent = await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: sessionId, text: QUESTION });
      if (sent.status !== 200) throw new Error(`poe/start: ${sent.status} ${JSON.stringify(sent.body)}`);
    }),
  );
  const endings = await Promise.all(ends);
  const ms = performance.now() - started;
  const failed = endings.filter((end) => end.content.outcome !== 'completed');
  if (failed.length > 0) throw new Error(`${failed.length} replies did not complete, e.g. ${JSON.stringify(failed[0].content)}`);

  const expected = new Map<string, Map<number, string>>();
  for (const { sessionId } of sessions) {
    const wires = new Map<number, string>();
    for (const event of await app.services.events.readStream(conversationStream(sessionId))) {
      const wire = toWire(event);
      if (wire?.type === 'message') wires.set(wire.position, JSON.stringify(wire));
    }
    expected.set(sessionId, wires);
  }
  // What the log holds after message_end (the status change appended with it) may still be in flight.
  const owed = (subscriber: Subscriber) => [...expected.get(subscriber.session.sessionId)!.keys()].filter((position) => position > subscriber.from).length;
  const got = (subscriber: Subscriber) => subscriber.socket.received.filter((message) => message.type === 'message' && message.session_id === subscriber.session.sessionId);
  const settleBy = performance.now() + 5_000;
  while (performance.now() < settleBy && subscribers.some((subscriber) => got(subscriber).length < owed(subscriber))) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  const result: DriveResult = { sockets: subscribers.length, ms, delivered: 0, metadataUpdates: 0, missing: 0, duplicated: 0, outOfOrder: 0, altered: 0 };
  for (const subscriber of subscribers) {
    const wires = expected.get(subscriber.session.sessionId)!;
    const messages = got(subscriber);
    const positions = messages.map((message) => message.position as number);
    const unique = new Set(positions);
    result.delivered += messages.length;
    result.metadataUpdates += subscriber.socket.received.filter((message) => message.type === 'metadata_update').length;
    result.duplicated += positions.length - unique.size;
    result.outOfOrder += positions.filter((position, i) => i > 0 && position <= positions[i - 1]!).length;
    result.missing += [...wires.keys()].filter((position) => position > subscriber.from && !unique.has(position)).length;
    result.altered += messages.filter((message) => wires.get(message.position) !== JSON.stringify(message)).length;
  }
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
async function saturate(app: TestApp, sessions: Session[], subscribers: Subscriber[]): Promise<{ ms: number; delivered: number; sent: Map<string, string[]> }> {
  const replies = new Map(sessions.map(({ sessionId }) => [sessionId, randomUUID()]));
  const mine = (subscriber: Subscriber) => (message: any) => message.type === 'message' && message.content.message_id === replies.get(subscriber.session.sessionId);
  const started = performance.now();
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
  await until(() => subscribers.every((subscriber) => subscriber.socket.received.filter(mine(subscriber)).length >= SATURATION_CHUNKS), 'the saturation chunks');
  const ms = performance.now() - started;
  const sent = new Map<string, string[]>();
  for (const { sessionId } of sessions) {
    const events = await app.services.events.readStream(conversationStream(sessionId));
    sent.set(sessionId, events.filter((event) => (event.data as { messageId?: string }).messageId === replies.get(sessionId)).map((event) => JSON.stringify(toWire(event))));
  }
  return { ms, delivered: subscribers.length * SATURATION_CHUNKS, sent };
}

/** The same messages to the same rooms from a bare `ws` server that does nothing else: the ceiling for this process. */
async function bareBroadcast(sent: Map<string, string[]>, perSession: number): Promise<{ ms: number; delivered: number }> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const rooms = new Map<string, Set<WebSocket>>();
  server.on('connection', (socket, request) => {
    const room = new URL(request.url!, 'http://bench').searchParams.get('room')!;
    if (!rooms.has(room)) rooms.set(room, new Set());
    rooms.get(room)!.add(socket);
  });
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  let received = 0;
  const slots = [...sent.keys()].flatMap((room) => Array.from({ length: perSession }, () => room));
  const clients = await pool(slots, CONNECT_CONCURRENCY, async (room) => {
    const client = new WebSocket(`${url}?room=${room}`);
    client.on('message', (data) => {
      JSON.parse(data.toString());
      received += 1;
    });
    await new Promise((resolve, reject) => client.once('open', resolve).once('error', reject));
    return client;
  });
  try {
    await until(() => [...rooms.values()].reduce((sum, room) => sum + room.size, 0) === clients.length, 'the bare server to see every client');
    const total = clients.length * SATURATION_CHUNKS;
    const started = performance.now();
    // Interleaved across rooms, as the log interleaves sessions.
    for (let i = 0; i < SATURATION_CHUNKS; i++) for (const [room, messages] of sent) for (const socket of rooms.get(room)!) socket.send(messages[i]!);
    await until(() => received >= total, 'the bare broadcast');
    return { ms: performance.now() - started, delivered: total };
  } finally {
    for (const client of clients) client.terminate();
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
  // Each socket is two descriptors in this process (client and server end), the baseline's sockets included.
  const needed = 2 * (sessionCount * perSession + sessionCount) + 200;
  const limit = openFileLimit();
  console.log(`fanout: ${sessionCount * perSession} sockets on ${sessionCount} sessions (${perSession} per session) of ${userCount} users, one mock reply per session`);
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
  const opened: Subscriber[] = [];
  try {
    app = await startTestApp({ LLM_BASE_URL: mock.url, LLM_MODEL: 'normal' });
    const registering = performance.now();
    const users = await pool(Array.from({ length: userCount }, (_, i) => `bench_fan_${i}`), REGISTRATION_CONCURRENCY, (name) => signUp(app!.url, name));
    console.log(`  setup: ${userCount} users registered and logged in in ${Math.round(performance.now() - registering).toLocaleString('en-US')} ms`);

    const baselineSessions = await createSessions(users, sessionCount);
    const baselineSubscribers = await subscribe(app, baselineSessions, 1, 'base');
    opened.push(...baselineSubscribers);
    const baseline = await drive(app, baselineSessions, baselineSubscribers);
    report(`baseline, ${baseline.sockets} sockets`, baseline);
    for (const subscriber of baselineSubscribers) subscriber.socket.close();

    const sessions = await createSessions(users, sessionCount);
    const connecting = performance.now();
    const subscribers = await subscribe(app, sessions, perSession, 'fan');
    opened.push(...subscribers);
    console.log(`  ${subscribers.length} sockets connected and subscribed in ${Math.round(performance.now() - connecting).toLocaleString('en-US')} ms`);
    const fanned = await drive(app, sessions, subscribers);
    report(`fan-out,  ${fanned.sockets} sockets`, fanned);
    console.log(`  drive time fan-out/baseline: ${(fanned.ms / baseline.ms).toFixed(2)}× for ${perSession}× the sockets (1.0× would mean fan-out is free)`);

    const saturated = await saturate(app, sessions, subscribers);
    const bare = await bareBroadcast(saturated.sent, perSession);
    const perSecond = (run: { ms: number; delivered: number }) => run.delivered / (run.ms / 1000);
    const line = (run: { ms: number; delivered: number }) =>
      `${run.delivered.toLocaleString('en-US')} messages in ${Math.round(run.ms).toLocaleString('en-US')} ms = ${Math.round(perSecond(run)).toLocaleString('en-US')} messages/s`;
    console.log(`  saturation, ${SATURATION_CHUNKS} chunks per session appended at once:`);
    console.log(`    gateway (log → subscription → sockets): ${line(saturated)}`);
    console.log(`    bare ws broadcast of the same JSON:     ${line(bare)}`);
    console.log(`    ratio gateway/bare: ${(perSecond(saturated) / perSecond(bare)).toFixed(2)}× (target ≥ 0.5×)`);
  } finally {
    for (const subscriber of opened) subscriber.socket.close();
    await app?.stop();
    await mock.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await run();

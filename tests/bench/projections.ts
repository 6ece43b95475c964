/**
 * Projection rebuild rate: a realistic 20k-event log (registrations, sessions, questions, streamed
 * replies in chunks, token usage, generated titles) is written to a temporary SQLite event store
 * with the deciders and the shapes the product writes; then every projection is rebuilt into a
 * fresh SQLite read store with `ProjectionRunner.catchUp`. The baseline is a plain `readAll` scan
 * of the same log in the runner's page size, so the ratio says how much of the scan speed the
 * projections keep. Median of 7 runs, the read store reset between them: the first runs include V8
 * compiling the projections, which a rebuild of a real log would not notice. The ratio is printed
 * twice: of the two medians, and as the median of each run's scan over the rebuild right after it,
 * which a machine whose speed drifts between runs (ours: the same scan in 106–205 ms within minutes)
 * moves less. Both sides also print the
 * CPU time this process spent, the read store's writer thread included (it commits a rebuild's
 * batches while the next is applied, so a rebuild's CPU time is more than its wall-clock time there):
 * on a machine others load, the CPU ratio moves less than the wall-clock one.
 * Run: npx tsx tests/bench/projections.ts
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { CommandMetadata, DomainEvent } from '@scriptorium/infra/eventsourcing/decider';
import { deterministicId, newId } from '@scriptorium/infra/eventsourcing/ids';
import type { EventMetadata, EventStore } from '@scriptorium/infra/eventstore/port';
import { SqliteEventStore } from '@scriptorium/infra/eventstore/sqlite';
import { createLogger } from '@scriptorium/infra/log';
import { SqliteReadStore } from '@scriptorium/infra/readstore/sqlite';
import { conversationStream, type Conversation, type ConversationEvent } from '@scriptorium/domain/conversation/conversation';
import { conversationDecider, type ConversationCommand } from '@scriptorium/domain/conversation/decide';
import { userDecider, userStream } from '@scriptorium/domain/user/decide';
import { emailClaimDecider, emailClaimStream } from '@scriptorium/domain/user/emailClaim';
import { userIdFor } from '@scriptorium/domain/user/registration';
import { CHATS } from '@scriptorium/projections/chats';
import { createProjections } from '@scriptorium/projections/index';
import { MESSAGES } from '@scriptorium/projections/messages';
import type { Projection } from '@scriptorium/projections/projection';
import { ProjectionRunner } from '@scriptorium/projections/runner';
import { USERS } from '@scriptorium/projections/users';
import { sized } from './short.ts';

const TARGET_EVENTS = sized(20_000, 1_000);
const USER_COUNT = sized(50, 5);
const SESSION_COUNT = sized(150, 10);
/**
 * ProjectionRunner's page at the head (it reads 2,000 at a time while catching up). A scan in pages of
 * 2,000 was no faster (97 against 106 ms of CPU, median of 15), so the baseline stays comparable with
 * earlier figures.
 */
const RUNNER_PAGE = 500;
const RUNS = sized(7, 1);
const TIME_ZONE = 'Asia/Shanghai';
const PASSWORD_HASH = '$argon2id$v=19$m=65536,t=3,p=4$YmVuY2htYXJrc2FsdA$6p1cz8Lr4WQ0xQJYb6Xq3bU4n2lZCq0GgJtq8yH0xkA';
const PROSE =
  '事件溯源把每一次变化都记录为不可变的事件，读模型可以随时从日志重建，审计者看到的和用户看到的是同样的字节。' +
  'Event sourcing keeps every change as an immutable fact; projections rebuild the present from it, position by position. ' +
  '研究助手先澄清问题，再制定计划、检索资料、阅读网页，最后把报告写进可以回溯版本的画布。';

/** A seeded generator, so every run builds the same log. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What CommandHandler makes of a decision: one event or several, as a list. */
const asList = <E>(decided: E | E[]): E[] => (Array.isArray(decided) ? decided : [decided]);

interface SessionSim {
  sessionId: string;
  userId: string;
  state: Conversation;
}

/** Writes the log the way the product does: deciders for commands, the ReplyWriter's shapes for streamed output. */
class LogBuilder {
  readonly rand = random(20_260_301);
  events = 0;
  userMessages = 0;
  private now = Date.parse('2026-03-01T00:00:00.000Z');
  private readonly revisions = new Map<string, number>();

  constructor(private readonly store: EventStore) {}

  between(low: number, high: number): number {
    return low + Math.floor(this.rand() * (high - low + 1));
  }

  private prose(length: number): string {
    const start = this.between(0, PROSE.length - 1);
    return (PROSE + PROSE).slice(start, start + length).padEnd(length, '。');
  }

  command(userId: string, pauseMs: number): CommandMetadata {
    this.now += pauseMs;
    return { now: new Date(this.now), userId, correlationId: randomUUID() };
  }

  /** One append with the exact expected revision, as CommandHandler and ReplyWriter append. */
  async append(streamId: string, events: Array<DomainEvent & { id?: string }>, metadata: EventMetadata): Promise<void> {
    const revision = this.revisions.get(streamId) ?? -1;
    const result = await this.store.appendToStream(
      streamId,
      events.map((event) => ({ id: event.id ?? newId(), type: event.type, data: event.data, metadata })),
      { expectedRevision: revision < 0 ? 'no_stream' : revision },
    );
    this.revisions.set(streamId, result.nextExpectedRevision);
    this.events += events.length;
  }

  private eventMetadata(meta: CommandMetadata): EventMetadata {
    return { at: meta.now.toISOString(), ...(meta.userId !== undefined && { userId: meta.userId }), correlationId: meta.correlationId! };
  }

  async register(username: string): Promise<string> {
    const userId = userIdFor(username);
    const email = `${username}@example.com`;
    const meta = this.command(userId, this.between(60_000, 3_600_000));
    const claimed = emailClaimDecider.decide({ type: 'ReserveEmail', data: { email, userId }, metadata: meta }, emailClaimDecider.initialState());
    await this.append(emailClaimStream(email), asList(claimed), this.eventMetadata(meta));
    const registered = userDecider.decide(
      { type: 'RegisterUser', data: { userId, username, email, nickname: username, passwordHash: PASSWORD_HASH, isAdmin: false }, metadata: meta },
      userDecider.initialState(),
    );
    await this.append(userStream(userId), asList(registered), this.eventMetadata(meta));
    return userId;
  }

  async decide(session: SessionSim, command: ConversationCommand): Promise<ConversationEvent[]> {
    const events = asList(conversationDecider.decide(command, session.state));
    session.state = events.reduce(conversationDecider.evolve, session.state);
    await this.append(conversationStream(session.sessionId), events, this.eventMetadata(command.metadata));
    return events;
  }

  async createSession(userId: string): Promise<SessionSim> {
    const session: SessionSim = { sessionId: randomUUID(), userId, state: conversationDecider.initialState() };
    const metadata = this.command(userId, this.between(1_000, 600_000));
    await this.decide(session, { type: 'CreateSession', data: { sessionId: session.sessionId, ownerId: userId, clientId: 'web' }, metadata });
    return session;
  }

  /** A question and its streamed answer: chunks of 20–256 characters, usage, the end, and a title after the first. */
  async exchange(session: SessionSim): Promise<void> {
    const { sessionId, userId } = session;
    const first = session.state.status === 'open' && session.state.userMessages === 0;
    const messageId = randomUUID();
    const replyId = randomUUID();
    const asked = this.command(userId, this.between(60_000, 1_800_000));
    const agent = this.rand() < 0.5 ? 'poe_llm' : 'deep_cognition';
    const question = this.prose(this.between(20, 200));
    await this.decide(session, { type: 'PostUserMessage', data: { actorId: userId, messageId, replyId, content: question, agent }, metadata: asked });
    this.userMessages += 1;

    const writer = (pauseMs: number): EventMetadata => {
      this.now += pauseMs;
      return { at: new Date(this.now).toISOString(), userId, correlationId: replyId, causationId: replyId };
    };
    const chunks = this.between(10, 60);
    // The worker appends each chunk on its own; one append per reply writes the same events in the
    // same order, without paying an fsync per chunk while the log is built.
    const streamed: Array<ConversationEvent & { id: string }> = [];
    for (let seq = 0; seq < chunks; seq++) {
      const text = this.prose(this.between(20, 256));
      streamed.push({ id: deterministicId(replyId, `seq-${seq}`), type: 'MessageChunksAppended', data: { sessionId, messageId: replyId, agent, contentType: 'chat_chunk', seq, text } });
    }
    await this.append(conversationStream(sessionId), streamed, writer(chunks * this.between(50, 400)));
    const usage = (n: number, prompt: number, completion: number) => ({
      id: deterministicId(replyId, `tokens-${n}`),
      type: 'TokensConsumed' as const,
      data: { userId, sessionId, messageId: replyId, prompt, completion, model: 'openai-compatible:qwen2.5:7b', at: new Date(this.now).toISOString() },
    });
    await this.append(conversationStream(sessionId), [usage(0, this.between(200, 4_000), chunks * 40)], writer(10));
    const done = this.command(userId, 20);
    await this.decide(session, { type: 'CompleteReply', data: { messageId: replyId, outcome: this.rand() < 0.95 ? 'completed' : 'interrupted' }, metadata: done });
    if (!first) return;
    await this.append(conversationStream(sessionId), [usage(1, 300, 12)], writer(800));
    const titled = this.command(userId, 10);
    await this.decide(session, { type: 'SetTitle', data: { actorId: userId, title: this.prose(this.between(6, 20)), source: 'generated' }, metadata: titled });
  }
}

export async function buildLog(store: EventStore): Promise<LogBuilder> {
  const log = new LogBuilder(store);
  const users: string[] = [];
  for (let i = 0; i < USER_COUNT; i++) users.push(await log.register(`reader_${i}`));
  const sessions: SessionSim[] = [];
  for (let i = 0; i < SESSION_COUNT; i++) sessions.push(await log.createSession(users[i % users.length]!));
  // Replies interleave across sessions, as concurrent users make them.
  while (log.events < TARGET_EVENTS) {
    const session = sessions[log.between(0, sessions.length - 1)]!;
    // An interrupted reply leaves a session paused; its user starts a new session instead.
    if (session.state.status === 'open' && session.state.activity === 'paused') continue;
    await log.exchange(session);
  }
  return log;
}

async function scan(store: EventStore): Promise<number> {
  let after = 0;
  let count = 0;
  for (;;) {
    const page = await store.readAll({ after, maxCount: RUNNER_PAGE });
    if (page.length === 0) return count;
    count += page.length;
    after = page[page.length - 1]!.position;
  }
}

/** The projection with the time spent in its own `apply` or `applyBatch` added up. */
function timed(projection: Projection, spent: Map<string, number>): Projection {
  const timing =
    <A extends unknown[]>(apply: (...args: A) => Promise<void>) =>
    async (...args: A) => {
      const started = performance.now();
      await apply(...args);
      spent.set(projection.name, (spent.get(projection.name) ?? 0) + performance.now() - started);
    };
  const { applyBatch } = projection;
  return { ...projection, apply: timing(projection.apply), ...(applyBatch && { applyBatch: timing(applyBatch) }) };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const rate = (events: number, ms: number) => `${Math.round(events / (ms / 1000)).toLocaleString('en-US')} events/s`;

export async function run(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'scriptorium-bench-projections-'));
  const events = new SqliteEventStore(join(dir, 'events.sqlite3'));
  const readStore = new SqliteReadStore(join(dir, 'read.sqlite3'));
  try {
    const building = performance.now();
    const log = await buildLog(events);
    const total = await events.headPosition();
    console.log(
      `projections: rebuild of every projection from ${total.toLocaleString('en-US')} events (${USER_COUNT} users, ${SESSION_COUNT} sessions, ` +
        `${log.userMessages.toLocaleString('en-US')} exchanges; log written in ${Math.round(performance.now() - building).toLocaleString('en-US')} ms); median of ${RUNS} runs`,
    );

    // Warms the page cache, so that neither side pays for the first read from disk.
    await scan(events);
    const scans: number[] = [];
    const rebuilds: number[] = [];
    const scanCpu: number[] = [];
    const rebuildCpu: number[] = [];
    const cpuSince = (start: NodeJS.CpuUsage) => {
      const used = process.cpuUsage(start);
      return (used.user + used.system) / 1000;
    };
    const spent = new Map<string, number>();
    for (let i = 0; i < RUNS; i++) {
      let started = performance.now();
      let cpu = process.cpuUsage();
      if ((await scan(events)) !== total) throw new Error('the scan did not read the whole log');
      scans.push(performance.now() - started);
      scanCpu.push(cpuSince(cpu));

      const projections = createProjections({ timeZone: TIME_ZONE });
      for (const projection of projections) await readStore.reset(projection.name, projection.collections);
      spent.clear();
      const runner = new ProjectionRunner(events, readStore, projections.map((projection) => timed(projection, spent)), createLogger('silent', 'bench'));
      started = performance.now();
      cpu = process.cpuUsage();
      await runner.catchUp();
      rebuilds.push(performance.now() - started);
      rebuildCpu.push(cpuSince(cpu));
    }

    const counts = { users: await readStore.collection(USERS).count(), chats: await readStore.collection(CHATS).count(), messages: await readStore.collection(MESSAGES).count() };
    const expected = { users: USER_COUNT, chats: SESSION_COUNT, messages: 2 * log.userMessages };
    if (JSON.stringify(counts) !== JSON.stringify(expected)) throw new Error(`rebuilt read models hold ${JSON.stringify(counts)}, expected ${JSON.stringify(expected)}`);

    const scanMs = median(scans);
    const rebuildMs = median(rebuilds);
    const last = rebuilds[rebuilds.length - 1]!;
    const breakdown = [...spent]
      .filter(([, ms]) => ms / last >= 0.005)
      .map(([name, ms]) => `${name} ${Math.round((ms / last) * 100)}%`)
      .join(', ');
    console.log(`  readAll scan (baseline):  ${rate(total, scanMs)} (${Math.round(scanMs).toLocaleString('en-US')} ms)`);
    console.log(`  rebuild via catchUp:      ${rate(total, rebuildMs)} (${Math.round(rebuildMs).toLocaleString('en-US')} ms)`);
    console.log(`  ratio rebuild/scan:       ${(scanMs / rebuildMs).toFixed(2)}× (of the medians); ${median(scans.map((scanned, i) => scanned / rebuilds[i]!)).toFixed(2)}× (median of each run's own pair)`);
    console.log(`  CPU time, scan / rebuild: ${Math.round(median(scanCpu))} ms / ${Math.round(median(rebuildCpu))} ms, ratio ${(median(scanCpu) / median(rebuildCpu)).toFixed(2)}×`);
    console.log(`  time inside apply (with its reads and writes), last run: ${breakdown}; the rest is reading the log, commits and checkpoints`);
  } finally {
    await readStore.close();
    await events.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await run();

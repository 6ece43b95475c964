import test from 'ava';
import { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import type { EventStore, RecordedEvent } from '@scriptorium/infra/eventstore/port';
import { SqliteEventStore } from '@scriptorium/infra/eventstore/sqlite';
import type { JobQueue } from '@scriptorium/infra/queue/port';
import { conversationStream, type ConversationEvent } from '../conversation/conversation.ts';
import { jobDispatch } from './dispatch.ts';

const T = '2026-03-01T08:00:00.000Z';
const created: ConversationEvent = {
  type: 'SessionCreated',
  data: { sessionId: 's1', ownerId: 'u1', clientId: 'c1', name: '会话', collaborationMode: 1, searchEnabled: false, layoutPreset: 'home-welcome', createdAt: T },
};
const replyStarted: ConversationEvent = { type: 'AgentReplyStarted', data: { sessionId: 's1', messageId: 'r1', agent: 'poe_llm', replyTo: 'm1', jobId: 'r1', at: T } };
const replyDone: ConversationEvent = { type: 'AgentReplyCompleted', data: { sessionId: 's1', messageId: 'r1', agent: 'poe_llm', outcome: 'completed', at: T } };

/** Given these events in one conversation, the jobs dispatch queues for each of them. */
async function dispatched(t: { teardown(fn: () => Promise<void>): void }, events: ConversationEvent[]) {
  const store: EventStore = new SqliteEventStore(':memory:');
  t.teardown(() => store.close());
  await store.appendToStream(conversationStream('s1'), events.map((event) => ({ ...event, metadata: { userId: 'u1', at: T } })), { expectedRevision: 'no_stream' });
  const queued: Array<{ name: string; data: unknown; jobId: string | undefined }> = [];
  const queue = { enqueue: async (_queue: string, name: string, data: unknown, options?: { jobId?: string }) => (queued.push({ name, data, jobId: options?.jobId }), { id: options?.jobId ?? '', created: true }) } as unknown as JobQueue;
  const reaction = jobDispatch({ commands: new CommandHandler(store), queue });
  const recorded: RecordedEvent[] = await store.readAll({ after: 0 });
  for (const event of recorded) if (reaction.handles.includes(event.type)) await reaction.react(event);
  return queued;
}

test('a reply that started is queued under its job id', async (t) => {
  t.deepEqual(await dispatched(t, [created, replyStarted]), [{ name: 'poe_llm', data: { sessionId: 's1', userId: 'u1', agent: 'poe_llm', replyId: 'r1', replyTo: 'm1' }, jobId: 'r1' }]);
});

test('a reply that has already ended is not queued again when its event is replayed', async (t) => {
  t.deepEqual(await dispatched(t, [created, replyStarted, replyDone]), []);
});

test('an uploaded deck queues its review once, and a review that already ended queues nothing', async (t) => {
  const uploaded = { type: 'DeckUploaded', data: { reviewId: 'd1', userId: 'u1', filename: 'q.pptx', size: 1, sha256: 'x', blobKey: 'decks/u1/d1.pptx', language: 'zh', slides: [{ n: 1, title: null, paragraphs: [], notes: '', images: 0 }], at: T } };
  const failed = { type: 'DeckReviewFailed', data: { reviewId: 'd1', userId: 'u1', code: null, reason: 'x', at: T } };
  const run = async (events: Array<{ type: string; data: Record<string, unknown> }>) => {
    const store: EventStore = new SqliteEventStore(':memory:');
    t.teardown(() => store.close());
    await store.appendToStream('deckreview-d1', events.map((event) => ({ ...event, metadata: { userId: 'u1', at: T } })), { expectedRevision: 'no_stream' });
    const queued: Array<{ name: string; data: unknown; jobId: string | undefined }> = [];
    const queue = { enqueue: async (_queue: string, name: string, data: unknown, options?: { jobId?: string }) => (queued.push({ name, data, jobId: options?.jobId }), { id: options?.jobId ?? '', created: true }) } as unknown as JobQueue;
    const reaction = jobDispatch({ commands: new CommandHandler(store), queue });
    for (const event of await store.readAll({ after: 0 })) if (reaction.handles.includes(event.type)) await reaction.react(event);
    return queued;
  };
  t.deepEqual(await run([uploaded]), [{ name: 'deck_review', data: { reviewId: 'd1', userId: 'u1' }, jobId: 'deck-review:d1' }]);
  t.deepEqual(await run([uploaded, failed]), []);
});

test('a reply the model service asked to wait is queued again under its new job id, delayed until then', async (t) => {
  const store: EventStore = new SqliteEventStore(':memory:');
  t.teardown(() => store.close());
  const until = new Date(Date.now() + 60_000).toISOString();
  const deferred: ConversationEvent = { type: 'ReplyDeferred', data: { sessionId: 's1', messageId: 'r1', jobId: 'r1:wait:1', until, at: T } };
  await store.appendToStream(conversationStream('s1'), [created, replyStarted, deferred].map((event) => ({ ...event, metadata: { userId: 'u1', at: T } })), { expectedRevision: 'no_stream' });
  const queued: Array<{ jobId: string | undefined; delay: number | undefined }> = [];
  const queue = { enqueue: async (_queue: string, _name: string, _data: unknown, options?: { jobId?: string; delay?: number }) => (queued.push({ jobId: options?.jobId, delay: options?.delay }), { id: '', created: true }) } as unknown as JobQueue;
  const reaction = jobDispatch({ commands: new CommandHandler(store), queue });
  for (const event of await store.readAll({ after: 0 })) if (reaction.handles.includes(event.type)) await reaction.react(event);
  // The start's job is no longer the reply's: only the deferred one is queued.
  t.is(queued.length, 1);
  t.is(queued[0]!.jobId, 'r1:wait:1');
  t.true(queued[0]!.delay! > 0 && queued[0]!.delay! <= 60_000, `delayed ${queued[0]!.delay} ms`);
});

test("a plan's countdown queues the research for when it ends; a plan waiting for the user queues nothing until the user starts it", async (t) => {
  const research: ConversationEvent = { type: 'AgentReplyStarted', data: { sessionId: 's1', messageId: 'r1', agent: 'deep_cognition', replyTo: 'm1', jobId: 'r1', at: T } };
  const proposed: ConversationEvent = { type: 'PlanProposed', data: { sessionId: 's1', messageId: 'r1', steps: ['a'], at: T } };
  const startsAt = new Date(Date.now() + 8_000).toISOString();
  const countdown: ConversationEvent = { type: 'PlanReviewOpened', data: { sessionId: 's1', messageId: 'r1', jobId: 'r1:plan', queries: [['a']], startsAt, at: T } };
  const waiting: ConversationEvent = { type: 'PlanReviewOpened', data: { sessionId: 's1', messageId: 'r1', jobId: 'r1:plan', queries: [['a']], at: T } };
  const job = (jobId: string) => ({ name: 'deep_cognition', data: { sessionId: 's1', userId: 'u1', agent: 'deep_cognition', replyId: 'r1', replyTo: 'm1', stage: 'research' }, jobId });
  t.deepEqual(await dispatched(t, [created, research, proposed, countdown]), [job('r1:plan')]);
  t.deepEqual(await dispatched(t, [created, research, proposed, countdown, { type: 'PlanStarted', data: { sessionId: 's1', messageId: 'r1', jobId: 'r1:plan', by: 'countdown', at: T } }]), [job('r1:plan')], 'the countdown job starts it itself');
  t.deepEqual(await dispatched(t, [created, research, proposed, waiting]), []);
  t.deepEqual(await dispatched(t, [created, research, proposed, waiting, { type: 'PlanStarted', data: { sessionId: 's1', messageId: 'r1', jobId: 'j3', by: 'user', at: T } }]), [job('j3')]);
});

import test, { type ExecutionContext } from 'ava';
import { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import { SqliteEventStore } from '@scriptorium/infra/eventstore/sqlite';
import { createLogger } from '@scriptorium/infra/log';
import type { ModelProvider } from '@scriptorium/infra/model/port';
import type { BudgetGuard } from '@scriptorium/domain/budget/guard';
import { deckReviewDecider, type DeckReviewCommand } from '@scriptorium/domain/deckreview/decide';
import { deckReviewStream } from '@scriptorium/domain/deckreview/deckreview';
import type { SlideReview } from '@scriptorium/domain/protocol/deckReview';
import type { AgentDeps } from '../deps.ts';
import { runDeckReview } from './agent.ts';

const slides = [
  { n: 1, title: 'Results', paragraphs: ['Revenue up'], notes: 'say it', images: 0 },
  { n: 2, title: null, paragraphs: ['No title here'], notes: '', images: 0 },
];
const earlier: SlideReview = { score: 10, clarity: { rating: 'poor', points: ['kept'] }, structure: { rating: 'good', points: [] }, consistency: { rating: 'good', points: [] }, spelling: { rating: 'good', points: [] }, rewrite: '' };

/** A log holding one uploaded deck, and a way to run its commands as its owner. */
async function uploaded(t: ExecutionContext, reviewId: string) {
  const events = new SqliteEventStore(':memory:');
  t.teardown(() => events.close());
  const commands = new CommandHandler(events);
  const run = (command: Omit<DeckReviewCommand, 'metadata'>) => commands.handle(deckReviewDecider, deckReviewStream(reviewId), { ...command, metadata: { now: new Date('2026-03-01T00:00:00Z'), userId: 'u1' } } as DeckReviewCommand);
  await run({ type: 'UploadDeck', data: { reviewId, userId: 'u1', filename: 'd.pptx', size: 1, sha256: 'x', blobKey: 'k', language: 'en', slides } });
  return { events, commands, run };
}

test('a job run again after a crash resumes at the first slide without a result and completes the review', async (t) => {
  const { events, commands, run } = await uploaded(t, 'r1');
  await run({ type: 'StartDeckReview', data: { engine: 'offline' } });
  await run({ type: 'RecordSlideReview', data: { n: 1, review: earlier } });

  const deps = { events, commands, model: { offline: true } as ModelProvider, budget: {} as BudgetGuard, log: createLogger('silent', 'test'), clock: () => new Date('2026-03-01T00:01:00Z') } satisfies AgentDeps;
  const job = { id: 'deck-review:r1', name: 'deck_review', data: { reviewId: 'r1', userId: 'u1' }, attempt: 2, signal: new AbortController().signal, progress: async () => undefined };
  await runDeckReview(deps, job);
  await runDeckReview(deps, job);

  const { state } = await commands.load(deckReviewDecider, deckReviewStream('r1'));
  if (state.status !== 'completed') return t.fail(`status ${state.status}`);
  t.deepEqual(state.outcomes[1], { status: 'reviewed', review: earlier }, 'what the first run recorded is kept');
  t.like(state.outcomes[2], { status: 'reviewed', review: { structure: { rating: 'poor' } } });
  const types = (await events.readStream(deckReviewStream('r1'))).map((event) => event.type);
  t.deepEqual(types, ['DeckUploaded', 'DeckReviewStarted', 'SlideReviewed', 'SlideReviewed', 'DeckReviewCompleted'], 'the second run found nothing to do');
});

test('a review whose work fails unexpectedly ends as failed with a coded reason, not reviewing for good', async (t) => {
  const { events, commands } = await uploaded(t, 'r2');
  // A store that refuses the first slide's result, as a full disk would.
  const failing = Object.assign(Object.create(commands) as CommandHandler, {
    handle: ((decider, stream, command, options) =>
      command.type === 'RecordSlideReview' ? Promise.reject(new Error('disk full')) : commands.handle(decider, stream, command, options)) as CommandHandler['handle'],
  });

  const deps = { events, commands: failing, model: { offline: true } as ModelProvider, budget: {} as BudgetGuard, log: createLogger('silent', 'test'), clock: () => new Date('2026-03-01T00:01:00Z') } satisfies AgentDeps;
  await runDeckReview(deps, { id: 'deck-review:r2', name: 'deck_review', data: { reviewId: 'r2', userId: 'u1' }, attempt: 1, signal: new AbortController().signal, progress: async () => undefined });

  t.is((await commands.load(deckReviewDecider, deckReviewStream('r2'))).state.status, 'failed');
  const failed = (await events.readStream(deckReviewStream('r2'))).at(-1)!;
  t.like(failed, { type: 'DeckReviewFailed', data: { code: 'deck.review_failed', reason: 'The review stopped on an internal error; please upload the presentation again' } });
});

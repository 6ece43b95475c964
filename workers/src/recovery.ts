import type { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import type { Logger } from '@scriptorium/infra/log';
import type { JobQueue } from '@scriptorium/infra/queue/port';
import type { ReadStore } from '@scriptorium/infra/readstore/port';
import { conversationStream } from '@scriptorium/domain/conversation/conversation';
import { conversationDecider } from '@scriptorium/domain/conversation/decide';
import { deckReviewJob, demoJob, enqueueJob, extractionJob, replyJob } from '@scriptorium/domain/jobs/dispatch';
import { CHATS, type ChatDoc } from '@scriptorium/projections/chats';
import { EXTRACTIONS, type ExtractionDoc } from '@scriptorium/projections/cognitions';
import { DECK_REVIEWS, type DeckReviewDoc } from '@scriptorium/projections/deckReviews';
import { ENGINEER_SESSIONS, type EngineerSessionDoc } from '@scriptorium/projections/engineer';

/**
 * Re-queues the job of every reply the log says is still running (one the model service asked to
 * wait, for when it may start). The in-process queue forgets its jobs when the process dies; BullMQ
 * keeps them, and there the same job id makes this a no-op. A re-run job finds what its first run
 * wrote and writes nothing twice: a research reply goes on from its recorded plan, searches, pages
 * and sections and continues the section it was writing; a chat reply that was streaming text ends
 * as interrupted.
 */
export async function requeueRunningReplies(deps: { readStore: ReadStore; commands: CommandHandler; queue: JobQueue; log: Logger }): Promise<number> {
  const running = await deps.readStore.collection<ChatDoc>(CHATS).find({ activity: 'processing' });
  let requeued = 0;
  for (const chat of running) {
    const { state } = await deps.commands.load(conversationDecider, conversationStream(chat._id));
    if (state.status === 'none' || !state.activeReply || state.activity !== 'processing') continue;
    const job = replyJob(state);
    if (job && (await enqueueJob(deps.queue, job)).created) requeued++;
  }
  if (requeued > 0) deps.log.info({ requeued }, 'requeued replies interrupted by a restart');
  return requeued;
}

/** Re-queues every cognition extraction the log says is still pending or running, for the same reason. */
export async function requeueRunningExtractions(deps: { readStore: ReadStore; queue: JobQueue; log: Logger }): Promise<number> {
  const open = await deps.readStore.collection<ExtractionDoc>(EXTRACTIONS).find({ status: { $in: ['pending', 'running'] } });
  let requeued = 0;
  for (const extraction of open) {
    if ((await enqueueJob(deps.queue, extractionJob(extraction._id, extraction.user_id))).created) requeued++;
  }
  if (requeued > 0) deps.log.info({ requeued }, 'requeued cognition extractions interrupted by a restart');
  return requeued;
}

/** Re-queues every presentation review the log says is uploaded or under way; it resumes at its first slide without a result. */
export async function requeueRunningDeckReviews(deps: { readStore: ReadStore; queue: JobQueue; log: Logger }): Promise<number> {
  const open = await deps.readStore.collection<DeckReviewDoc>(DECK_REVIEWS).find({ status: { $in: ['uploaded', 'reviewing'] } });
  let requeued = 0;
  for (const review of open) {
    if ((await enqueueJob(deps.queue, deckReviewJob({ reviewId: review._id, userId: review.user_id }))).created) requeued++;
  }
  if (requeued > 0) deps.log.info({ requeued }, 'requeued presentation reviews interrupted by a restart');
  return requeued;
}

/**
 * Re-queues every demo execution the log says is still running, for the same reason. The re-run
 * skips the steps whose output is recorded and runs the first one without output again, in the
 * same workspace.
 */
export async function requeueRunningDemos(deps: { readStore: ReadStore; queue: JobQueue; log: Logger }): Promise<number> {
  const open = await deps.readStore.collection<EngineerSessionDoc>(ENGINEER_SESSIONS).find({ source: 'demo', status: 'running' });
  let requeued = 0;
  for (const session of open) {
    if ((await enqueueJob(deps.queue, demoJob({ sessionId: session._id, ownerId: session.owner_id, taskDescription: session.task_description }))).created) requeued++;
  }
  if (requeued > 0) deps.log.info({ requeued }, 'requeued demo executions interrupted by a restart');
  return requeued;
}

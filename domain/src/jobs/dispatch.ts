import type { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import type { Reaction } from '@scriptorium/infra/eventsourcing/reactor';
import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { EnqueueOptions, JobQueue } from '@scriptorium/infra/queue/port';
import { extractionDecider, COGNITION_JOB, type CognitionJobData } from '../cognition/extractionDecide.ts';
import { extractionStream } from '../cognition/extraction.ts';
import { conversationStream, type OpenSession, type TargetedEditRequested } from '../conversation/conversation.ts';
import { conversationDecider } from '../conversation/decide.ts';
import { AGENT_QUEUE, LONG_QUEUE, type AgentJobData, type TargetedEditJobData } from '../conversation/jobs.ts';
import { DEMO_JOB, type DemoJobData } from '../engineer/demo.ts';
import { DECK_REVIEW_JOB, deckReviewDecider, deckReviewJobId, type DeckReviewJobData } from '../deckreview/decide.ts';
import { deckReviewStream, type DeckUploaded } from '../deckreview/deckreview.ts';
import { engineerDecider } from '../engineer/decide.ts';
import { engineerStream, type EngineerSessionCreated } from '../engineer/session.ts';

/** The reaction that enqueues agent jobs; only a projector role runs it, and /readyz watches its checkpoint. */
export const JOB_DISPATCH = 'job-dispatch';

/** Every agent job is tried twice: a worker that dies mid-job hands it on once. */
export const JOB_OPTIONS: EnqueueOptions = { attempts: 2, backoff: { type: 'fixed', delay: 1000 } };

export interface QueuedJob<Data> {
  name: string;
  data: Data;
  jobId: string;
  /** Not to start before this time (ISO): the model service asked the reply to wait. */
  notBefore?: string;
  /** The lane it waits in: AGENT_QUEUE unless said. */
  queue?: typeof LONG_QUEUE;
}

export const enqueueJob = <Data>(queue: JobQueue, job: QueuedJob<Data>) => {
  const delay = job.notBefore === undefined ? 0 : Date.parse(job.notBefore) - Date.now();
  return queue.enqueue(job.queue ?? AGENT_QUEUE, job.name, job.data, { ...JOB_OPTIONS, jobId: job.jobId, ...(delay > 0 && { delay }) });
};

/** The job that carries a session's active reply on, or null when no reply is running. */
export function replyJob(session: OpenSession): QueuedJob<AgentJobData> | null {
  const reply = session.activeReply;
  if (!reply) return null;
  const data: AgentJobData = {
    sessionId: session.sessionId,
    userId: session.ownerId,
    agent: reply.agent,
    replyId: reply.messageId,
    replyTo: reply.replyTo,
    ...(reply.continues !== undefined && { continues: reply.continues }),
    ...(reply.stage !== undefined && { stage: reply.stage }),
  };
  return { name: reply.agent, data, jobId: reply.jobId, ...(reply.notBefore !== undefined && { notBefore: reply.notBefore }) };
}

export function extractionJob(extractionId: string, userId: string): QueuedJob<CognitionJobData> {
  return { name: COGNITION_JOB, data: { extractionId, userId }, jobId: `cognition:${extractionId}` };
}

export function targetedEditJob(request: TargetedEditRequested['data']): QueuedJob<TargetedEditJobData> {
  const { sessionId, userId, requestId, instruction, snippet, fromVersion, offset } = request;
  return { name: 'targeted_edit', data: { sessionId, userId, requestId, instruction, snippet, fromVersion, ...(offset !== undefined && { offset }) }, jobId: `edit:${requestId}` };
}

export const deckReviewJob = (data: DeckReviewJobData): QueuedJob<DeckReviewJobData> => ({ name: DECK_REVIEW_JOB, data, jobId: deckReviewJobId(data.reviewId) });

export const demoJobId = (sessionId: string): string => `engineer-demo:${sessionId}`;
export const demoJob = (data: DemoJobData): QueuedJob<DemoJobData> => ({ name: DEMO_JOB, data, jobId: demoJobId(data.sessionId), queue: LONG_QUEUE });

/**
 * The outbox of every agent job: a command appends the event that asks for work, and this process
 * manager queues the job from it. Job ids come from the event, so a replayed event queues nothing
 * twice; a job whose work is no longer wanted (the reply finished or was paused, the extraction
 * ended) is not queued at all.
 */
export function jobDispatch(deps: { commands: CommandHandler; queue: JobQueue }): Reaction {
  const enqueue = <Data>(job: QueuedJob<Data> | null) => (job ? enqueueJob(deps.queue, job) : undefined);

  async function activeReply(sessionId: string, jobId: string): Promise<QueuedJob<AgentJobData> | null> {
    const { state } = await deps.commands.load(conversationDecider, conversationStream(sessionId));
    if (state.status === 'none' || state.activeReply?.jobId !== jobId) return null;
    return replyJob(state);
  }

  return {
    name: JOB_DISPATCH,
    handles: ['AgentReplyStarted', 'StageStarted', 'ReplyDeferred', 'PlanReviewOpened', 'PlanStarted', 'TargetedEditRequested', 'CognitionExtractionRequested', 'EngineerSessionCreated', 'DeckUploaded'],
    async react(event: RecordedEvent) {
      switch (event.type) {
        case 'AgentReplyStarted':
        case 'StageStarted':
        case 'ReplyDeferred': {
          const { sessionId, jobId } = event.data as { sessionId: string; jobId: string };
          await enqueue(await activeReply(sessionId, jobId));
          return;
        }
        case 'PlanReviewOpened':
        case 'PlanStarted': {
          // A countdown's job is queued for when it ends, a start by the user at once; a plan that
          // waits for the user, and one the countdown's running job started itself, queue nothing.
          const { sessionId, jobId, startsAt, by } = event.data as { sessionId: string; jobId: string; startsAt?: string; by?: string };
          if (event.type === 'PlanReviewOpened' ? startsAt !== undefined : by === 'user') await enqueue(await activeReply(sessionId, jobId));
          return;
        }
        case 'TargetedEditRequested':
          await enqueue(targetedEditJob(event.data as TargetedEditRequested['data']));
          return;
        case 'CognitionExtractionRequested': {
          const { extractionId, userId } = event.data as CognitionJobData;
          const { state } = await deps.commands.load(extractionDecider, extractionStream(extractionId));
          if (state.status === 'pending' || state.status === 'running') await enqueue(extractionJob(extractionId, userId));
          return;
        }
        case 'EngineerSessionCreated': {
          // Only the demo's sessions ask for work; one stopped before the job was queued is left alone.
          const { sessionId, ownerId, taskDescription, source } = event.data as EngineerSessionCreated['data'];
          if (source !== 'demo') return;
          const { state } = await deps.commands.load(engineerDecider, engineerStream(sessionId));
          if (state.status === 'running') await enqueue(demoJob({ sessionId, ownerId, taskDescription }));
          return;
        }
        case 'DeckUploaded': {
          const { reviewId, userId } = event.data as DeckUploaded['data'];
          const { state } = await deps.commands.load(deckReviewDecider, deckReviewStream(reviewId));
          if (state.status === 'uploaded' || state.status === 'reviewing') await enqueue(deckReviewJob({ reviewId, userId }));
          return;
        }
      }
    },
  };
}

import { refuse } from '../refuse.ts';
import type { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import { type CommandMetadata } from '@scriptorium/infra/eventsourcing/decider';
import type { JobQueue } from '@scriptorium/infra/queue/port';
import type { BudgetGuard } from '../budget/guard.ts';
import { conversationStream, type Conversation, type AgentName, type CollaborationMode, type LayoutPreset, type Lifecycle } from './conversation.ts';
import { conversationDecider, type ConversationCommand } from './decide.ts';
import { AGENT_QUEUE } from './jobs.ts';
import type { ClarificationAnswer } from '../protocol/research.ts';
import type { FeedbackOption } from './conversation.ts';

type WithoutMetadata<C> = C extends unknown ? Omit<C, 'metadata'> : never;

export interface ConversationDeps {
  commands: CommandHandler;
  queue: JobQueue;
  budget: BudgetGuard;
  clock: () => Date;
}

export interface Actor {
  userId: string;
  clientId?: string;
}

/** The active reply's plan as a client is shown it: its steps with their searches, and whether it still waits. */
export const planOf = (state: Conversation) => {
  const plan = state.status === 'open' ? state.plan : null;
  return {
    status: state.status === 'open' && state.awaiting === 'plan' ? ('waiting' as const) : ('started' as const),
    steps: (plan?.steps ?? []).map((description, index) => ({ description, queries: plan!.queries[index] ?? [] })),
  };
};

/**
 * What HTTP routes and the socket both do to a conversation: decide through the conversation
 * stream. The jobs those events ask for are queued by the job dispatch process manager.
 */
export class ConversationService {
  constructor(private readonly deps: ConversationDeps) {}

  private metadata(actor: Actor): CommandMetadata {
    return { now: this.deps.clock(), userId: actor.userId, ...(actor.clientId !== undefined && { clientId: actor.clientId }), correlationId: crypto.randomUUID() };
  }

  private run(sessionId: string, actor: Actor, command: WithoutMetadata<ConversationCommand>) {
    return this.deps.commands.handle(conversationDecider, conversationStream(sessionId), { ...command, metadata: this.metadata(actor) } as ConversationCommand);
  }

  async create(actor: Actor, options: { name?: string; collaborationMode?: CollaborationMode; searchEnabled?: boolean; layoutPreset?: LayoutPreset } = {}) {
    const sessionId = crypto.randomUUID();
    const result = await this.run(sessionId, actor, {
      type: 'CreateSession',
      data: { sessionId, ownerId: actor.userId, clientId: actor.clientId ?? 'http', ...options },
    });
    return { sessionId, position: result.position };
  }

  rename(actor: Actor, sessionId: string, name: string) {
    return this.run(sessionId, actor, { type: 'RenameSession', data: { actorId: actor.userId, name } });
  }

  setTitle(actor: Actor, sessionId: string, title: string) {
    return this.run(sessionId, actor, { type: 'SetTitle', data: { actorId: actor.userId, title, source: 'user' } });
  }

  setMode(actor: Actor, sessionId: string, mode: CollaborationMode) {
    return this.run(sessionId, actor, { type: 'SetCollaborationMode', data: { actorId: actor.userId, mode } });
  }

  setSearch(actor: Actor, sessionId: string, enabled: boolean) {
    return this.run(sessionId, actor, { type: 'SetSearchEnabled', data: { actorId: actor.userId, enabled } });
  }

  rateReport(actor: Actor, sessionId: string, rating: { version: number; rating: 'helpful' | 'not_helpful'; comment?: string }) {
    return this.run(sessionId, actor, { type: 'RateReport', data: { actorId: actor.userId, ...rating } });
  }

  editCanvas(actor: Actor, sessionId: string, edit: { content: string; title?: string; fromVersion: number }) {
    return this.run(sessionId, actor, { type: 'EditCanvas', data: { actorId: actor.userId, ...edit } });
  }

  setLifecycle(actor: Actor, sessionId: string, lifecycle: Lifecycle) {
    return this.run(sessionId, actor, { type: 'SetLifecycle', data: { actorId: actor.userId, lifecycle } });
  }

  /** Posts a message and queues the reply. A user with no budget left is refused before anything is written. */
  async post(actor: Actor, sessionId: string, content: string, agent?: AgentName) {
    await this.deps.budget.ensureAvailable(actor.userId);
    const messageId = crypto.randomUUID();
    const replyId = crypto.randomUUID();
    const result = await this.run(sessionId, actor, {
      type: 'PostUserMessage',
      data: { actorId: actor.userId, messageId, replyId, content, ...(agent !== undefined && { agent }), ...(actor.clientId !== undefined && { clientId: actor.clientId }) },
    });
    const posted = result.newEvents.find((event) => event.type === 'UserMessagePosted');
    if (posted?.type !== 'UserMessagePosted') throw new Error('a posted message must be recorded');
    // An instruction to a research at work answers with the reply it steers: no reply of its own starts.
    return { messageId, replyId: posted.data.steers ?? replyId, agent: posted.data.agent, steers: posted.data.steers ?? null, position: result.position };
  }

  async pause(actor: Actor, sessionId: string) {
    const { state } = await this.deps.commands.load(conversationDecider, conversationStream(sessionId));
    if (state.status === 'none' || state.ownerId !== actor.userId) throw refuse('not_found', 'conversation.not_found');
    const reply = state.activeReply;
    if (!reply) return { paused: false };
    const job = await this.deps.queue.getJob(AGENT_QUEUE, reply.jobId);
    await this.deps.queue.cancel(AGENT_QUEUE, reply.jobId);
    // A running job records its own interruption once its signal aborts; one that never started cannot.
    if (!job || job.state !== 'active') {
      await this.run(sessionId, actor, { type: 'CompleteReply', data: { messageId: reply.messageId, outcome: 'interrupted' } });
    }
    return { paused: true };
  }

  async resume(actor: Actor, sessionId: string) {
    await this.deps.budget.ensureAvailable(actor.userId);
    const replyId = crypto.randomUUID();
    const result = await this.run(sessionId, actor, { type: 'ResumeReply', data: { actorId: actor.userId, replyId } });
    return { replyId, position: result.position };
  }

  /** Answers the research agent's questions; its research stage is queued as soon as the log has the answers. */
  async answerClarification(actor: Actor, sessionId: string, answers: ClarificationAnswer[]) {
    await this.deps.budget.ensureAvailable(actor.userId);
    const jobId = crypto.randomUUID();
    const result = await this.run(sessionId, actor, { type: 'AnswerClarification', data: { actorId: actor.userId, answers, jobId } });
    return { position: result.position };
  }

  /** Replaces the plan waiting for review with the user's steps; its countdown, if any, stops. */
  async editPlan(actor: Actor, sessionId: string, steps: Array<{ description: string; queries?: string[] }>) {
    const result = await this.run(sessionId, actor, { type: 'EditPlan', data: { actorId: actor.userId, steps } });
    return { position: result.position, plan: planOf(result.newState) };
  }

  /** Starts the plan waiting for review; its research is queued as soon as the log says so. */
  async startPlan(actor: Actor, sessionId: string) {
    await this.deps.budget.ensureAvailable(actor.userId);
    const result = await this.run(sessionId, actor, { type: 'StartPlan', data: { actorId: actor.userId, jobId: crypto.randomUUID() } });
    return { position: result.position, plan: planOf(result.newState) };
  }

  async giveFeedback(actor: Actor, sessionId: string, option: FeedbackOption, text?: string) {
    if (option !== 'satisfied') await this.deps.budget.ensureAvailable(actor.userId);
    const jobId = crypto.randomUUID();
    const result = await this.run(sessionId, actor, { type: 'GiveFeedback', data: { actorId: actor.userId, option, ...(text !== undefined && { text }), jobId } });
    return { position: result.position };
  }

  /** Records the request; the job that carries it out is queued from that event (see jobs/dispatch). */
  async requestTargetedEdit(actor: Actor, sessionId: string, request: { requestId?: string; instruction: string; snippet: string; offset?: number; version?: number }) {
    await this.deps.budget.ensureAvailable(actor.userId);
    const requestId = request.requestId ?? crypto.randomUUID();
    const where = { ...(request.offset !== undefined && { offset: request.offset }), ...(request.version !== undefined && { version: request.version }) };
    const result = await this.run(sessionId, actor, { type: 'RequestTargetedEdit', data: { actorId: actor.userId, requestId, instruction: request.instruction, snippet: request.snippet, ...where } });
    const requested = result.newEvents.find((event) => event.type === 'TargetedEditRequested');
    const fromVersion = requested?.type === 'TargetedEditRequested' ? requested.data.fromVersion : result.newState.status === 'open' ? (result.newState.canvas.current?.version ?? 0) : 0;
    return { requestId, fromVersion, position: result.position };
  }
}

import type { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import { DomainError, type CommandMetadata } from '@scriptorium/infra/eventsourcing/decider';
import type { Logger } from '@scriptorium/infra/log';
import type { JobQueue } from '@scriptorium/infra/queue/port';
import type { ReadStore } from '@scriptorium/infra/readstore/port';
import { CHATS, type ChatDoc } from '@scriptorium/projections/chats';
import type { BudgetGuard } from '../budget/guard.ts';
import { conversationStream, type AgentName, type CollaborationMode, type LayoutPreset, type Lifecycle } from './conversation.ts';
import { conversationDecider, type ConversationCommand } from './decide.ts';
import { AGENT_QUEUE, type AgentJobData, type TargetedEditJobData } from './jobs.ts';
import type { ClarificationAnswer } from '../../protocol/research.ts';
import type { FeedbackOption } from './conversation.ts';

type WithoutMetadata<C> = C extends unknown ? Omit<C, 'metadata'> : never;

export interface ConversationDeps {
  commands: CommandHandler;
  queue: JobQueue;
  readStore: ReadStore;
  budget: BudgetGuard;
  clock: () => Date;
  log: Logger;
}

export interface Actor {
  userId: string;
  clientId?: string;
}

/**
 * What HTTP routes and the socket both do to a conversation: decide through the conversation
 * stream, and queue the agent's job once the log says a reply has started.
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

  /** The session as its owner sees it; anyone else gets the same 404 as for a missing one. */
  async owned(actor: Actor, sessionId: string): Promise<ChatDoc> {
    const chat = await this.deps.readStore.collection<ChatDoc>(CHATS).get(sessionId);
    if (!chat || chat.user_id !== actor.userId) throw new DomainError('not_found', '会话不存在');
    return chat;
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
    const started = result.newEvents.find((event) => event.type === 'AgentReplyStarted');
    if (started?.type !== 'AgentReplyStarted') throw new Error('a posted message must start a reply');
    await this.enqueue(actor, { sessionId, userId: actor.userId, agent: started.data.agent, replyId, replyTo: messageId });
    return { messageId, replyId, agent: started.data.agent, position: result.position };
  }

  async pause(actor: Actor, sessionId: string) {
    const { state } = await this.deps.commands.load(conversationDecider, conversationStream(sessionId));
    if (state.status === 'none' || state.ownerId !== actor.userId) throw new DomainError('not_found', '会话不存在');
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
    const started = result.newEvents.find((event) => event.type === 'AgentReplyStarted');
    if (started?.type !== 'AgentReplyStarted') throw new Error('a resume must start a reply');
    await this.enqueue(actor, { sessionId, userId: actor.userId, agent: started.data.agent, replyId, replyTo: started.data.replyTo, ...(started.data.continues !== undefined && { continues: started.data.continues }) });
    return { replyId, position: result.position };
  }

  /** Answers the research agent's questions; its research stage is queued as soon as the log has the answers. */
  async answerClarification(actor: Actor, sessionId: string, answers: ClarificationAnswer[]) {
    await this.deps.budget.ensureAvailable(actor.userId);
    const jobId = crypto.randomUUID();
    const result = await this.run(sessionId, actor, { type: 'AnswerClarification', data: { actorId: actor.userId, answers, jobId } });
    await this.enqueueStage(actor, sessionId, result.newEvents, jobId);
    return { position: result.position };
  }

  async giveFeedback(actor: Actor, sessionId: string, option: FeedbackOption, text?: string) {
    if (option !== 'satisfied') await this.deps.budget.ensureAvailable(actor.userId);
    const jobId = crypto.randomUUID();
    const result = await this.run(sessionId, actor, { type: 'GiveFeedback', data: { actorId: actor.userId, option, ...(text !== undefined && { text }), jobId } });
    await this.enqueueStage(actor, sessionId, result.newEvents, jobId);
    return { position: result.position };
  }

  /**
   * Checks a targeted edit against the current canvas before queuing it, so a blank instruction or a
   * snippet that is not in the report is refused at once and nothing runs.
   */
  async requestTargetedEdit(actor: Actor, sessionId: string, request: { requestId?: string; instruction: string; snippet: string }) {
    await this.deps.budget.ensureAvailable(actor.userId);
    const { state } = await this.deps.commands.load(conversationDecider, conversationStream(sessionId));
    if (state.status === 'none' || state.ownerId !== actor.userId) throw new DomainError('not_found', '会话不存在');
    const current = state.canvas.current;
    if (!request.instruction.trim() || !request.snippet.trim()) throw new DomainError('invalid', '修改指令和选中文本都不能为空');
    if (!current) throw new DomainError('conflict', '画布中还没有报告');
    if (!current.content.includes(request.snippet)) throw new DomainError('invalid', '选中的文本不在当前版本中', 'snippet');
    const job: TargetedEditJobData = {
      sessionId,
      userId: actor.userId,
      requestId: request.requestId ?? crypto.randomUUID(),
      instruction: request.instruction.trim(),
      snippet: request.snippet,
      fromVersion: current.version,
    };
    await this.deps.queue.enqueue(AGENT_QUEUE, 'targeted_edit', job, { jobId: `edit:${job.requestId}`, attempts: 2, backoff: { type: 'fixed', delay: 1000 } });
    return { requestId: job.requestId, fromVersion: current.version };
  }

  private async enqueueStage(actor: Actor, sessionId: string, events: Array<{ type: string; data: unknown }>, jobId: string) {
    const stage = events.find((event) => event.type === 'StageStarted');
    if (!stage) return;
    const { state } = await this.deps.commands.load(conversationDecider, conversationStream(sessionId));
    if (state.status === 'none' || !state.activeReply) return;
    const reply = state.activeReply;
    await this.enqueue(actor, { sessionId, userId: actor.userId, agent: reply.agent, replyId: reply.messageId, replyTo: reply.replyTo, stage: (stage.data as { stage: 'research' | 'revise' }).stage }, jobId);
  }

  private async enqueue(actor: Actor, job: AgentJobData, jobId = job.replyId): Promise<void> {
    try {
      await this.deps.queue.enqueue(AGENT_QUEUE, job.agent, job, { jobId, attempts: 2, backoff: { type: 'fixed', delay: 1000 } });
    } catch (error) {
      this.deps.log.error({ err: error, sessionId: job.sessionId }, 'could not queue the agent job');
      await this.run(job.sessionId, actor, { type: 'CompleteReply', data: { messageId: job.replyId, outcome: 'failed', error: '任务队列不可用，请稍后重试' } });
      throw new DomainError('conflict', '任务队列不可用，请稍后重试');
    }
  }
}

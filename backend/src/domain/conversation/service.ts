import type { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import { DomainError, type CommandMetadata } from '@scriptorium/infra/eventsourcing/decider';
import type { Logger } from '@scriptorium/infra/log';
import type { JobQueue } from '@scriptorium/infra/queue/port';
import type { ReadStore } from '@scriptorium/infra/readstore/port';
import { CHATS, type ChatDoc } from '@scriptorium/projections/chats';
import type { BudgetGuard } from '../budget/guard.ts';
import { conversationStream, type AgentName, type CollaborationMode, type LayoutPreset, type Lifecycle } from './conversation.ts';
import { conversationDecider, type ConversationCommand } from './decide.ts';
import { AGENT_QUEUE, type AgentJobData } from './jobs.ts';

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

  private async enqueue(actor: Actor, job: AgentJobData): Promise<void> {
    try {
      await this.deps.queue.enqueue(AGENT_QUEUE, job.agent, job, { jobId: job.replyId, attempts: 2, backoff: { type: 'fixed', delay: 1000 } });
    } catch (error) {
      this.deps.log.error({ err: error, sessionId: job.sessionId }, 'could not queue the agent job');
      await this.run(job.sessionId, actor, { type: 'CompleteReply', data: { messageId: job.replyId, outcome: 'failed', error: '任务队列不可用，请稍后重试' } });
      throw new DomainError('conflict', '任务队列不可用，请稍后重试');
    }
  }
}

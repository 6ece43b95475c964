import { z } from 'zod';
import type { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import { DomainError } from '@scriptorium/infra/eventsourcing/decider';
import type { EventStore, RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Logger } from '@scriptorium/infra/log';
import { AGENTS, CONVERSATION_PREFIX, conversationStream, type AgentName } from '../domain/conversation/conversation.ts';
import { conversationDecider } from '../domain/conversation/decide.ts';
import type { ConversationService } from '../domain/conversation/service.ts';
import { toWire } from '../domain/conversation/wire.ts';
import type { MetadataUpdateMessage, SessionMessage, SubscribedMessage } from '../protocol/ws.ts';
import type { Connection, SocketHub } from './hub.ts';

const envelope = z.object({
  session_id: z.uuid('session_id 格式不正确'),
  agent: z.enum([...AGENTS, 'none'], { error: 'agent 不正确' }),
  payload: z.object({ content_type: z.string().min(1).max(64) }).passthrough(),
});

const subscribePayload = z.object({ last_position: z.number().int().min(0).optional() });
const inputPayload = z.object({ content: z.string().optional(), text: z.string().optional(), message: z.string().optional() });
const answersPayload = z.object({
  answers: z
    .array(
      z.object({
        id: z.string().min(1).max(100),
        question: z.string().max(2000).default(''),
        selectedOptions: z.array(z.string().max(500)).max(50).default([]),
        textInput: z.string().max(5000).default(''),
        question_type: z.enum(['single', 'multiple', 'text']).default('text'),
      }),
    )
    .min(1)
    .max(50),
});
const feedbackPayload = z.object({ option: z.enum(['continue', 'satisfied', 'manual_feedback']), text: z.string().max(5000).optional() });
const editPayload = z.object({ request_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(), text: z.string().max(2000), snippet: z.string().max(20_000) });

interface Subscriber {
  connection: Connection;
  sessionId: string;
  lastSent: number;
  catchingUp: boolean;
  buffer: Array<SessionMessage | MetadataUpdateMessage>;
}

/** Extra client content types (clarification answers, targeted edits…) that later agents handle. */
export type ContentHandler = (connection: Connection, sessionId: string, agent: AgentName | 'none', payload: Record<string, unknown>) => Promise<void>;

/**
 * Store-first fan-out: one subscription to the log feeds every socket, so a client is never shown
 * anything the log lacks, and a client that says the last position it saw gets exactly what it
 * missed, once, in order, before live events continue.
 */
export class ConversationGateway {
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  private readonly handlers = new Map<string, ContentHandler>();
  private processed = 0;
  private subscription: { close(): Promise<void> } | undefined;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly events: EventStore,
    private readonly commands: CommandHandler,
    private readonly conversations: ConversationService,
    private readonly hub: SocketHub,
    private readonly log: Logger,
  ) {
    hub.onMessage((connection, message) => this.receive(connection, message));
    hub.onClose((connection) => this.dropConnection(connection));
  }

  handle(contentType: string, handler: ContentHandler): void {
    this.handlers.set(contentType, handler);
  }

  async start(): Promise<void> {
    this.processed = await this.events.headPosition();
    const subscription = this.events.subscribeToAll({ after: this.processed });
    this.subscription = subscription;
    this.loop = (async () => {
      try {
        for await (const event of subscription) this.publish(event);
      } catch (error) {
        this.log.error({ err: error }, 'conversation fan-out stopped');
      }
    })();
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
    await this.loop;
  }

  private publish(event: RecordedEvent): void {
    this.processed = event.position;
    if (!event.streamId.startsWith(CONVERSATION_PREFIX)) return;
    const wire = toWire(event);
    if (!wire) return;
    const json = JSON.stringify(wire);
    if (wire.type === 'metadata_update' && event.metadata.userId) {
      for (const connection of this.hub.byUser(event.metadata.userId)) connection.sendRaw(json);
    }
    for (const subscriber of this.subscribers.get(wire.session_id) ?? []) {
      if (subscriber.catchingUp) subscriber.buffer.push(wire);
      else if (wire.type === 'message') this.deliver(subscriber, wire, json);
      else subscriber.lastSent = Math.max(subscriber.lastSent, wire.position);
    }
  }

  private deliver(subscriber: Subscriber, wire: SessionMessage | MetadataUpdateMessage, json = JSON.stringify(wire)): void {
    if (wire.position <= subscriber.lastSent) return;
    subscriber.lastSent = wire.position;
    subscriber.connection.sendRaw(json);
  }

  private async receive(connection: Connection, raw: unknown): Promise<void> {
    const parsed = envelope.safeParse(raw);
    if (!parsed.success) throw new DomainError('invalid', `消息格式不正确: ${parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`);
    const { session_id: sessionId, agent, payload } = parsed.data;
    const actor = { userId: connection.userId, clientId: connection.clientId };
    switch (payload.content_type) {
      case 'subscribe': {
        const { last_position } = subscribePayload.parse(payload);
        await this.subscribe(connection, sessionId, last_position);
        return;
      }
      case 'unsubscribe':
        this.unsubscribe(connection, sessionId);
        return;
      case 'user_input':
      case 'question': {
        const input = inputPayload.parse(payload);
        const text = input.content ?? input.text ?? input.message ?? '';
        await this.conversations.owned(actor, sessionId);
        await this.conversations.post(actor, sessionId, text, agent === 'none' ? undefined : agent);
        return;
      }
      case 'pause':
        await this.conversations.pause(actor, sessionId);
        return;
      case 'clarification_answer':
        await this.conversations.answerClarification(actor, sessionId, answersPayload.parse(payload).answers);
        return;
      case 'feedback_response': {
        const { option, text } = feedbackPayload.parse(payload);
        await this.conversations.giveFeedback(actor, sessionId, option, text);
        return;
      }
      case 'targeted_edit': {
        const edit = editPayload.parse(payload);
        await this.conversations.requestTargetedEdit(actor, sessionId, { ...(edit.request_id !== undefined && { requestId: edit.request_id }), instruction: edit.text, snippet: edit.snippet });
        return;
      }
      default: {
        const handler = this.handlers.get(payload.content_type);
        if (!handler) throw new DomainError('invalid', `不支持的消息类型: ${payload.content_type}`);
        await handler(connection, sessionId, agent, payload);
      }
    }
  }

  private async subscribe(connection: Connection, sessionId: string, lastPosition: number | undefined): Promise<void> {
    const { state } = await this.commands.load(conversationDecider, conversationStream(sessionId));
    if (state.status === 'none' || state.ownerId !== connection.userId) throw new DomainError('not_found', '会话不存在');
    this.unsubscribe(connection, sessionId);
    const subscriber: Subscriber = { connection, sessionId, lastSent: lastPosition ?? this.processed, catchingUp: true, buffer: [] };
    let set = this.subscribers.get(sessionId);
    if (!set) this.subscribers.set(sessionId, (set = new Set()));
    set.add(subscriber);
    try {
      if (lastPosition !== undefined) {
        for (const event of await this.events.readStream(conversationStream(sessionId))) {
          if (event.position <= lastPosition) continue;
          const wire = toWire(event);
          if (wire?.type === 'message') this.deliver(subscriber, wire);
          else subscriber.lastSent = Math.max(subscriber.lastSent, event.position);
        }
      }
      for (const wire of subscriber.buffer) {
        if (wire.type === 'message') this.deliver(subscriber, wire);
        else subscriber.lastSent = Math.max(subscriber.lastSent, wire.position);
      }
    } finally {
      subscriber.buffer = [];
      subscriber.catchingUp = false;
    }
    connection.send({ type: 'subscribed', session_id: sessionId, position: subscriber.lastSent } satisfies SubscribedMessage);
  }

  private unsubscribe(connection: Connection, sessionId: string): void {
    const set = this.subscribers.get(sessionId);
    if (!set) return;
    for (const subscriber of set) if (subscriber.connection === connection) set.delete(subscriber);
    if (set.size === 0) this.subscribers.delete(sessionId);
  }

  private dropConnection(connection: Connection): void {
    for (const [sessionId, set] of this.subscribers) {
      for (const subscriber of set) if (subscriber.connection === connection) set.delete(subscriber);
      if (set.size === 0) this.subscribers.delete(sessionId);
    }
  }

  get subscriberCount(): number {
    let count = 0;
    for (const set of this.subscribers.values()) count += set.size;
    return count;
  }
}

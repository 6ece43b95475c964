import { refuse } from '@scriptorium/domain/refuse';
import type { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import type { EventStore, RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Logger } from '@scriptorium/infra/log';
import { CONVERSATION_PREFIX, conversationStream } from '@scriptorium/domain/conversation/conversation';
import { conversationDecider } from '@scriptorium/domain/conversation/decide';
import type { ConversationService } from '@scriptorium/domain/conversation/service';
import { toWire } from '@scriptorium/domain/conversation/wire';
import { UPLOADED_FILE_URL, type MetadataUpdateMessage, type ParsedEnvelope, type SessionMessage } from '@scriptorium/domain/protocol/ws';
import type { ReadStore } from '@scriptorium/infra/readstore/port';
import { ownedChat } from '../http/ownedChat.ts';
import type { ContextFiles } from '../http/files.ts';
import { closeRevokedSockets } from './access.ts';
import { followLog, type LogFeed } from './logFeed.ts';
import type { Connection, SocketHub } from './hub.ts';

interface Subscriber {
  connection: Connection;
  sessionId: string;
  lastSent: number;
  catchingUp: boolean;
  buffer: Array<SessionMessage | MetadataUpdateMessage>;
}

/**
 * Store-first fan-out: one subscription to the log feeds every socket, so a client is never shown
 * anything the log lacks, and a client that says the last position it saw gets exactly what it
 * missed, once, in order, before live events continue.
 */
export class ConversationGateway {
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  private processed = 0;
  private feed: LogFeed | undefined;

  constructor(
    private readonly events: EventStore,
    private readonly commands: CommandHandler,
    private readonly conversations: ConversationService,
    private readonly readStore: ReadStore,
    private readonly hub: SocketHub,
    private readonly contexts: Pick<ContextFiles, 'addUploaded'>,
    private readonly log: Logger,
  ) {
    hub.onMessage((connection, envelope) => this.receive(connection, envelope));
    hub.onClose((connection) => this.dropConnection(connection));
  }

  async start(): Promise<void> {
    this.processed = await this.events.headPosition();
    this.feed = followLog(this.events, this.log, 'conversation', this.processed, (event) => this.publish(event));
  }

  async stop(): Promise<void> {
    await this.feed?.stop();
  }

  private publish(event: RecordedEvent): void {
    this.processed = event.position;
    closeRevokedSockets(this.hub, event);
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

  private async receive(connection: Connection, { session_id: sessionId, agent, payload }: ParsedEnvelope): Promise<void> {
    const actor = { userId: connection.userId, clientId: connection.clientId };
    switch (payload.content_type) {
      case 'subscribe':
        await this.subscribe(connection, sessionId, payload.last_position);
        return;
      case 'unsubscribe':
        this.unsubscribe(connection, sessionId);
        return;
      case 'user_input':
      case 'question': {
        const text = payload.content ?? payload.text ?? payload.message ?? '';
        await ownedChat(this.readStore, actor.userId, sessionId);
        await this.conversations.post(actor, sessionId, text, agent === 'none' ? undefined : agent);
        return;
      }
      case 'pause':
        await this.conversations.pause(actor, sessionId);
        return;
      case 'resume':
        await this.conversations.resume(actor, sessionId);
        return;
      case 'clarification_answer':
        await this.conversations.answerClarification(actor, sessionId, payload.answers);
        return;
      case 'feedback_response':
        await this.conversations.giveFeedback(actor, sessionId, payload.option, payload.text);
        return;
      case 'targeted_edit':
        await this.conversations.requestTargetedEdit(actor, sessionId, { ...(payload.request_id !== undefined && { requestId: payload.request_id }), instruction: payload.text, snippet: payload.snippet, offset: payload.offset, version: payload.version });
        return;
      case 'add_context': {
        const fileId = UPLOADED_FILE_URL.exec(payload.file_url)![1]!;
        await this.contexts.addUploaded(actor.userId, sessionId, fileId, { ...(payload.file_type !== undefined && { fileType: payload.file_type }), ...(payload.round !== undefined && { round: payload.round }) }, this.log);
        return;
      }
      default:
        return assertNever(payload);
    }
  }

  private async subscribe(connection: Connection, sessionId: string, lastPosition: number | undefined): Promise<void> {
    const { state } = await this.commands.load(conversationDecider, conversationStream(sessionId));
    if (state.status === 'none' || state.ownerId !== connection.userId) throw refuse('not_found', 'conversation.not_found');
    // What this socket was already sent is not sent again: a repeated subscribe replays nothing twice.
    const sent = [...(this.subscribers.get(sessionId) ?? [])].find((subscriber) => subscriber.connection === connection)?.lastSent;
    if (sent !== undefined && lastPosition !== undefined) lastPosition = Math.max(lastPosition, sent);
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
    connection.send({ type: 'subscribed', session_id: sessionId, position: subscriber.lastSent });
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

import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { MetadataUpdateMessage, SessionMessage, WireContent } from '../../protocol/ws.ts';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import type { ConversationEvent } from './conversation.ts';

/**
 * The one mapping from a conversation event to what a client is sent. The socket gateway, the
 * message history and the auditor's replay all use it, so they show the same thing.
 * Returns null for events no client is shown (creation, token accounting).
 */
export function toWire(recorded: RecordedEvent): SessionMessage | MetadataUpdateMessage | null {
  const event = { type: recorded.type, data: recorded.data } as ConversationEvent;
  if (event.type === 'TokensConsumed') return null;
  const sessionId = event.data.sessionId;
  const at = recorded.metadata.at;
  const message = (content: Pick<WireContent, 'agent' | 'content_type' | 'message_id'> & Record<string, unknown>): SessionMessage => ({
    type: 'message',
    session_id: sessionId,
    position: recorded.position,
    content: { ...content, timestamp: at, updated_at: at },
  });
  const metadata = (updated_fields: MetadataUpdateMessage['updated_fields']): MetadataUpdateMessage => ({
    type: 'metadata_update',
    session_id: sessionId,
    position: recorded.position,
    updated_fields,
  });
  switch (event.type) {
    case 'SessionCreated':
    case 'SessionLifecycleChanged':
      return null;
    case 'SessionRenamed':
      return metadata({ name: event.data.name });
    case 'SessionTitleChanged':
      return metadata({ title: event.data.title });
    case 'CollaborationModeSet':
      return metadata({ collaboration_mode: event.data.mode });
    case 'SearchToggled':
      return metadata({ search_enabled: event.data.enabled });
    case 'UserMessagePosted':
      return message({
        agent: 'user',
        content_type: 'user_input',
        message_id: event.data.messageId,
        content: event.data.content,
        target_agent: event.data.agent,
        ...(event.data.clientId !== undefined && { client_id: event.data.clientId }),
      });
    case 'AgentReplyStarted':
      return message({
        agent: event.data.agent,
        content_type: 'message_start',
        message_id: event.data.messageId,
        reply_to: event.data.replyTo,
        ...(event.data.continues !== undefined && { continues: event.data.continues }),
      });
    case 'MessageChunksAppended':
      return message({ agent: event.data.agent, content_type: event.data.contentType, message_id: event.data.messageId, content: event.data.text, seq: event.data.seq });
    case 'AgentOutputRecorded':
      return message({ ...event.data.payload, agent: event.data.agent, content_type: event.data.contentType, message_id: event.data.messageId, seq: event.data.seq });
    case 'AgentReplyCompleted':
      return message({
        agent: event.data.agent,
        content_type: 'message_end',
        message_id: event.data.messageId,
        outcome: event.data.outcome,
        ...(event.data.error !== undefined && { error_message: event.data.error }),
      });
    case 'AgentStatusChanged':
      return message({ agent: event.data.agent, content_type: 'status', message_id: `status-${recorded.position}`, status: event.data.status });
    default:
      return assertNever(event);
  }
}

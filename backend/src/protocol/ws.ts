/** Wire shapes of the real-time socket, shared with the client. */

export const HEARTBEAT_INTERVAL_MS = 3000;

export const CLOSE_UNAUTHORIZED = 4401;
export const CLOSE_NOT_FOUND = 4404;
/** 1012 (service restart), not 1001: the spec's client does not reconnect after 1000/1001, and after a restart it should. */
export const CLOSE_SHUTTING_DOWN = 1012;

export interface HeartbeatMessage {
  type: 'heartbeat';
  timestamp: string;
}

/** Sent when the client's message could not be used; the socket stays open. */
export interface SocketErrorMessage {
  type: 'error';
  error_message: string;
}

/** Agents a client may address; `none` is used to subscribe. */
export type WireAgent = 'poe_llm' | 'deep_cognition' | 'targeted_edit' | 'direct_writing_agent' | 'none';

/**
 * One item of a session's stream, as the spec's message fields name it. `content_type` says how to
 * show it (chat_chunk, status, plan, …); the rest depends on it.
 */
export interface WireContent {
  agent: WireAgent | 'user';
  content_type: string;
  message_id: string;
  timestamp: string;
  updated_at: string;
  [field: string]: unknown;
}

/** Server → client: something appended to a session. `position` lets a reconnecting client resume. */
export interface SessionMessage {
  type: 'message';
  session_id: string;
  position: number;
  content: WireContent;
}

export interface MetadataUpdateMessage {
  type: 'metadata_update';
  session_id: string;
  position: number;
  updated_fields: { title?: string; name?: string; collaboration_mode?: 0 | 1; search_enabled?: boolean };
}

/** Server → client after a subscribe: everything up to `position` has been sent. */
export interface SubscribedMessage {
  type: 'subscribed';
  session_id: string;
  position: number;
}

export type ServerMessage = HeartbeatMessage | SocketErrorMessage | SessionMessage | MetadataUpdateMessage | SubscribedMessage;

/** Client → server: `{session_id, agent, payload}` with `payload.content_type` one of the spec's outgoing types, or subscribe/unsubscribe. */
export interface ClientEnvelope {
  session_id: string;
  agent: WireAgent;
  payload: { content_type: string; [field: string]: unknown };
}

/** Wire shapes of the real-time socket, shared with the client. */

export const HEARTBEAT_INTERVAL_MS = 3000;

export const CLOSE_UNAUTHORIZED = 4401;
export const CLOSE_NOT_FOUND = 4404;
export const CLOSE_SHUTTING_DOWN = 1001;

export interface HeartbeatMessage {
  type: 'heartbeat';
  timestamp: string;
}

/** Sent when the client's message could not be used; the socket stays open. */
export interface SocketErrorMessage {
  type: 'error';
  error_message: string;
}

import type { EngineerSocketMessage } from '@scriptorium/domain/protocol/engineer';
import { CLOSE_ACCOUNT_INACTIVE, CLOSE_NOT_FOUND, CLOSE_UNAUTHORIZED } from '@scriptorium/domain/protocol/socketCodes';
import { accountInactiveByServer } from '../api/client.ts';
import { browserTokens } from '../api/token.ts';
import { engineerSocketUrl } from './tree.ts';

/** Reconnect after 2 s × 1.5ⁿ, capped at 30 s, as the conversation socket does. */
const retryDelay = (attempt: number) => Math.min(2000 * 1.5 ** attempt, 30_000);

export type LiveState = 'connecting' | 'live' | 'offline' | 'closed';

/**
 * One session's socket: it resumes after the last position it saw, so a dropped connection
 * misses nothing, and it stops for good when the server says the session is not the user's.
 */
export class LiveSession {
  private socket: WebSocket | null = null;
  private position: number | null = null;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(
    private readonly sessionId: string,
    private readonly onMessage: (message: EngineerSocketMessage) => void,
    private readonly onState: (state: LiveState) => void,
  ) {
    this.open();
  }

  private open(): void {
    this.onState('connecting');
    const socket = new WebSocket(engineerSocketUrl(location, this.sessionId, browserTokens.get() ?? '', this.position));
    this.socket = socket;
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data)) as EngineerSocketMessage;
      if (message.type === 'subscribed') {
        this.attempt = 0;
        this.onState('live');
      }
      if ('position' in message) this.position = Math.max(this.position ?? 0, message.position);
      this.onMessage(message);
    };
    socket.onclose = (event) => {
      if (this.stopped) return;
      if (event.code === CLOSE_ACCOUNT_INACTIVE) accountInactiveByServer();
      if (event.code === CLOSE_NOT_FOUND || event.code === CLOSE_UNAUTHORIZED || event.code === CLOSE_ACCOUNT_INACTIVE) return this.onState('closed');
      this.onState('offline');
      this.timer = setTimeout(() => this.open(), retryDelay(this.attempt++));
    };
  }

  /** Sends what the user typed; false when the socket is not open (the caller falls back to HTTP). */
  sendInput(text: string): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify({ type: 'user_input', text, timestamp: new Date().toISOString() }));
    return true;
  }

  close(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.socket?.close(1000);
  }
}

import { createActor, fromCallback, type Actor } from 'xstate';
import { CLOSE_UNAUTHORIZED } from '@scriptorium/domain/protocol/socketCodes';
import type { ClientEnvelope, ClientPayload, ServerMessage, WireAgent } from '@scriptorium/domain/protocol/ws';
import { connectionMachine, connectionStatus, type ConnectionStatus } from '../machines/connection.ts';
import { i18n } from '../i18n/index.ts';
import { accountInactiveByServer, API_BASE, signedOutByServer } from './client.ts';
import { browserTokens, tokenSettled } from './token.ts';

/** Spec §9: how long `connect()` waits for the socket before giving up. */
export const CONNECT_PROMISE_TIMEOUT_MS = 10_000;
const CLIENT_ID_KEY = 'client_id';

/** Error texts the spec gives for the socket (§5, §8), worded in the reader's language (the zh catalogue holds the spec's). */
const socketError = (key: 'socketNotConnected' | 'socketTimeout' | 'socketFailed') => new Error(i18n.t(`errors.${key}`));
export const SOCKET_NOT_AUTHENTICATED = 'user not authenticated, cannot establish the realtime connection';

/** One id per browser tab session, as the spec keeps it: client- plus a random UUID. */
export function clientId(): string {
  let id = sessionStorage.getItem(CLIENT_ID_KEY);
  if (!id) {
    id = `client-${crypto.randomUUID()}`;
    sessionStorage.setItem(CLIENT_ID_KEY, id);
  }
  return id;
}

export interface SessionSubscription {
  /** The last log position this session has shown; the server resumes after it. */
  position(): number;
  onMessage(message: ServerMessage): void;
}

/**
 * The one socket of the page. Timing and reconnecting live in the connection machine; this wires it
 * to a real WebSocket, keeps the registry of sessions to resubscribe, and routes what arrives.
 */
export class SocketClient {
  private connection: Actor<typeof connectionMachine> | null = null;
  private readonly sessions = new Map<string, SessionSubscription>();
  private socket: WebSocket | null = null;

  /** The connection's actor, built when first asked for: pages without the socket never pay for it. */
  get actor(): Actor<typeof connectionMachine> {
    this.connection ??= this.startConnection();
    return this.connection;
  }

  private startConnection(): Actor<typeof connectionMachine> {
    const machine = connectionMachine.provide({
      actors: {
        socket: fromCallback<{ type: 'socket.send'; data: unknown }>(({ sendBack, receive }) => {
          let socket: WebSocket | null = null;
          let stopped = false;
          // The schemas, and zod with them, load with the first connection rather than with the page:
          // the socket opens once they are here, so no message ever waits for them.
          import('@scriptorium/domain/protocol/ws').then(
            ({ serverMessageSchema }) => {
              if (stopped) return;
              const token = browserTokens.get() ?? '';
              const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
              socket = new WebSocket(`${scheme}://${location.host}${API_BASE}/conversation/ws/${encodeURIComponent(clientId())}?token=${encodeURIComponent(token)}`);
              this.socket = socket;
              socket.onopen = () => sendBack({ type: 'socket.opened' });
              // Closed for a sign-in this browser has since replaced (a password change): not a sign-out.
              socket.onclose = ({ code }) => {
                if (code !== CLOSE_UNAUTHORIZED) return sendBack({ type: 'socket.closed', code });
                void tokenSettled().then(() => {
                  if (!stopped) sendBack({ type: 'socket.closed', code, tokenReplaced: browserTokens.get() !== token });
                });
              };
              socket.onerror = () => sendBack({ type: 'socket.error' });
              socket.onmessage = (event) => {
                let data: unknown;
                try {
                  data = JSON.parse(String(event.data));
                } catch {
                  console.warn('unreadable socket message ignored');
                  return;
                }
                // A message this client does not understand is dropped here, so nothing past this point sees one.
                const parsed = serverMessageSchema.safeParse(data);
                if (parsed.success) sendBack({ type: 'socket.message', data: parsed.data });
                else console.warn('socket message outside the protocol ignored', parsed.error.issues, data);
              };
            },
            // The chunk did not load (offline, or a deploy replaced it): retried like a failed connection.
            () => {
              if (!stopped) sendBack({ type: 'socket.error' });
            },
          );
          receive((event) => socket?.send(String(event.data)));
          return () => {
            stopped = true;
            if (!socket) return;
            socket.onopen = socket.onclose = socket.onerror = socket.onmessage = null;
            if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) socket.close(1000);
            if (this.socket === socket) this.socket = null;
          };
        }),
      },
      actions: {
        resubscribe: () => {
          for (const [sessionId, subscription] of this.sessions) this.subscribeNow(sessionId, subscription);
        },
        deliver: (_, params) => this.route(params.data as ServerMessage),
        signedOut: () => signedOutByServer(browserTokens.get()),
        accountInactive: () => accountInactiveByServer(),
      },
    });
    return createActor(machine).start();
  }

  status(): ConnectionStatus {
    return connectionStatus(this.actor.getSnapshot());
  }

  /** Resolves once connected; the connection keeps retrying on its own after a rejection. */
  connect(): Promise<void> {
    if (!browserTokens.get()) return Promise.reject(new Error(SOCKET_NOT_AUTHENTICATED));
    if (this.status() === 'connected') return Promise.resolve();
    if (this.status() !== 'connecting') this.actor.send({ type: 'connection.connect' });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        subscription.unsubscribe();
        reject(socketError('socketTimeout'));
      }, CONNECT_PROMISE_TIMEOUT_MS);
      const subscription = this.actor.subscribe((snapshot) => {
        const status = connectionStatus(snapshot);
        if (status === 'connected' || status === 'failed') {
          clearTimeout(timer);
          subscription.unsubscribe();
          if (status === 'connected') resolve();
          else reject(socketError('socketFailed'));
        }
      });
    });
  }

  disconnect(): void {
    this.actor.send({ type: 'connection.disconnect' });
  }

  /** Registers a session: subscribed now if connected, and again after every reconnect. */
  register(sessionId: string, subscription: SessionSubscription): () => void {
    this.sessions.set(sessionId, subscription);
    if (this.status() === 'connected') this.subscribeNow(sessionId, subscription);
    return () => {
      if (this.sessions.get(sessionId) !== subscription) return;
      this.sessions.delete(sessionId);
      if (this.status() === 'connected') this.sendEnvelope({ session_id: sessionId, agent: 'none', payload: { content_type: 'unsubscribe' } });
    };
  }

  send(sessionId: string, agent: WireAgent, payload: ClientPayload): void {
    if (this.status() !== 'connected') throw socketError('socketNotConnected');
    this.sendEnvelope({ session_id: sessionId, agent, payload });
  }

  private subscribeNow(sessionId: string, subscription: SessionSubscription): void {
    this.sendEnvelope({ session_id: sessionId, agent: 'none', payload: { content_type: 'subscribe', last_position: subscription.position() } });
  }

  private sendEnvelope(envelope: ClientEnvelope): void {
    this.actor.send({ type: 'socket.send', data: JSON.stringify(envelope) });
  }

  private route(message: ServerMessage): void {
    switch (message.type) {
      case 'heartbeat':
        return;
      case 'error':
        // A refusal names the session it was about; that session shows it where it happened.
        if (message.session_id && this.sessions.has(message.session_id)) this.sessions.get(message.session_id)!.onMessage(message);
        else console.warn('socket error message', message.error_message);
        return;
      case 'metadata_update':
        // Other parts of the page (titles in lists) listen for this as a page event.
        window.dispatchEvent(new CustomEvent('metadata_update', { detail: message }));
        this.sessions.get(message.session_id)?.onMessage(message);
        return;
      case 'message':
      case 'subscribed':
        this.sessions.get(message.session_id)?.onMessage(message);
        return;
    }
  }
}

export const socketClient = new SocketClient();

import type { IncomingMessage } from 'node:http';
import type { Logger } from '@scriptorium/infra/log';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { DomainError } from '@scriptorium/infra/eventsourcing/decider';
import { anyErrorText, coded, type ErrorCode, type ParamsThen } from '@scriptorium/domain/protocol/errors';
import { issueCode } from '@scriptorium/domain/protocol/validation';
import type { SignIn } from '../http/authenticate.ts';
import { HttpError } from '../http/errors.ts';
import { clientEnvelopeSchema, CLOSE_ACCOUNT_INACTIVE, CLOSE_SHUTTING_DOWN, CLOSE_UNAUTHORIZED, FRAME_BURST, FRAMES_PER_SECOND, HEARTBEAT_INTERVAL_MS, type HeartbeatMessage, type ParsedEnvelope, type ServerMessage, type SocketErrorMessage } from '@scriptorium/domain/protocol/ws';

/** Who a socket speaks for, and with which sign-in: what decides when it must sign in again. */
export interface Identity extends SignIn {
  clientId: string;
}

/** Whether the sign-in behind a socket still holds (`signInStatus`), asked before a socket acts on a message. */
export type SignInCheck = (signIn: SignIn) => Promise<'valid' | 'inactive' | 'ended'>;

/**
 * Closes the socket and answers false when its sign-in no longer holds. The events that close sockets
 * reach this process a moment after the read model has changed; a message in between is not acted on.
 */
export async function stillSignedIn(check: SignInCheck, identity: Identity, close: (reason: string, code?: number) => void): Promise<boolean> {
  const status = await check(identity);
  if (status === 'valid') return true;
  if (status === 'inactive') close('account deactivated', CLOSE_ACCOUNT_INACTIVE);
  else close('signed out');
  return false;
}

export interface Connection extends Identity {
  id: string;
  socket: WebSocket;
  send(message: ServerMessage): void;
  /** Sends an already serialised message: fan-out serialises once per event, not once per socket. */
  sendRaw(json: string): void;
}

/** A handler for one client envelope that fits the protocol; throwing sends an `error` message back, nothing else. */
export type MessageHandler = (connection: Connection, envelope: ParsedEnvelope) => Promise<void> | void;

const issuesOf = (error: z.ZodError) => error.issues.map((issue) => `${issue.path.join('.')} ${issueCode(issue).msg}`).join('; ');

const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/** A token bucket of frames: a client may burst, but not keep the server busy faster than it refills. */
class FrameBudget {
  private tokens = FRAME_BURST;
  private last = Date.now();
  /** Whether the last frame was refused: the refusal is said once per burst, not once per frame. */
  refusing = false;

  take(): boolean {
    const now = Date.now();
    this.tokens = Math.min(FRAME_BURST, this.tokens + ((now - this.last) / 1000) * FRAMES_PER_SECOND);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/**
 * Owns every open socket: heartbeats, parsing, and dispatch to handlers that later features add.
 * A slow client whose send buffer grows past a bound is closed rather than allowed to grow memory.
 */
export class SocketHub {
  private readonly connections = new Map<string, Connection>();
  private readonly handlers: MessageHandler[] = [];
  private readonly closeListeners: Array<(connection: Connection) => void> = [];
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly log: Logger,
    private readonly check: SignInCheck,
  ) {
    this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_INTERVAL_MS);
    this.heartbeat.unref();
  }

  onMessage(handler: MessageHandler): void {
    this.handlers.push(handler);
  }

  onClose(listener: (connection: Connection) => void): void {
    this.closeListeners.push(listener);
  }

  byUser(userId: string): Connection[] {
    return this.where((connection) => connection.userId === userId);
  }

  get size(): number {
    return this.connections.size;
  }

  accept(socket: WebSocket, _request: IncomingMessage, identity: Identity): Connection {
    const connection: Connection = {
      id: crypto.randomUUID(),
      ...identity,
      socket,
      send: (message) => connection.sendRaw(JSON.stringify(message)),
      sendRaw: (json) => {
        if (socket.readyState !== socket.OPEN) return;
        if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
          socket.close(1013, 'client too slow');
          return;
        }
        socket.send(json);
      },
    };
    this.connections.set(connection.id, connection);
    const budget = new FrameBudget();
    // One frame at a time per socket, in order: a burst of frames cannot run its work in parallel.
    let queue = Promise.resolve();
    socket.on('message', (raw, isBinary) => {
      // A socket being closed (signed out, say) acts on nothing more it sends.
      if (socket.readyState !== socket.OPEN) return;
      if (!budget.take()) {
        if (!budget.refusing) connection.send({ type: 'error', error_message: anyErrorText('socket.rate_limited'), code: 'socket.rate_limited' } satisfies SocketErrorMessage);
        budget.refusing = true;
        return;
      }
      budget.refusing = false;
      queue = queue.then(() => this.receive(connection, raw.toString(), isBinary));
    });
    // setTimeout holds at most ~24.8 days: a token that lives longer has its socket closed then, and signs in again.
    const expiry = setTimeout(() => this.reauthenticate([connection], 'token expired'), Math.min(identity.expiresAt - Date.now(), 2 ** 31 - 1));
    expiry.unref();
    socket.on('close', () => {
      clearTimeout(expiry);
      this.connections.delete(connection.id);
      for (const listener of this.closeListeners) listener(connection);
    });
    socket.on('error', (error) => this.log.warn({ err: error, clientId: connection.clientId }, 'socket error'));
    connection.send({ type: 'heartbeat', timestamp: new Date().toISOString() } satisfies HeartbeatMessage);
    return connection;
  }

  /** Closes sockets whose sign-in no longer holds; by default with the code that sends the client to sign in again. */
  reauthenticate(connections: Iterable<Connection>, reason: string, code: number = CLOSE_UNAUTHORIZED): void {
    for (const connection of connections) {
      this.log.info({ clientId: connection.clientId, userId: connection.userId, reason }, 'socket must sign in again');
      connection.socket.close(code, reason);
    }
  }

  /** Every open socket matching `predicate`. */
  where(predicate: (connection: Connection) => boolean): Connection[] {
    return [...this.connections.values()].filter(predicate);
  }

  closeAll(): void {
    clearInterval(this.heartbeat);
    for (const connection of this.connections.values()) connection.socket.close(CLOSE_SHUTTING_DOWN, 'server shutting down');
  }

  private beat(): void {
    const message: HeartbeatMessage = { type: 'heartbeat', timestamp: new Date().toISOString() };
    for (const connection of this.connections.values()) connection.send(message);
  }

  private async receive(connection: Connection, raw: string, isBinary: boolean): Promise<void> {
    let refused: Pick<SocketErrorMessage, 'session_id' | 'content_type'> = {};
    const fail = (error_message: string, code: string, params: Readonly<Record<string, string | number>> = {}) =>
      connection.send({ type: 'error', error_message, ...coded(code, params), ...refused } satisfies SocketErrorMessage);
    const refuse = <Code extends ErrorCode>(code: Code, ...[params]: ParamsThen<Code>) => fail(anyErrorText(code, params), code, params);
    if (isBinary) return refuse('socket.binary');
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      return refuse('socket.invalid_json');
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return refuse('socket.not_object');
    if ((message as { type?: unknown }).type === 'heartbeat' || (message as { type?: unknown }).type === 'ping') return;
    const { session_id, payload } = message as { session_id?: unknown; payload?: { content_type?: unknown } };
    // A refusal names the session and the content type it was about, so the client shows it there.
    refused = { ...(typeof session_id === 'string' && { session_id }), ...(typeof payload?.content_type === 'string' && { content_type: payload.content_type }) };
    const envelope = clientEnvelopeSchema.safeParse(message);
    if (!envelope.success) {
      this.log.info({ issues: envelope.error.issues, clientId: connection.clientId }, 'socket message does not fit the protocol');
      return refuse('socket.invalid_message', { issues: issuesOf(envelope.error) });
    }
    if (!(await stillSignedIn(this.check, connection, (reason, code) => this.reauthenticate([connection], reason, code)))) return;
    try {
      for (const handler of this.handlers) await handler(connection, envelope.data);
    } catch (error) {
      this.log.info({ err: error, clientId: connection.clientId }, 'socket message refused');
      if (error instanceof z.ZodError) refuse('socket.invalid_message', { issues: issuesOf(error) });
      else if (error instanceof DomainError || error instanceof HttpError) fail(error.message, error.code, error.params);
      else refuse('socket.failed');
    }
  }
}

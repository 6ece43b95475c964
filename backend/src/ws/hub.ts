import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { DomainError } from '@scriptorium/infra/eventsourcing/decider';
import { HttpError } from '../http/errors.ts';
import { CLOSE_SHUTTING_DOWN, HEARTBEAT_INTERVAL_MS, type HeartbeatMessage, type SocketErrorMessage } from '../protocol/ws.ts';

export interface Connection {
  id: string;
  userId: string;
  clientId: string;
  socket: WebSocket;
  send(message: unknown): void;
  /** Sends an already serialised message: fan-out serialises once per event, not once per socket. */
  sendRaw(json: string): void;
}

/** A handler for one parsed client message; throwing sends an `error` message back, nothing else. */
export type MessageHandler = (connection: Connection, message: unknown) => Promise<void> | void;

const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/**
 * Owns every open socket: heartbeats, parsing, and dispatch to handlers that later features add.
 * A slow client whose send buffer grows past a bound is closed rather than allowed to grow memory.
 */
export class SocketHub {
  private readonly connections = new Map<string, Connection>();
  private readonly handlers: MessageHandler[] = [];
  private readonly closeListeners: Array<(connection: Connection) => void> = [];
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly log: Logger) {
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
    return [...this.connections.values()].filter((connection) => connection.userId === userId);
  }

  get size(): number {
    return this.connections.size;
  }

  accept(socket: WebSocket, _request: IncomingMessage, identity: { userId: string; clientId: string }): Connection {
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
    socket.on('message', (raw, isBinary) => void this.receive(connection, raw.toString(), isBinary));
    socket.on('close', () => {
      this.connections.delete(connection.id);
      for (const listener of this.closeListeners) listener(connection);
    });
    socket.on('error', (error) => this.log.warn({ err: error, clientId: connection.clientId }, 'socket error'));
    connection.send({ type: 'heartbeat', timestamp: new Date().toISOString() } satisfies HeartbeatMessage);
    return connection;
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
    const fail = (error_message: string) => connection.send({ type: 'error', error_message } satisfies SocketErrorMessage);
    if (isBinary) return fail('只接受 JSON 文本消息');
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      return fail('消息不是有效的 JSON');
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return fail('消息必须是 JSON 对象');
    if ((message as { type?: unknown }).type === 'heartbeat' || (message as { type?: unknown }).type === 'ping') return;
    try {
      for (const handler of this.handlers) await handler(connection, message);
    } catch (error) {
      this.log.info({ err: error, clientId: connection.clientId }, 'socket message refused');
      if (error instanceof z.ZodError) fail(`消息格式不正确: ${error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`);
      else fail(error instanceof DomainError || error instanceof HttpError ? error.message : '消息处理失败');
    }
  }
}

import type { WebSocket } from 'ws';
import { DomainError } from '@scriptorium/infra/eventsourcing/decider';
import type { EventStore, RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Logger } from '@scriptorium/infra/log';
import type { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import { engineerDecider } from '@scriptorium/domain/engineer/decide';
import type { EngineerService } from '@scriptorium/domain/engineer/service';
import { ENGINEER_PREFIX, engineerStream } from '@scriptorium/domain/engineer/session';
import { toEngineerWire } from '@scriptorium/domain/engineer/wire';
import { engineerClientMessageSchema, type EngineerSocketMessage } from '@scriptorium/domain/protocol/engineer';
import { anyErrorText, coded, type ErrorCode } from '@scriptorium/domain/protocol/errors';
import { issueCode } from '@scriptorium/domain/protocol/validation';
import { CLOSE_NOT_FOUND, CLOSE_SHUTTING_DOWN, CLOSE_UNAUTHORIZED, HEARTBEAT_INTERVAL_MS } from '@scriptorium/domain/protocol/ws';
import { closeRevokedSockets, type SocketRegistry } from './access.ts';
import { stillSignedIn, type Identity, type SignInCheck } from './hub.ts';
import { followLog, type LogFeed } from './logFeed.ts';

interface Watcher {
  socket: WebSocket;
  identity: Identity;
  lastSent: number;
  catchingUp: boolean;
  buffer: RecordedEvent[];
}

const send = (socket: WebSocket, message: EngineerSocketMessage) => {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
};

/**
 * The session socket (`/backend/api/ai-engineer/ws/sessions/{id}`), store-first like the
 * conversation gateway: it shows only what the log holds, and a socket opened with
 * `last_position` first receives every event of the session after it, then live ones, once each.
 */
export class EngineerGateway implements SocketRegistry<Watcher> {
  private readonly watchers = new Map<string, Set<Watcher>>();
  private processed = 0;
  private feed: LogFeed | undefined;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly events: EventStore,
    private readonly commands: CommandHandler,
    private readonly engineer: EngineerService,
    private readonly log: Logger,
    private readonly check: SignInCheck,
  ) {
    this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_INTERVAL_MS);
    this.heartbeat.unref();
  }

  async start(): Promise<void> {
    this.processed = await this.events.headPosition();
    this.feed = followLog(this.events, this.log, 'engineer', this.processed, (event) => this.publish(event));
  }

  async stop(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const set of this.watchers.values()) for (const watcher of set) watcher.socket.close(CLOSE_SHUTTING_DOWN, 'server shutting down');
    await this.feed?.stop();
  }

  /** Another user's session closes like a missing one. */
  async accept(socket: WebSocket, identity: Identity, sessionId: string, lastPosition: number | undefined): Promise<void> {
    const { userId } = identity;
    // Listening before the owner check loses no input sent meanwhile; the decider refuses another user's session itself.
    socket.on('message', (raw, isBinary) => void this.receive(socket, identity, sessionId, isBinary ? null : raw.toString()));
    const { state } = await this.commands.load(engineerDecider, engineerStream(sessionId));
    if (state.status === 'none' || state.ownerId !== userId) {
      socket.close(CLOSE_NOT_FOUND, 'session not found');
      return;
    }
    const watcher: Watcher = { socket, identity, lastSent: lastPosition ?? this.processed, catchingUp: true, buffer: [] };
    let set = this.watchers.get(sessionId);
    if (!set) this.watchers.set(sessionId, (set = new Set()));
    set.add(watcher);
    // setTimeout holds at most ~24.8 days, as in the hub.
    const expiry = setTimeout(() => this.reauthenticate([watcher], 'token expired'), Math.min(identity.expiresAt - Date.now(), 2 ** 31 - 1));
    expiry.unref();
    socket.on('close', () => {
      clearTimeout(expiry);
      set.delete(watcher);
      if (set.size === 0 && this.watchers.get(sessionId) === set) this.watchers.delete(sessionId);
    });
    try {
      if (lastPosition !== undefined) {
        for (const event of await this.events.readStream(engineerStream(sessionId))) if (event.position > lastPosition) this.deliver(watcher, event);
      }
      for (const event of watcher.buffer) this.deliver(watcher, event);
    } finally {
      watcher.buffer = [];
      watcher.catchingUp = false;
    }
    send(socket, { type: 'subscribed', session_id: sessionId, position: watcher.lastSent });
  }

  /** Closes the sockets whose sign-in no longer holds (signed out, deactivated, password changed, expired). */
  reauthenticate(watchers: Iterable<Watcher>, reason: string, code: number = CLOSE_UNAUTHORIZED): void {
    for (const watcher of watchers) watcher.socket.close(code, reason);
  }

  where(predicate: (identity: Identity) => boolean): Watcher[] {
    return [...this.watchers.values()].flatMap((set) => [...set].filter((watcher) => predicate(watcher.identity)));
  }

  private publish(event: RecordedEvent): void {
    this.processed = event.position;
    closeRevokedSockets(this, event);
    if (!event.streamId.startsWith(ENGINEER_PREFIX)) return;
    for (const watcher of this.watchers.get(event.streamId.slice(ENGINEER_PREFIX.length)) ?? []) {
      if (watcher.catchingUp) watcher.buffer.push(event);
      else this.deliver(watcher, event);
    }
  }

  private deliver(watcher: Watcher, event: RecordedEvent): void {
    if (event.position <= watcher.lastSent) return;
    watcher.lastSent = event.position;
    const wire = toEngineerWire(event);
    if (wire) send(watcher.socket, wire);
  }

  private async receive(socket: WebSocket, identity: Identity, sessionId: string, raw: string | null): Promise<void> {
    const refuse = (code: ErrorCode, params: Record<string, string | number> = {}, text = anyErrorText(code, params)) =>
      send(socket, { type: 'error', error_message: text, ...coded(code, params) });
    let message: unknown;
    try {
      if (raw === null) return refuse('socket.binary');
      message = JSON.parse(raw);
    } catch {
      return refuse('socket.invalid_json');
    }
    const parsed = engineerClientMessageSchema.safeParse(message);
    if (!parsed.success) {
      const first = issueCode(parsed.error.issues[0]!);
      return refuse('socket.invalid_message', { issues: first.msg });
    }
    if (parsed.data.type !== 'user_input') return;
    if (!(await stillSignedIn(this.check, identity, (reason, code = CLOSE_UNAUTHORIZED) => socket.close(code, reason)))) return;
    try {
      await this.engineer.issue(identity.userId, sessionId, { commandType: 'message', content: parsed.data.text, clientId: null });
    } catch (error) {
      if (error instanceof DomainError) return refuse(error.code as ErrorCode, { ...error.params }, error.message);
      this.log.warn({ err: error, sessionId }, 'engineer user input failed');
      refuse('socket.failed');
    }
  }

  private beat(): void {
    const timestamp = new Date().toISOString();
    for (const set of this.watchers.values()) for (const watcher of set) send(watcher.socket, { type: 'heartbeat', timestamp });
  }
}

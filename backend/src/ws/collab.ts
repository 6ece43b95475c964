import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import { DomainError } from '@scriptorium/infra/eventsourcing/decider';
import type { EventStore, RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Logger } from '@scriptorium/infra/log';
import type { ReadStore } from '@scriptorium/infra/readstore/port';
import { COLLAB_PREFIX, type CollabDocEvent, type CollabStepsAccepted } from '@scriptorium/domain/collabdoc/collabdoc';
import type { CollabService } from '@scriptorium/domain/collabdoc/service';
import {
  COLLAB_COLOURS,
  COLLAB_PRESENCE_TIMEOUT_MS,
  collabClientMessageSchema,
  type CollabAccess,
  type CollabPeer,
  type CollabSelection,
  type CollabSocketMessage,
} from '@scriptorium/domain/protocol/collab';
import { anyErrorText, coded, isErrorCode, type ErrorCode } from '@scriptorium/domain/protocol/errors';
import { issueCode } from '@scriptorium/domain/protocol/validation';
import { CLOSE_NOT_FOUND, CLOSE_SHUTTING_DOWN, CLOSE_UNAUTHORIZED, HEARTBEAT_INTERVAL_MS } from '@scriptorium/domain/protocol/ws';
import { displayNames, nearestSnapshot } from '../http/collab.ts';
import { closeRevokedSockets, type SocketRegistry } from './access.ts';
import type { Identity } from './hub.ts';
import { followLog, type LogFeed } from './logFeed.ts';

/** Frames a socket may have waiting: more closes it. */
const MAX_PENDING_FRAMES = 64;
const CLOSE_POLICY = 1008;

/** Closed when a member goes silent past the presence timeout: its editor reconnects and resumes. */
const CLOSE_SILENT = 4408;

interface Editor {
  socket: WebSocket;
  identity: Identity;
  docId: string;
  session: string;
  name: string;
  colour: number;
  access: CollabAccess;
  /** Steps this socket has been sent up to: the version its client stands on, once it applied them. */
  version: number;
  catchingUp: boolean;
  buffer: RecordedEvent[];
  selection: CollabSelection | null;
  selectionVersion: number;
  lastSeen: number;
}

const send = (socket: WebSocket, message: CollabSocketMessage) => {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
};

/** The same user gets the same colour on every screen. */
export function colourOf(userId: string): number {
  let hash = 0;
  for (const char of userId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % COLLAB_COLOURS;
}

/**
 * The socket of one shared document (`/backend/api/collab/ws/{docId}?version=N`), store-first like
 * the other gateways: steps reach a socket only from the log, in version order, once each, so every
 * api process serves every document; a socket opened with `version` first receives every batch after
 * it (what it missed while away), then live ones. Submitted batches are decided by the document's
 * aggregate; the sender hears `collab.accepted` or a coded `collab.rejected`. Presence (who is here,
 * their selection, their colour) is this process's memory only: it is not history, and a silent
 * member is dropped after `COLLAB_PRESENCE_TIMEOUT_MS`.
 */
export class CollabGateway implements SocketRegistry<Editor> {
  private readonly editors = new Map<string, Set<Editor>>();
  private processed = 0;
  private feed: LogFeed | undefined;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly events: EventStore,
    private readonly readStore: ReadStore,
    private readonly collab: CollabService,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_INTERVAL_MS);
    this.heartbeat.unref();
  }

  async start(): Promise<void> {
    this.processed = await this.events.headPosition();
    this.feed = followLog(this.events, this.log, 'collab', this.processed, (event) => this.publish(event));
  }

  async stop(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const set of this.editors.values()) for (const editor of set) editor.socket.close(CLOSE_SHUTTING_DOWN, 'server shutting down');
    await this.feed?.stop();
  }

  /** A document the user is not a member of closes like a missing one. */
  async accept(socket: WebSocket, identity: Identity, docId: string, version: number): Promise<void> {
    const { userId } = identity;
    // Frames are handled one at a time, in order, as the hub does: a batch is decided before the next is read.
    let queue = Promise.resolve();
    // Frames that arrive before the socket is caught up wait, then run in order.
    const joined: { editor: Editor | null } = { editor: null };
    const held: Array<[Buffer, boolean]> = [];
    let pending = 0;
    const handle = (editor: Editor, raw: Buffer, isBinary: boolean) => {
      // An honest editor has one batch in flight and throttled presence: a backlog this deep is a flood.
      if (++pending > MAX_PENDING_FRAMES) return socket.close(CLOSE_POLICY, 'too many frames');
      queue = queue.then(() => this.receive(editor, isBinary ? null : raw.toString())).finally(() => pending--);
    };
    socket.on('message', (raw: Buffer, isBinary: boolean) => {
      const { editor } = joined;
      if (!editor) {
        if (held.push([raw, isBinary]) > MAX_PENDING_FRAMES) socket.close(CLOSE_POLICY, 'too many frames');
      } else handle(editor, raw, isBinary);
    });
    let access: CollabAccess;
    let current: number;
    try {
      ({ access, version: current } = await this.collab.access(userId, docId));
    } catch {
      socket.close(CLOSE_NOT_FOUND, 'document not found');
      return;
    }
    if (version > current) {
      send(socket, { type: 'error', error_message: anyErrorText('collab.version_ahead', { version: current }), ...coded('collab.version_ahead', { version: current }) });
      socket.close(CLOSE_NOT_FOUND, 'version ahead of the document');
      return;
    }
    const name = (await displayNames(this.readStore, [userId])).get(userId) ?? userId;
    const created: Editor = {
      socket,
      identity,
      docId,
      session: randomUUID(),
      name,
      colour: colourOf(userId),
      access,
      version,
      catchingUp: true,
      buffer: [],
      selection: null,
      selectionVersion: version,
      lastSeen: this.now(),
    };
    let set = this.editors.get(docId);
    if (!set) this.editors.set(docId, (set = new Set()));
    set.add(created);
    const expiry = setTimeout(() => this.reauthenticate([created], 'token expired'), Math.min(identity.expiresAt - Date.now(), 2 ** 31 - 1));
    expiry.unref();
    socket.on('close', () => {
      clearTimeout(expiry);
      set.delete(created);
      if (set.size === 0 && this.editors.get(docId) === set) this.editors.delete(docId);
      else this.broadcastPresence(docId);
    });
    try {
      // From the nearest snapshot at or before the client's version: a long document is not read from its first step.
      const snapshot = await nearestSnapshot(this.readStore, docId, version);
      for (const batch of await this.collab.batches(docId, snapshot ? snapshot.revision + 1 : 0)) this.deliver(created, batch);
      for (const event of created.buffer) this.deliverRecorded(created, event);
    } finally {
      created.buffer = [];
      created.catchingUp = false;
    }
    send(socket, { type: 'collab.ready', doc_id: docId, version: created.version, access, session: created.session });
    joined.editor = created;
    this.broadcastPresence(docId);
    for (const [raw, isBinary] of held) handle(created, raw, isBinary);
  }

  reauthenticate(editors: Iterable<Editor>, reason: string): void {
    for (const editor of editors) editor.socket.close(CLOSE_UNAUTHORIZED, reason);
  }

  where(predicate: (identity: Identity) => boolean): Editor[] {
    return [...this.editors.values()].flatMap((set) => [...set].filter((editor) => predicate(editor.identity)));
  }

  private publish(event: RecordedEvent): void {
    this.processed = event.position;
    closeRevokedSockets(this, event);
    if (!event.streamId.startsWith(COLLAB_PREFIX)) return;
    const docId = event.streamId.slice(COLLAB_PREFIX.length);
    const typed = { type: event.type, data: event.data } as CollabDocEvent;
    if (typed.type === 'CollabMemberJoined') {
      // An upgraded reader may edit from now on, without reconnecting.
      for (const editor of this.editors.get(docId) ?? []) if (editor.identity.userId === typed.data.userId && editor.access === 'read') editor.access = typed.data.role;
      this.broadcastPresence(docId);
      return;
    }
    for (const editor of this.editors.get(docId) ?? []) {
      if (editor.catchingUp) editor.buffer.push(event);
      else this.deliverRecorded(editor, event);
    }
  }

  private deliverRecorded(editor: Editor, event: RecordedEvent): void {
    if (event.type === 'CollabStepsAccepted') this.deliver(editor, (event.data as CollabStepsAccepted['data']));
  }

  /** Sends the part of a batch past the socket's version; what it already has is never sent twice. */
  private deliver(editor: Editor, batch: CollabStepsAccepted['data']): void {
    const end = batch.version + batch.steps.length;
    if (end <= editor.version) return;
    const steps = batch.steps.slice(editor.version - batch.version);
    send(editor.socket, { type: 'collab.steps', doc_id: editor.docId, version: editor.version, steps, client_id: batch.clientId, user_id: batch.userId });
    editor.version = end;
  }

  private async receive(editor: Editor, raw: string | null): Promise<void> {
    const { socket, docId } = editor;
    if (socket.readyState !== socket.OPEN) return;
    const error = (code: ErrorCode, params: Record<string, string | number> = {}) => send(socket, { type: 'error', error_message: anyErrorText(code, params), ...coded(code, params) });
    let message: unknown;
    try {
      if (raw === null) return error('socket.binary');
      message = JSON.parse(raw);
    } catch {
      return error('socket.invalid_json');
    }
    const parsed = collabClientMessageSchema.safeParse(message);
    if (!parsed.success) return error('socket.invalid_message', { issues: issueCode(parsed.error.issues[0]!).msg });
    editor.lastSeen = this.now();
    const data = parsed.data;
    switch (data.type) {
      case 'ping':
      case 'heartbeat':
        return;
      case 'collab.presence':
        editor.selection = data.selection;
        editor.selectionVersion = data.version;
        this.broadcastPresence(docId);
        return;
      case 'collab.steps':
        try {
          const { version } = await this.collab.submit(editor.identity.userId, docId, { clientId: data.client_id, version: data.version, steps: data.steps });
          send(socket, { type: 'collab.accepted', doc_id: docId, version });
        } catch (failure) {
          const { version } = await this.collab.access(editor.identity.userId, docId).catch(() => ({ version: data.version }));
          // The sender always hears back, so its editor never waits on a batch nobody will answer.
          if (!(failure instanceof DomainError) || !isErrorCode(failure.code)) {
            this.log.warn({ err: failure, docId }, 'collab steps failed');
            return send(socket, { type: 'collab.rejected', doc_id: docId, version, error_message: anyErrorText('socket.failed'), code: 'socket.failed' });
          }
          send(socket, { type: 'collab.rejected', doc_id: docId, version, error_message: failure.message, ...coded(failure.code, failure.params) });
        }
        return;
      default:
        return;
    }
  }

  private broadcastPresence(docId: string): void {
    const set = this.editors.get(docId);
    if (!set) return;
    const peers: CollabPeer[] = [...set]
      .filter((editor) => !editor.catchingUp)
      .map((editor) => ({ session: editor.session, user_id: editor.identity.userId, name: editor.name, colour: editor.colour, access: editor.access, version: editor.selectionVersion, selection: editor.selection }));
    for (const editor of set) send(editor.socket, { type: 'collab.presence', doc_id: docId, peers });
  }

  private beat(): void {
    const timestamp = new Date().toISOString();
    const silentSince = this.now() - COLLAB_PRESENCE_TIMEOUT_MS;
    for (const set of this.editors.values()) {
      for (const editor of set) {
        if (editor.lastSeen < silentSince) editor.socket.close(CLOSE_SILENT, anyErrorText('collab.presence_timeout'));
        else send(editor.socket, { type: 'heartbeat', timestamp });
      }
    }
  }
}

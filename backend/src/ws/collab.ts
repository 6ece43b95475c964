import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import { DomainError } from '@scriptorium/infra/eventsourcing/decider';
import type { EventStore, RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Logger } from '@scriptorium/infra/log';
import type { PresenceAnnouncement, PresenceChannel } from '@scriptorium/infra/presence/port';
import type { ReadStore } from '@scriptorium/infra/readstore/port';
import { COLLAB_PREFIX, type CollabDocEvent, type CollabStepsAccepted } from '@scriptorium/domain/collabdoc/collabdoc';
import type { CollabService } from '@scriptorium/domain/collabdoc/service';
import {
  COLLAB_COLOURS,
  COLLAB_PRESENCE_THROTTLE_MS,
  COLLAB_PRESENCE_TIMEOUT_MS,
  collabClientMessageSchema,
  collabPeerSchema,
  type CollabAccess,
  type CollabPeer,
  type CollabSelection,
  type CollabSocketMessage,
} from '@scriptorium/domain/protocol/collab';
import { anyErrorText, coded, isErrorCode, type ErrorCode } from '@scriptorium/domain/protocol/errors';
import { issueCode } from '@scriptorium/domain/protocol/validation';
import { CLOSE_NOT_FOUND, CLOSE_REMOVED, CLOSE_SHUTTING_DOWN, CLOSE_UNAUTHORIZED, HEARTBEAT_INTERVAL_MS } from '@scriptorium/domain/protocol/ws';
import { displayNames, nearestSnapshot } from '../http/collab.ts';
import { closeRevokedSockets, type SocketRegistry } from './access.ts';
import { stillSignedIn, type Identity, type SignInCheck } from './hub.ts';
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

/** What another api process last said about one document: its whole list, until it says again or goes silent. */
interface RemotePeers {
  peers: CollabPeer[];
  expiresAt: number;
}

/** When this process last said a document's list, and the later saying already due, if any. */
interface Announcing {
  at: number;
  timer: NodeJS.Timeout | undefined;
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
 * their selection, their colour) is not history and stays out of the log: each process says its own
 * members of a document on the presence channel when they change (at most every
 * `COLLAB_PRESENCE_THROTTLE_MS`) and on every heartbeat, and shows its sockets its own members with
 * what the other processes last said. A silent member, and a process silent past
 * `COLLAB_PRESENCE_TIMEOUT_MS` (a dead one), drop out of the list.
 */
export class CollabGateway implements SocketRegistry<Editor> {
  private readonly editors = new Map<string, Set<Editor>>();
  private processed = 0;
  private feed: LogFeed | undefined;
  private readonly heartbeat: NodeJS.Timeout;
  /** By document, then by the process that said them. Kept only for documents with a member here. */
  private readonly remote = new Map<string, Map<string, RemotePeers>>();
  private readonly announcing = new Map<string, Announcing>();
  private unlisten: (() => void) | undefined;
  private stopped = false;
  /** A channel that is down is logged once when it fails and once when it works again, not on every beat. */
  private announceFailing = false;

  constructor(
    private readonly events: EventStore,
    private readonly readStore: ReadStore,
    private readonly collab: CollabService,
    private readonly presence: PresenceChannel,
    private readonly log: Logger,
    private readonly check: SignInCheck,
    private readonly now: () => number = Date.now,
  ) {
    this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_INTERVAL_MS);
    this.heartbeat.unref();
  }

  async start(): Promise<void> {
    this.processed = await this.events.headPosition();
    this.unlisten = this.presence.listen((announcement) => this.hear(announcement));
    this.feed = followLog(this.events, this.log, 'collab', this.processed, (event) => this.publish(event));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.heartbeat);
    this.unlisten?.();
    for (const { timer } of this.announcing.values()) clearTimeout(timer);
    // The other processes drop our members now rather than after the timeout.
    await Promise.all([...this.editors.keys()].map((docId) => this.presence.publish(docId, []).catch(() => undefined)));
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
      if (set.size === 0 && this.editors.get(docId) === set) {
        this.editors.delete(docId);
        this.remote.delete(docId);
        this.announce(docId);
      } else this.presenceChanged(docId);
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
    this.presenceChanged(docId);
    for (const [raw, isBinary] of held) handle(created, raw, isBinary);
  }

  reauthenticate(editors: Iterable<Editor>, reason: string, code: number = CLOSE_UNAUTHORIZED): void {
    for (const editor of editors) editor.socket.close(code, reason);
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
    const here = [...(this.editors.get(docId) ?? [])];
    switch (typed.type) {
      case 'CollabMemberJoined':
      case 'CollabMemberRoleChanged': {
        const { userId, role } = typed.data;
        // An upgraded reader may edit from now on, and a downgraded editor may not, without reconnecting.
        const changed = here.filter((editor) => editor.identity.userId === userId && editor.access !== 'owner' && editor.access !== role && (typed.type === 'CollabMemberRoleChanged' || editor.access === 'read'));
        for (const editor of changed) {
          editor.access = role;
          send(editor.socket, { type: 'collab.access', doc_id: docId, access: role });
        }
        this.presenceChanged(docId);
        return;
      }
      case 'CollabMemberRemoved':
      case 'CollabMemberLeft': {
        // Every process follows the log, so the member's sockets close wherever they are; their client does not reconnect.
        const reason = typed.type === 'CollabMemberRemoved' ? 'removed from the document' : 'left the document';
        for (const editor of here) if (editor.identity.userId === typed.data.userId) editor.socket.close(CLOSE_REMOVED, reason);
        return;
      }
      case 'CollabDocRenamed':
        for (const editor of here) send(editor.socket, { type: 'collab.renamed', doc_id: docId, title: typed.data.title });
        return;
      default:
    }
    for (const editor of here) {
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
    if (data.type === 'ping' || data.type === 'heartbeat') return;
    if (!(await stillSignedIn(this.check, editor.identity, (reason, code) => this.reauthenticate([editor], reason, code)))) return;
    switch (data.type) {
      case 'collab.presence':
        editor.selection = data.selection;
        editor.selectionVersion = data.version;
        this.presenceChanged(docId);
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

  private localPeers(docId: string): CollabPeer[] {
    return [...(this.editors.get(docId) ?? [])]
      .filter((editor) => !editor.catchingUp)
      .map((editor) => ({ session: editor.session, user_id: editor.identity.userId, name: editor.name, colour: editor.colour, access: editor.access, version: editor.selectionVersion, selection: editor.selection }));
  }

  /** A member here joined, left, moved or was upgraded: this process's sockets and the other processes hear of it. */
  private presenceChanged(docId: string): void {
    this.announce(docId);
    this.broadcastPresence(docId);
  }

  private broadcastPresence(docId: string): void {
    const set = this.editors.get(docId);
    if (!set) return;
    const peers = this.localPeers(docId);
    const sessions = new Set(peers.map((peer) => peer.session));
    for (const { peers: theirs } of this.remote.get(docId)?.values() ?? []) {
      for (const peer of theirs) {
        if (sessions.has(peer.session)) continue;
        sessions.add(peer.session);
        peers.push(peer);
      }
    }
    for (const editor of set) send(editor.socket, { type: 'collab.presence', doc_id: docId, peers });
  }

  /**
   * Says this process's members of a document on the channel: at once, then at most every
   * `COLLAB_PRESENCE_THROTTLE_MS`, the list as it is when the interval ends. An empty list (the last
   * member here left) is said too, so the others drop them without waiting for the timeout.
   */
  private announce(docId: string): void {
    if (this.stopped) return;
    const state = this.announcing.get(docId) ?? { at: Number.NEGATIVE_INFINITY, timer: undefined };
    if (state.timer) return;
    const wait = state.at + COLLAB_PRESENCE_THROTTLE_MS - Date.now();
    if (wait > 0) {
      state.timer = setTimeout(() => {
        state.timer = undefined;
        this.announce(docId);
      }, wait);
      state.timer.unref();
      this.announcing.set(docId, state);
      return;
    }
    const peers = this.localPeers(docId);
    state.at = Date.now();
    if (this.editors.has(docId)) this.announcing.set(docId, state);
    else this.announcing.delete(docId);
    this.presence.publish(docId, peers).then(
      () => {
        if (this.announceFailing) this.log.info('collab presence channel publishing again');
        this.announceFailing = false;
      },
      (error: unknown) => {
        if (!this.announceFailing) this.log.warn({ err: error, docId }, 'collab presence could not be published; other api processes will drop our members until it can');
        this.announceFailing = true;
      },
    );
  }

  /** Another process's list for a document: kept (replacing what it said before) only if a member here shows it. */
  private hear({ origin, topic: docId, peers }: PresenceAnnouncement): void {
    if (!this.editors.has(docId)) return;
    const parsed = collabPeerSchema.array().safeParse(peers);
    if (!parsed.success) {
      this.log.warn({ origin, docId, issue: parsed.error.issues[0]?.message }, 'collab presence from another process dropped: malformed peers');
      return;
    }
    let known = this.remote.get(docId);
    const newcomer = !known?.has(origin);
    if (parsed.data.length === 0) {
      if (newcomer) return;
      known!.delete(origin);
      if (known!.size === 0) this.remote.delete(docId);
    } else {
      if (!known) this.remote.set(docId, (known = new Map()));
      known.set(origin, { peers: parsed.data, expiresAt: this.now() + COLLAB_PRESENCE_TIMEOUT_MS });
      // A process new to this document has not heard our members yet: it hears them now, not at our next beat.
      if (newcomer) this.announce(docId);
    }
    this.broadcastPresence(docId);
  }

  private beat(): void {
    const timestamp = new Date().toISOString();
    const now = this.now();
    const silentSince = now - COLLAB_PRESENCE_TIMEOUT_MS;
    for (const [docId, known] of this.remote) {
      let dropped = false;
      for (const [origin, { expiresAt }] of known) {
        if (expiresAt > now) continue;
        known.delete(origin);
        dropped = true;
      }
      if (known.size === 0) this.remote.delete(docId);
      if (dropped) this.broadcastPresence(docId);
    }
    for (const docId of this.editors.keys()) this.announce(docId);
    for (const set of this.editors.values()) {
      for (const editor of set) {
        if (editor.lastSeen < silentSince) editor.socket.close(CLOSE_SILENT, anyErrorText('collab.presence_timeout'));
        else send(editor.socket, { type: 'heartbeat', timestamp });
      }
    }
  }
}

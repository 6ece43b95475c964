import { getVersion, receiveTransaction, sendableSteps } from 'prosemirror-collab';
import { Step } from 'prosemirror-transform';
import type { EditorView } from 'prosemirror-view';
import { fromCallback, type ActorRefFrom } from 'xstate';
import { collabSocketMessageSchema, collabSocketPath } from '@scriptorium/domain/protocol/collab';
import { collabSchema } from '@scriptorium/domain/protocol/collabSchema';
import { CLOSE_ACCOUNT_INACTIVE } from '@scriptorium/domain/protocol/socketCodes';
import { accountInactiveByServer } from '../api/client.ts';
import { browserTokens } from '../api/token.ts';
import { collabMachine, type CollabSend } from '../machines/collab.ts';

/** Closed by the client when the log it was sent has a gap: the reconnect resumes from the editor's version. */
const CLOSE_RESYNC = 4000;

export function collabSocketUrl(location: Pick<Location, 'protocol' | 'hostname' | 'host' | 'port'>, docId: string, token: string, version: number): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  // The Vite dev servers proxy HTTP only; the api listens on 8002.
  const host = location.port === '5173' || location.port === '5175' ? `${location.hostname}:8002` : location.host;
  return `${scheme}://${host}${collabSocketPath(docId)}?${new URLSearchParams({ token, version: String(version) })}`;
}

export type CollabActor = ActorRefFrom<typeof collabMachine>;

/** Tells the machine the editor holds steps the server has not confirmed: the batch it would submit now. */
export function announce(view: EditorView, actor: Pick<CollabActor, 'send'>): void {
  const sendable = sendableSteps(view.state);
  if (sendable) actor.send({ type: 'collab.changed', version: sendable.version, steps: sendable.steps.map((step) => step.toJSON()), clientId: String(sendable.clientID) });
}

/**
 * The machine wired to a real socket and a ProseMirror view: the socket opens at the editor's version
 * (so a reconnect receives exactly the steps it missed), messages are parsed with the protocol's
 * schemas, and steps from the log go into the editor through prosemirror-collab's `receiveTransaction`.
 */
export function collabLogic(docId: string, view: () => EditorView | null, openedAt: number) {
  let socket: WebSocket | null = null;
  return collabMachine.provide({
    actors: {
      socket: fromCallback<CollabSend>(({ sendBack, receive }) => {
        const current = view();
        const opened = new WebSocket(collabSocketUrl(location, docId, browserTokens.get() ?? '', current ? getVersion(current.state) : openedAt));
        socket = opened;
        opened.onmessage = (event) => {
          const parsed = collabSocketMessageSchema.safeParse(JSON.parse(String(event.data)));
          if (!parsed.success) return;
          const message = parsed.data;
          switch (message.type) {
            case 'collab.ready':
              return sendBack({ type: 'collab.ready', version: message.version, access: message.access, session: message.session });
            case 'collab.steps':
              return sendBack({ type: 'collab.steps', version: message.version, steps: message.steps, clientId: message.client_id });
            case 'collab.accepted':
              return sendBack({ type: 'collab.accepted', version: message.version });
            case 'collab.rejected':
              return sendBack({ type: 'collab.rejected', version: message.version, code: message.code, ...(message.params && { params: message.params }) });
            case 'collab.presence':
              return sendBack({ type: 'collab.presence', peers: message.peers });
            case 'collab.renamed':
              return sendBack({ type: 'collab.renamed', title: message.title });
            case 'collab.access':
              return sendBack({ type: 'collab.access', access: message.access });
            case 'heartbeat':
            case 'error':
              return sendBack({ type: 'collab.heartbeat' });
          }
        };
        opened.onclose = (event) => {
          if (event.code === CLOSE_ACCOUNT_INACTIVE) accountInactiveByServer();
          sendBack({ type: 'collab.closed', code: event.code });
        };
        receive((event) => {
          if (opened.readyState === WebSocket.OPEN) opened.send(JSON.stringify(event.data));
        });
        return () => {
          opened.onclose = null;
          opened.onmessage = null;
          opened.close(1000);
          if (socket === opened) socket = null;
        };
      }),
    },
    actions: {
      applySteps: (_, { version, steps, clientId }) => {
        const editor = view();
        if (!editor) return;
        const skip = getVersion(editor.state) - version;
        if (skip < 0) {
          socket?.close(CLOSE_RESYNC, 'version gap');
          return;
        }
        const fresh = steps.slice(skip).map((json) => Step.fromJSON(collabSchema, json));
        if (fresh.length > 0) editor.dispatch(receiveTransaction(editor.state, fresh, fresh.map(() => clientId), { mapSelectionBackward: true }));
      },
      // After the transition that asked for it: a machine does not take events in the middle of one.
      recheck: ({ self }) =>
        queueMicrotask(() => {
          const editor = view();
          if (editor) announce(editor, self);
        }),
    },
  });
}

/** The browser's own word on the network: offline drops the socket now, online reconnects without waiting out the delay. */
export function watchNetwork(actor: Pick<CollabActor, 'send'>): () => void {
  const offline = () => actor.send({ type: 'collab.offline' });
  const online = () => actor.send({ type: 'collab.online' });
  window.addEventListener('offline', offline);
  window.addEventListener('online', online);
  return () => {
    window.removeEventListener('offline', offline);
    window.removeEventListener('online', online);
  };
}

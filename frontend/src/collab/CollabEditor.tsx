import { useActorRef, useSelector } from '@xstate/react';
import { collab, getVersion, sendableSteps } from 'prosemirror-collab';
import { Node } from 'prosemirror-model';
import { EditorState, type Command } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import 'prosemirror-view/style/prosemirror.css';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CollabAccess, CollabDocDto, CollabPeer } from '@scriptorium/domain/protocol/collab';
import { collabSchema } from '@scriptorium/domain/protocol/collabSchema';
import { isErrorCode } from '@scriptorium/domain/protocol/errors';
import { catalogueText } from '../i18n/catalogue.ts';
import { collabConnection, type CollabContext } from '../machines/collab.ts';
import { BoldIcon, CodeIcon, Heading1Icon, Heading2Icon, ItalicIcon, ListIcon, ListOrderedIcon, PilcrowIcon, RefreshCwIcon, TextQuoteIcon, type IconComponent } from '../ui/icons.ts';
import { Tooltip } from '../ui/Tooltip.tsx';
import { editingPlugins, TOOLBAR } from './editorSetup.ts';
import { announce, collabLogic, watchNetwork, type CollabActor } from './live.ts';
import { presencePlugin, showPeers } from './presence.ts';

const TOOL_ICONS: Record<(typeof TOOLBAR)[number]['key'], IconComponent> = {
  bold: BoldIcon,
  italic: ItalicIcon,
  code: CodeIcon,
  h1: Heading1Icon,
  h2: Heading2Icon,
  paragraph: PilcrowIcon,
  bullets: ListIcon,
  numbers: ListOrderedIcon,
  quote: TextQuoteIcon,
};

/** One avatar per member here (a member with two tabs is one person), in their colour. */
export function PresenceAvatars({ peers, session }: { peers: CollabPeer[]; session: string | null }) {
  const { t } = useTranslation('collab');
  const people = [...new Map(peers.map((peer) => [peer.user_id, peer])).values()];
  const ownUser = peers.find((peer) => peer.session === session)?.user_id;
  return (
    <ul className="collab-avatars" aria-label={t('here')}>
      {people.map((peer) => (
        <li key={peer.user_id}>
          <Tooltip label={`${peer.name}${peer.user_id === ownUser ? ` ${t('you')}` : ''} · ${t(`access.${peer.access}`)}`}>
            <span className={`collab-avatar collab-colour-${peer.colour}`} tabIndex={0} aria-label={peer.name} data-user={peer.name}>
              {Array.from(peer.name)[0]?.toUpperCase() ?? '?'}
            </span>
          </Tooltip>
        </li>
      ))}
    </ul>
  );
}

function ConnectionBadge({ actor }: { actor: CollabActor }) {
  const { t } = useTranslation('collab');
  const connection = useSelector(actor, collabConnection);
  return (
    <span className={`collab-connection is-${connection}`} role="status" data-connection={connection}>
      <span className="connection-dot" aria-hidden="true" />
      {t(`connection.${connection}`)}
      {connection === 'failed' && (
        <button type="button" className="link-button" onClick={() => actor.send({ type: 'collab.retry' })}>
          <RefreshCwIcon size={14} /> {t('retry')}
        </button>
      )}
    </span>
  );
}

/**
 * The live editor of one shared document: a ProseMirror view with prosemirror-collab, its connection
 * machine (`machines/collab.ts`) wired to the document's socket, remote cursors as decorations, and
 * a toolbar. `header` renders the page's controls with the live state; `replacement` (the history)
 * shows in place of the editor while the editor stays connected underneath, so nothing typed is dropped.
 */
/** What the page's header shows live: the title and role as the socket last said them, and why the editor closed for good, if it did. */
export interface CollabLive {
  actor: CollabActor;
  peers: CollabPeer[];
  session: string | null;
  title: string;
  access: CollabAccess;
  closedBy: CollabContext['closedBy'];
  currentDoc: () => Node | null;
}

export function CollabEditor({ doc, header, replacement }: { doc: CollabDocDto; header: (live: CollabLive) => ReactNode; replacement?: ReactNode }) {
  const { t } = useTranslation('collab');
  const mount = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const [logic] = useState(() => collabLogic(doc.id, () => viewRef.current, doc.version));
  const actor = useActorRef(logic);
  const access = useSelector(actor, (snapshot) => snapshot.context.access ?? doc.access);
  const peers = useSelector(actor, (snapshot) => snapshot.context.peers);
  const session = useSelector(actor, (snapshot) => snapshot.context.session);
  const refusal = useSelector(actor, (snapshot) => snapshot.context.refusal);
  const title = useSelector(actor, (snapshot) => snapshot.context.title) ?? doc.title;
  const closedBy = useSelector(actor, (snapshot) => snapshot.context.closedBy);
  const [pending, setPending] = useState(0);
  const [version, setVersion] = useState(doc.version);
  // A removed member keeps what they see, but nothing more can be typed that could never be sent.
  const readOnly = access === 'read' || closedBy !== null;
  const readOnlyRef = useRef(readOnly);
  readOnlyRef.current = readOnly;
  const titleRef = useRef(title);
  titleRef.current = title;

  // Layout effect: the view exists before the actor's socket can deliver anything into it.
  useLayoutEffect(() => {
    const clientID = crypto.randomUUID().replaceAll('-', '').slice(0, 24);
    const state = EditorState.create({
      doc: Node.fromJSON(collabSchema, doc.doc),
      plugins: [...editingPlugins(), collab({ version: doc.version, clientID }), presencePlugin()],
    });
    const view = new EditorView(mount.current!, {
      state,
      editable: () => !readOnlyRef.current,
      attributes: () => ({ class: 'collab-prose', role: 'textbox', 'aria-multiline': 'true', 'aria-label': titleRef.current }),
      dispatchTransaction(tr) {
        const next = view.state.apply(tr);
        view.updateState(next);
        setPending(sendableSteps(next)?.steps.length ?? 0);
        setVersion(getVersion(next));
        if (tr.docChanged) announce(view, actor);
        if (tr.docChanged || tr.selectionSet) actor.send({ type: 'collab.select', version: getVersion(next), selection: { anchor: next.selection.anchor, head: next.selection.head } });
      },
    });
    viewRef.current = view;
    return () => {
      viewRef.current = null;
      view.destroy();
    };
    // The view is made once per document (the page keys this component by id).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => watchNetwork(actor), [actor]);

  useEffect(() => {
    const view = viewRef.current;
    if (view) view.dispatch(showPeers(view.state, peers.filter((peer) => peer.session !== session)));
  }, [peers, session]);

  useEffect(() => {
    viewRef.current?.setProps({});
  }, [readOnly, title]);

  const run = (command: Command) => {
    const view = viewRef.current;
    if (!view) return;
    command(view.state, view.dispatch, view);
    view.focus();
  };

  const refusalText = refusal && refusal.code !== 'collab.read_only' && isErrorCode(refusal.code) ? catalogueText(refusal.code, refusal.params) : null;

  return (
    <div className="collab-editor">
      <div className="collab-editor-head">
        {header({ actor, peers, session, title, access, closedBy, currentDoc: () => viewRef.current?.state.doc ?? null })}
        <span className="muted collab-version">{t('version', { version })}</span>
        <ConnectionBadge actor={actor} />
        {pending > 0 && <span className="muted collab-pending">{t('pending', { count: pending })}</span>}
      </div>
      {closedBy === 'removed' ? (
        <p className="collab-notice is-error" role="alert">
          {t('removed')}
        </p>
      ) : (
        readOnly && (
          <p className="collab-notice" role="note">
            {t('readOnly')}
          </p>
        )
      )}
      {refusalText && (
        <p className="collab-notice is-error" role="alert">
          {refusalText}
        </p>
      )}
      {replacement}
      {!readOnly && !replacement && (
        <div className="collab-toolbar" role="toolbar" aria-label={t('toolbar.label')}>
          {TOOLBAR.map(({ key, command }) => {
            const Glyph = TOOL_ICONS[key];
            return (
              <Tooltip key={key} label={t(`toolbar.${key}`)}>
                <button type="button" className="icon-button" aria-label={t(`toolbar.${key}`)} onMouseDown={(event) => event.preventDefault()} onClick={() => run(command)}>
                  <Glyph size={16} />
                </button>
              </Tooltip>
            );
          })}
        </div>
      )}
      <div className="collab-page-sheet" ref={mount} hidden={replacement !== undefined} />
    </div>
  );
}

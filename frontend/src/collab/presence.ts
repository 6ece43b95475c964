import type { CollabPeer } from '@scriptorium/domain/protocol/collab';
import type { Node } from 'prosemirror-model';
import { Plugin, PluginKey, type EditorState, type Transaction } from 'prosemirror-state';
import { Decoration, DecorationSet } from 'prosemirror-view';

interface PresenceState {
  /** Everyone else here, their selections mapped through the edits made since they said them. */
  peers: CollabPeer[];
  decorations: DecorationSet;
}

export const presenceKey = new PluginKey<PresenceState>('collab-presence');

const clamp = (doc: Node, pos: number) => Math.max(0, Math.min(pos, doc.content.size));

function cursor(peer: CollabPeer): HTMLElement {
  const caret = document.createElement('span');
  caret.className = `collab-caret collab-colour-${peer.colour}`;
  caret.setAttribute('aria-hidden', 'true');
  const label = document.createElement('span');
  label.className = 'collab-caret-label';
  label.textContent = peer.name;
  caret.append(label);
  return caret;
}

function decorate(doc: Node, peers: CollabPeer[]): DecorationSet {
  const decorations: Decoration[] = [];
  for (const peer of peers) {
    if (!peer.selection) continue;
    const anchor = clamp(doc, peer.selection.anchor);
    const head = clamp(doc, peer.selection.head);
    if (anchor !== head) decorations.push(Decoration.inline(Math.min(anchor, head), Math.max(anchor, head), { class: `collab-selection collab-colour-${peer.colour}` }));
    decorations.push(Decoration.widget(head, () => cursor(peer), { key: `${peer.session}:${peer.colour}:${peer.name}`, side: -1, ignoreSelection: true }));
  }
  return DecorationSet.create(doc, decorations);
}

/** Remote cursors and selections, each in its member's colour, drawn as decorations that follow the text as it changes. */
export function presencePlugin(): Plugin<PresenceState> {
  return new Plugin<PresenceState>({
    key: presenceKey,
    state: {
      init: (_, state) => ({ peers: [], decorations: DecorationSet.create(state.doc, []) }),
      apply(tr: Transaction, value: PresenceState, _old: EditorState, state: EditorState): PresenceState {
        const peers = tr.getMeta(presenceKey) as CollabPeer[] | undefined;
        if (peers) return { peers, decorations: decorate(state.doc, peers) };
        if (!tr.docChanged) return value;
        const mapped = value.peers.map((peer) =>
          peer.selection ? { ...peer, selection: { anchor: tr.mapping.map(peer.selection.anchor), head: tr.mapping.map(peer.selection.head) } } : peer,
        );
        return { peers: mapped, decorations: value.decorations.map(tr.mapping, tr.doc) };
      },
    },
    props: { decorations: (state) => presenceKey.getState(state)?.decorations },
  });
}

/** The transaction that shows `peers` (everyone but this editor). */
export const showPeers = (state: EditorState, peers: CollabPeer[]): Transaction => state.tr.setMeta(presenceKey, peers).setMeta('addToHistory', false);

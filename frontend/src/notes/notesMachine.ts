import { assign, cancel, enqueueActions, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { DropPosition, NoteSummary } from './api.ts';
import { errorText } from '../machines/errorText.ts';
import { ancestors, hiddenIds, toggleSelection } from './tree.ts';

/**
 * How long a deleted note waits behind its undo toast before the server is told (the toast shows as
 * long). The server has no restore, so nothing is sent before; the count stops while the user points
 * at the toast or focuses it.
 */
export const UNDO_WINDOW_MS = 5_000;

/** One change to the server's tree; they go one at a time, in the order the user made them. */
export type NoteWrite =
  | { kind: 'create'; name: string; parentId: string | null; reveal: readonly string[] }
  | { kind: 'rename'; id: string; name: string; before: string }
  | { kind: 'move'; id: string; targetId: string | null; position: DropPosition }
  | { kind: 'remove'; id: string };

export type NoteWriteResult =
  | { kind: 'create'; note: NoteSummary }
  | { kind: 'rename'; note: NoteSummary }
  | { kind: 'move'; notes: NoteSummary[] }
  | { kind: 'remove'; deleted: string[] };

export type TreeUpdate = (notes: readonly NoteSummary[]) => NoteSummary[];

/** Where a hidden note's delete stands: counting down, held while the toast is in use, or sent. */
export type PendingPhase = 'counting' | 'held' | 'sending';

export interface NotesContext {
  currentId: string | null;
  selected: ReadonlySet<string>;
  expanded: ReadonlySet<string>;
  /** The note whose name is being edited in the tree. */
  editingId: string | null;
  /** Notes deleted in the tree but not yet on the server, hidden with their descendants meanwhile. */
  pendingDelete: Readonly<Record<string, PendingPhase>>;
  writes: readonly NoteWrite[];
  /** The last change the server refused, for the sidebar to say why. */
  error: string | null;
}

type Tree = { notes: readonly NoteSummary[] };

export type NotesEvent =
  /** The tree as the query cache now holds it (fetched, or changed by a write). */
  | ({ type: 'notes.loaded' } & Tree)
  | ({ type: 'notes.open'; id: string } & Tree)
  | { type: 'notes.toggleExpanded'; id: string }
  | ({ type: 'notes.create'; name: string; parentId: string | null } & Tree)
  | { type: 'notes.renameStart'; id: string }
  | { type: 'notes.renameCancel' }
  | { type: 'notes.rename'; id: string; name: string; before: string }
  | { type: 'notes.move'; id: string; targetId: string | null; position: DropPosition }
  | ({ type: 'notes.delete'; id: string } & Tree)
  | { type: 'notes.undo'; id: string }
  | { type: 'notes.deleteHold'; id: string }
  | { type: 'notes.deleteResume'; id: string }
  /** The toast was closed without undo: no reason to wait any longer. */
  | { type: 'notes.deleteNow'; id: string }
  | { type: 'notes.deleteDue'; id: string }
  /** The notes picked before (the selection is kept across visits) are shown, even below a collapsed note. */
  | ({ type: 'notes.selectStart' } & Tree)
  /** `keep` holds the selection while an extraction is using it (spec §4). */
  | { type: 'notes.selectEnd'; keep: boolean }
  /** The extraction that held the selection is over: outside selection mode, nothing holds it now. */
  | { type: 'notes.extractionEnded' }
  | ({ type: 'notes.toggleSelected'; id: string; on: boolean } & Tree)
  | { type: 'notes.errorDismissed' };

export interface NotesInput {
  currentId: string | null;
  selected: readonly string[];
  /** The notes the user had open in the tree before the page was loaded. */
  expanded?: readonly string[];
}

const undoTimer = (id: string) => `undo:${id}`;

const renamed =
  (id: string, name: string): TreeUpdate =>
  (notes) =>
    notes.map((note) => (note.id === id ? { ...note, name } : note));

/** The cached tree after the server did a write. */
function treeAfter(result: NoteWriteResult): TreeUpdate {
  switch (result.kind) {
    case 'create':
      return (notes) => [...notes, result.note];
    case 'rename':
      return (notes) => notes.map((note) => (note.id === result.note.id ? result.note : note));
    case 'move':
      return () => result.notes;
    case 'remove': {
      const gone = new Set(result.deleted);
      return (notes) => notes.filter((note) => !gone.has(note.id));
    }
  }
}

/** The cached tree after the server refused a write: a rename shown at once is taken back; nothing else was shown. */
const treeReverted = (write: NoteWrite | undefined): TreeUpdate | null => (write?.kind === 'rename' ? renamed(write.id, write.before) : null);

const pendingIds = (context: NotesContext): Set<string> => new Set(Object.keys(context.pendingDelete));

const without = <T>(record: Readonly<Record<string, T>>, id: string): Record<string, T> => Object.fromEntries(Object.entries(record).filter(([key]) => key !== id));

/** The first root the tree still shows, where the editor goes when its note disappears. */
const firstVisibleRoot = (notes: readonly NoteSummary[], hidden: ReadonlySet<string>): string | null => notes.find((note) => note.parent_id === null && !hidden.has(note.id))?.id ?? null;

/**
 * The note tree's UI: the current note, what is expanded, renamed and selected, and deleting with
 * undo. The tree itself is server data in the query cache; events that need it carry it, and the
 * machine changes it only through `updateTree` (the live wiring writes the cache).
 */
export const notesMachine = setup({
  types: {
    context: {} as NotesContext,
    events: {} as NotesEvent,
    input: {} as NotesInput,
  },
  actors: {
    // The live wiring (notes/live.ts) provides the server.
    write: fromPromise<NoteWriteResult, NoteWrite>(() => Promise.reject(new Error('the server is not available here'))),
  },
  delays: {
    undoWindow: UNDO_WINDOW_MS,
  },
  guards: {
    queued: ({ context }) => context.writes.length > 0,
    undoable: ({ context, event }) => 'id' in event && (context.pendingDelete[event.id] === 'counting' || context.pendingDelete[event.id] === 'held'),
    counting: ({ context, event }) => 'id' in event && context.pendingDelete[event.id] === 'counting',
    held: ({ context, event }) => 'id' in event && context.pendingDelete[event.id] === 'held',
    keepSelection: ({ event }) => event.type === 'notes.selectEnd' && event.keep,
  },
  actions: {
    // The live wiring applies it to the query cache; null means nothing changes.
    updateTree: (_, _params: { update: TreeUpdate | null }) => undefined,
    reconcile: assign(({ context }, params: Tree & { reveal: boolean }) => {
      const known = new Set(params.notes.map((note) => note.id));
      const hidden = hiddenIds(params.notes, pendingIds(context));
      const currentId = context.currentId && known.has(context.currentId) && !hidden.has(context.currentId) ? context.currentId : firstVisibleRoot(params.notes, hidden);
      const selected = [...context.selected].filter((id) => known.has(id));
      const reveal = params.reveal || currentId !== context.currentId;
      return {
        currentId,
        ...(selected.length !== context.selected.size && { selected: new Set(selected) }),
        ...(reveal && currentId && { expanded: new Set([...context.expanded, ...ancestors(params.notes, currentId)]) }),
      };
    }),
    open: assign(({ context }, params: Tree & { id: string }) => ({ currentId: params.id, expanded: new Set([...context.expanded, ...ancestors(params.notes, params.id)]) })),
    toggleExpanded: assign({
      expanded: ({ context }, id: string) => {
        const expanded = new Set(context.expanded);
        if (expanded.has(id)) expanded.delete(id);
        else expanded.add(id);
        return expanded;
      },
    }),
    enqueue: assign({ writes: ({ context }, write: NoteWrite) => [...context.writes, write] }),
    dequeue: assign({ writes: ({ context }) => context.writes.slice(1) }),
    hide: assign(({ context }, params: Tree & { id: string }) => {
      const pendingDelete = { ...context.pendingDelete, [params.id]: 'counting' as const };
      const hidden = hiddenIds(params.notes, new Set(Object.keys(pendingDelete)));
      const currentId = context.currentId && hidden.has(context.currentId) ? firstVisibleRoot(params.notes, hidden) : context.currentId;
      return { pendingDelete, currentId };
    }),
    setPhase: assign({ pendingDelete: ({ context }, params: { id: string; phase: PendingPhase }) => ({ ...context.pendingDelete, [params.id]: params.phase }) }),
    show: assign({ pendingDelete: ({ context }, id: string) => without(context.pendingDelete, id) }),
    startUndoTimer: enqueueActions(({ enqueue }, id: string) => enqueue.raise({ type: 'notes.deleteDue', id }, { id: undoTimer(id), delay: 'undoWindow' })),
    stopUndoTimer: cancel((_, id: string) => undoTimer(id)),
    applied: assign(({ context }, result: NoteWriteResult) => {
      const write = context.writes[0];
      switch (result.kind) {
        case 'create':
          return { currentId: result.note.id, editingId: result.note.id, expanded: new Set([...context.expanded, ...(write?.kind === 'create' ? write.reveal : [])]) };
        case 'rename':
          return {};
        case 'move':
          return write?.kind === 'move' && write.position === 'inside' && write.targetId ? { expanded: new Set([...context.expanded, write.targetId]) } : {};
        case 'remove': {
          const gone = new Set(result.deleted);
          return {
            pendingDelete: write?.kind === 'remove' ? without(context.pendingDelete, write.id) : context.pendingDelete,
            selected: new Set([...context.selected].filter((id) => !gone.has(id))),
            currentId: context.currentId && gone.has(context.currentId) ? null : context.currentId,
          };
        }
      }
    }),
    // A refused change is undone where the user sees it (the old name is put back by `treeReverted`).
    refused: assign(({ context }, params: { error: unknown }) => {
      const write = context.writes[0];
      return { error: errorText(params.error), ...(write?.kind === 'remove' && { pendingDelete: without(context.pendingDelete, write.id) }) };
    }),
    toggleSelected: assign({ selected: ({ context }, params: Tree & { id: string; on: boolean }) => toggleSelection(params.notes, context.selected, params.id, params.on) }),
    revealSelected: assign({ expanded: ({ context }, params: Tree) => new Set([...context.expanded, ...[...context.selected].flatMap((id) => ancestors(params.notes, id))]) }),
    clearSelection: assign({ selected: () => new Set<string>() }),
  },
}).createMachine({
  id: 'notes',
  context: ({ input }) => ({
    currentId: input.currentId,
    selected: new Set(input.selected),
    expanded: new Set(input.expanded),
    editingId: null,
    pendingDelete: {},
    writes: [],
    error: null,
  }),
  type: 'parallel',
  on: {
    'notes.open': { actions: { type: 'open', params: ({ event }) => event } },
    'notes.toggleExpanded': { actions: { type: 'toggleExpanded', params: ({ event }) => event.id } },
    'notes.create': {
      actions: {
        type: 'enqueue',
        params: ({ event }) => ({ kind: 'create', name: event.name, parentId: event.parentId, reveal: event.parentId ? [event.parentId, ...ancestors(event.notes, event.parentId)] : [] }),
      },
    },
    'notes.renameStart': { actions: assign({ editingId: ({ event }) => event.id }) },
    'notes.renameCancel': { actions: assign({ editingId: null }) },
    // Shown at once; taken back if the server refuses.
    'notes.rename': {
      actions: [
        assign({ editingId: null }),
        { type: 'updateTree', params: ({ event }) => ({ update: renamed(event.id, event.name) }) },
        { type: 'enqueue', params: ({ event }) => ({ kind: 'rename', id: event.id, name: event.name, before: event.before }) },
      ],
    },
    'notes.move': { actions: { type: 'enqueue', params: ({ event }) => ({ kind: 'move', id: event.id, targetId: event.targetId, position: event.position }) } },
    'notes.delete': { actions: [{ type: 'hide', params: ({ event }) => event }, { type: 'startUndoTimer', params: ({ event }) => event.id }] },
    'notes.undo': { guard: 'undoable', actions: [{ type: 'stopUndoTimer', params: ({ event }) => event.id }, { type: 'show', params: ({ event }) => event.id }] },
    'notes.deleteHold': { guard: 'counting', actions: [{ type: 'stopUndoTimer', params: ({ event }) => event.id }, { type: 'setPhase', params: ({ event }) => ({ id: event.id, phase: 'held' }) }] },
    // The window starts again in full, so the undo is never gone the moment the pointer leaves.
    'notes.deleteResume': { guard: 'held', actions: [{ type: 'setPhase', params: ({ event }) => ({ id: event.id, phase: 'counting' }) }, { type: 'startUndoTimer', params: ({ event }) => event.id }] },
    'notes.deleteNow': {
      guard: 'undoable',
      actions: [{ type: 'stopUndoTimer', params: ({ event }) => event.id }, { type: 'setPhase', params: ({ event }) => ({ id: event.id, phase: 'sending' }) }, { type: 'enqueue', params: ({ event }) => ({ kind: 'remove', id: event.id }) }],
    },
    'notes.deleteDue': { guard: 'counting', actions: [{ type: 'setPhase', params: ({ event }) => ({ id: event.id, phase: 'sending' }) }, { type: 'enqueue', params: ({ event }) => ({ kind: 'remove', id: event.id }) }] },
    'notes.toggleSelected': { actions: { type: 'toggleSelected', params: ({ event }) => event } },
    'notes.errorDismissed': { actions: assign({ error: null }) },
  },
  states: {
    tree: {
      initial: 'waiting',
      states: {
        // The first tree shown opens the way to the current note.
        waiting: { on: { 'notes.loaded': { target: 'shown', actions: { type: 'reconcile', params: ({ event }) => ({ notes: event.notes, reveal: true }) } } } },
        shown: { on: { 'notes.loaded': { actions: { type: 'reconcile', params: ({ event }) => ({ notes: event.notes, reveal: false }) } } } },
      },
    },
    selection: {
      initial: 'browsing',
      states: {
        browsing: {
          on: {
            'notes.selectStart': { target: 'selecting', actions: { type: 'revealSelected', params: ({ event }) => ({ notes: event.notes }) } },
            'notes.extractionEnded': { actions: 'clearSelection' },
          },
        },
        selecting: {
          on: { 'notes.selectEnd': [{ guard: 'keepSelection', target: 'browsing' }, { target: 'browsing', actions: 'clearSelection' }] },
        },
      },
    },
    server: {
      initial: 'idle',
      states: {
        idle: { always: { guard: 'queued', target: 'writing' } },
        writing: {
          invoke: {
            src: 'write',
            input: ({ context }) => context.writes[0]!,
            onDone: {
              target: 'idle',
              actions: [{ type: 'updateTree', params: ({ event }) => ({ update: treeAfter(event.output) }) }, { type: 'applied', params: ({ event }) => event.output }, 'dequeue'],
            },
            onError: {
              target: 'idle',
              actions: [{ type: 'updateTree', params: ({ context }) => ({ update: treeReverted(context.writes[0]) }) }, { type: 'refused', params: ({ event }) => ({ error: event.error }) }, 'dequeue'],
            },
          },
        },
      },
    },
  },
});

export type NotesRef = ActorRefFrom<typeof notesMachine>;
export type NotesSnapshot = SnapshotFrom<typeof notesMachine>;

/** The notes the tree hides while their delete waits: each pending note and everything below it. */
export const hiddenNotes = (notes: readonly NoteSummary[], context: NotesContext): Set<string> => hiddenIds(notes, pendingIds(context));

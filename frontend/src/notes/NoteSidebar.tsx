import { useEffect, useRef, useState, type CSSProperties, type DragEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { DropPosition, NoteSummary } from './api.ts';
import { ExtractionDialog } from '../cognition/ExtractionDialog.tsx';
import { noteExtractionCheck } from '../cognition/noteExtraction.ts';
import { useCognitionExtraction } from '../cognition/useCognitionExtraction.ts';
import { useAuth } from '../app/auth/index.ts';
import { CheckIcon, SearchIcon, ChevronDownIcon, ChevronRightIcon, EllipsisIcon, FileTextIcon, GlobeIcon, LightbulbIcon, PenLineIcon, PlusIcon, SparklesIcon, Trash2Icon } from '../ui/icons.ts';
import { ContextMenuArea, Menu, type MenuItem } from '../ui/Menu.tsx';
import { useToast } from '../ui/Toast.tsx';
import { catalogueText } from '../i18n/catalogue.ts';
import { Tooltip } from '../ui/Tooltip.tsx';
import { useCloseSidebarOverlay } from '../ui/sidebarOverlay.ts';
import { notesActor, useNoteTree, useNotesUi, useSelecting } from './live.ts';
import { hiddenNotes, UNDO_WINDOW_MS } from './notesMachine.ts';
import { buildTree, canDrop, cleanName, descendants, dropPosition, hiddenIds, keyboardMove, searchNotes, sharedThrough, visibleRows, type MoveKey, type TreeNode } from './tree.ts';
import './notes.css';

type Drag = { id: string; over: string | null; position: DropPosition } | null;

/**
 * The note sidebar (spec 02 §2): a tree (one tab stop; arrows move and expand, Enter opens, F2
 * renames, Delete deletes with an undo toast, Space selects in selection mode) with a menu per note
 * (button or right click: add child, rename, delete), drag and drop before, after or inside a note,
 * and a selection mode whose 1–5 documents can be turned into a cognition.
 */
export function NoteSidebar({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation('notes');
  const { t: tc } = useTranslation('cognition');
  const { t: tu } = useTranslation();
  const auth = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const closeSidebar = useCloseSidebarOverlay();
  const state = useNotesUi();
  const selecting = useSelecting();
  const extraction = useCognitionExtraction();
  const toast = useToast();
  const [drag, setDrag] = useState<Drag>(null);
  const [focusedId, setFocusedId] = useState<string | null>(null);
  // What a keyboard move said, read out by screen readers (the tree itself does not announce a move).
  const [announcement, setAnnouncement] = useState('');
  const [query, setQuery] = useState('');
  // A note moved by keyboard is drawn anew in its new place: the focus follows it there.
  const follow = useRef<string | null>(null);
  const treeRef = useRef<HTMLUListElement>(null);
  const signedIn = auth.status === 'authenticated';
  const tree = useNoteTree(signedIn);
  const send = notesActor.send.bind(notesActor);
  // An extraction holds the notes it was started with; once it is over they are nobody's selection.
  const extracting = useRef(extraction.busy);
  useEffect(() => {
    if (extracting.current && !extraction.busy) notesActor.send({ type: 'notes.extractionEnded' });
    extracting.current = extraction.busy;
  }, [extraction.busy]);

  useEffect(() => {
    const id = follow.current;
    const row = id === null ? null : treeRef.current?.querySelector<HTMLElement>(`[data-note-id="${CSS.escape(id)}"]`);
    // Not drawn yet: a note moved into another waits for that one to open.
    if (!id || !row) return;
    follow.current = null;
    setFocusedId(id);
    if (row !== document.activeElement) row.focus();
  }, [tree.data, state.expanded]);

  if (auth.status === 'pending') return <span className="spinner spinner-small" />;
  if (!signedIn) {
    return (
      <div className="note-sidebar note-sidebar-empty">
        <p className="muted">{t('signIn')}</p>
        <Link className="button button-primary button-small" to={`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`}>
          {t('login')}
        </Link>
      </div>
    );
  }

  const notes = tree.data ?? [];
  const hidden = hiddenNotes(notes, state);
  const found = searchNotes(notes, query);
  const roots = buildTree(notes.filter((note) => !hidden.has(note.id) && (found === null || found.has(note.id))));
  // A search opens the way to every note it found; the user's own expansion is back when it is cleared.
  const expanded = found ?? state.expanded;
  const rows = visibleRows(roots, expanded);
  const tabStop = rows.some((row) => row.id === focusedId) ? focusedId : (rows.find((row) => row.id === state.currentId)?.id ?? rows[0]?.id ?? null);
  const check = noteExtractionCheck(state.selected.size);

  const create = (parentId: string | null) => {
    send({ type: 'notes.create', name: t('newNote'), parentId, notes });
    if (!compact && !location.pathname.startsWith('/note')) navigate('/note');
    closeSidebar();
  };
  const openNote = (id: string) => {
    send({ type: 'notes.open', id, notes });
    if (!compact && !location.pathname.startsWith('/note')) navigate('/note');
    closeSidebar();
  };
  const focusRow = (id: string) => {
    setFocusedId(id);
    treeRef.current?.querySelector<HTMLElement>(`[data-note-id="${CSS.escape(id)}"]`)?.focus();
  };
  // The server cannot restore a note: the machine sends the delete once the undo window has passed,
  // and the toast offering the undo counts (and pauses) with it.
  const remove = (note: NoteSummary) => {
    const below = descendants(notes, note.id).size;
    send({ type: 'notes.delete', id: note.id, notes });
    toast({
      title: below > 0 ? t('deletedTree', { name: note.name, count: below }) : t('deleted', { name: note.name }),
      duration: UNDO_WINDOW_MS,
      action: { label: tu('ui.undo'), altText: t('undoDelete', { name: note.name }), onAction: () => send({ type: 'notes.undo', id: note.id }) },
      onPause: () => send({ type: 'notes.deleteHold', id: note.id }),
      onResume: () => send({ type: 'notes.deleteResume', id: note.id }),
      onClosed: (reason) => reason === 'dismissed' && send({ type: 'notes.deleteNow', id: note.id }),
    });
  };
  const menuItems = (note: NoteSummary): MenuItem[] => [
    { label: t('menu.addChild'), icon: <PlusIcon size={14} />, onSelect: () => send({ type: 'notes.create', name: t('newNote'), parentId: note.id, notes }) },
    { label: t('menu.rename'), icon: <PenLineIcon size={14} />, onSelect: () => send({ type: 'notes.renameStart', id: note.id }) },
    { label: t('menu.delete'), icon: <Trash2Icon size={14} />, danger: true, onSelect: () => remove(note) },
  ];
  const extract = () => {
    if (!check.enabled) {
      if (check.alert) toast({ title: tc(`notes.${check.alert}`), tone: 'error' });
      return;
    }
    extraction.start({ kind: 'notes', noteIds: [...state.selected] });
  };

  const onTreeKey = (event: KeyboardEvent<HTMLUListElement>) => {
    const target = event.target as HTMLElement;
    if (target.closest('input')) return;
    const id = target.closest<HTMLElement>('[role="treeitem"]')?.dataset.noteId;
    const index = rows.findIndex((row) => row.id === id);
    const row = rows[index];
    const note = notes.find((candidate) => candidate.id === id);
    if (!row || !note) return;
    const open = expanded.has(row.id);
    const act = (action: () => void) => {
      event.preventDefault();
      event.stopPropagation();
      action();
    };
    const to = (next: { id: string } | undefined) => next && focusRow(next.id);
    if (event.altKey && ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'].includes(event.key)) return act(() => moveByKey(note, event.key as MoveKey));
    switch (event.key) {
      case 'ArrowDown':
        return act(() => to(rows[index + 1]));
      case 'ArrowUp':
        return act(() => to(rows[index - 1]));
      case 'Home':
        return act(() => to(rows[0]));
      case 'End':
        return act(() => to(rows.at(-1)));
      case 'ArrowRight':
        return act(() => row.hasChildren && (open ? to(rows[index + 1]) : send({ type: 'notes.toggleExpanded', id: row.id })));
      case 'ArrowLeft':
        return act(() => (row.hasChildren && open ? send({ type: 'notes.toggleExpanded', id: row.id }) : row.parentId !== null && to(rows.find((candidate) => candidate.id === row.parentId))));
      case 'Enter':
        return act(() => openNote(row.id));
      case 'F2':
        return act(() => send({ type: 'notes.renameStart', id: row.id }));
      case ' ':
        return selecting ? act(() => send({ type: 'notes.toggleSelected', id: row.id, on: !state.selected.has(row.id), notes })) : undefined;
      case 'Delete':
        return act(() => {
          const gone = hiddenIds(notes, new Set([row.id]));
          const next = rows.slice(index + 1).find((candidate) => !gone.has(candidate.id)) ?? rows[index - 1];
          remove(note);
          if (next) focusRow(next.id);
        });
    }
  };

  const moveByKey = (note: NoteSummary, key: MoveKey) => {
    const move = keyboardMove(roots, note.id, key);
    const target = move && notes.find((candidate) => candidate.id === move.targetId);
    if (!move || !target) return setAnnouncement(t('moved.nowhere', { name: note.name }));
    send({ type: 'notes.move', id: note.id, targetId: move.targetId, position: move.position });
    follow.current = note.id;
    setAnnouncement(t(`moved.${move.position}`, { name: note.name, target: target.name }));
  };

  /** `targetId` null: the tree's empty space, the root level. A note dropped onto itself or below itself stays where it was. */
  const onDrop = (event: DragEvent, targetId: string | null) => {
    event.preventDefault();
    event.stopPropagation();
    const current = drag;
    setDrag(null);
    if (!current) return;
    if (targetId === null) send({ type: 'notes.move', id: current.id, targetId: null, position: 'inside' });
    else if (canDrop(notes, current.id, targetId)) send({ type: 'notes.move', id: current.id, targetId, position: current.position });
    else if (current.id !== targetId) toast({ title: catalogueText('notes.move_into_itself'), tone: 'error' });
  };

  const shared = sharedThrough(roots);
  const rowProps = { notes, shared, expanded, selecting, drag, setDrag, onDrop, tabStop, menuItems, openNote, focusRow, setFocusedId };
  return (
    <div className={`note-sidebar${compact ? ' compact' : ''}`}>
      <div className="note-toolbar">
        <button type="button" className="button button-secondary button-small" onClick={() => create(null)}>
          <PlusIcon size={14} />
          {t('add')}
        </button>
        <button
          type="button"
          className={`button button-small ${selecting ? 'button-primary' : 'button-secondary'}`}
          aria-pressed={selecting}
          onClick={() => send(selecting ? { type: 'notes.selectEnd', keep: extraction.busy } : { type: 'notes.selectStart', notes })}
        >
          <CheckIcon size={14} />
          {selecting ? t('cancelSelect') : t('selectNotes')}
        </button>
      </div>
      {selecting && (
        <div className="note-selection">
          <span>{t('selected', { count: state.selected.size })}</span>
          <div className="note-selection-actions">
            <Tooltip label={tc(`notes.${check.tooltip}`, { count: state.selected.size })}>
              <button type="button" className="button button-primary button-small" aria-disabled={!check.enabled || extraction.busy} onClick={extract}>
                <SparklesIcon size={14} />
                {tc('notes.extract')}
              </button>
            </Tooltip>
            <Link className="button button-secondary button-small" to="/cognition/library">
              <LightbulbIcon size={14} />
              {t('viewCognition')}
            </Link>
          </div>
        </div>
      )}
      {tree.error && (
        <p className="note-error" role="alert">
          {tree.error.userMessage}
          <button type="button" className="link-button" onClick={() => void tree.refetch()}>
            {t('retry')}
          </button>
        </p>
      )}
      {state.error && (
        <p className="note-error" role="alert">
          {state.error}
          <button type="button" className="link-button" aria-label={tu('ui.dismiss')} onClick={() => send({ type: 'notes.errorDismissed' })}>
            ×
          </button>
        </p>
      )}
      {notes.length > 0 && (
        <label className="note-search">
          <SearchIcon size={14} aria-hidden="true" />
          <input type="search" value={query} onChange={(event) => setQuery(event.target.value)} placeholder={t('search')} aria-label={t('search')} />
        </label>
      )}
      {tree.data === undefined ? (
        tree.isFetching && <span className="spinner spinner-small" />
      ) : found !== null && roots.length === 0 ? (
        <p className="note-empty muted" role="status">
          {t('noMatch', { query: query.trim() })}
        </p>
      ) : roots.length === 0 ? (
        // The page beside the tree says what notes are for and offers the first one; the toolbar above creates too.
        <div className="note-empty">
          <p>{t('empty')}</p>
        </div>
      ) : (
        <ul ref={treeRef} className="note-tree" role="tree" aria-label={t('title')} aria-description={t('keyboardHint')} aria-multiselectable={selecting || undefined} onKeyDown={onTreeKey} onDragOver={(event) => event.preventDefault()} onDrop={(event) => onDrop(event, null)}>
          {roots.map((node) => (
            <NoteRow key={node.note.id} node={node} depth={0} {...rowProps} />
          ))}
        </ul>
      )}
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
      <ExtractionDialog extraction={extraction} />
    </div>
  );
}

interface RowProps {
  notes: readonly NoteSummary[];
  /** Public notes, each with the note whose link opens it. */
  shared: ReadonlyMap<string, NoteSummary>;
  /** The notes shown open: the user's own, or during a search the way to every note found. */
  expanded: ReadonlySet<string>;
  selecting: boolean;
  node: TreeNode;
  depth: number;
  drag: Drag;
  setDrag: (drag: Drag) => void;
  onDrop: (event: DragEvent, targetId: string | null) => void;
  tabStop: string | null;
  menuItems: (note: NoteSummary) => MenuItem[];
  openNote: (id: string) => void;
  focusRow: (id: string) => void;
  setFocusedId: (id: string) => void;
}

function NoteRow(props: RowProps) {
  const { notes, shared, expanded, selecting, node, depth, drag, setDrag, onDrop, tabStop, menuItems, openNote, focusRow, setFocusedId } = props;
  const { t } = useTranslation('notes');
  const state = useNotesUi();
  const send = notesActor.send.bind(notesActor);
  const { note, children } = node;
  const open = expanded.has(note.id);
  const editing = state.editingId === note.id;
  const active = state.currentId === note.id;
  const droppable = drag !== null && canDrop(notes, drag.id, note.id);
  const over = drag?.over === note.id && droppable ? drag.position : null;
  const items = menuItems(note);
  const sharer = shared.get(note.id);
  const publicly = sharer === undefined ? null : sharer.id === note.id ? t('public.own') : t('public.through', { name: sharer.name });

  return (
    <ContextMenuArea items={items}>
      <li
        role="treeitem"
        data-note-id={note.id}
        tabIndex={tabStop === note.id ? 0 : -1}
        aria-label={note.name}
        aria-description={publicly ?? undefined}
        aria-level={depth + 1}
        aria-expanded={children.length > 0 ? open : undefined}
        aria-selected={selecting ? state.selected.has(note.id) : active}
        onFocus={(event) => event.target === event.currentTarget && setFocusedId(note.id)}
      >
        <div
          className={`note-row${active ? ' active' : ''}${over ? ` drop-${over}` : ''}`}
          style={{ '--depth': depth } as CSSProperties}
          draggable={!editing}
          onDragStart={(event) => {
            event.dataTransfer.effectAllowed = 'move';
            event.dataTransfer.setData('text/plain', note.id);
            setDrag({ id: note.id, over: null, position: 'inside' });
          }}
          onDragEnd={() => setDrag(null)}
          onDragOver={(event) => {
            if (!drag) return;
            event.preventDefault();
            event.stopPropagation();
            // Below itself, the row still takes the drop, to refuse it and say why (the tree around it would take it as "to the root").
            if (!droppable) return;
            const box = event.currentTarget.getBoundingClientRect();
            const position = dropPosition(event.clientY - box.top, box.height);
            if (drag.over !== note.id || drag.position !== position) setDrag({ ...drag, over: note.id, position });
          }}
          onDrop={(event) => onDrop(event, note.id)}
        >
          <button type="button" tabIndex={-1} className={`note-twisty${children.length === 0 ? ' leaf' : ''}`} aria-label={open ? t('collapse') : t('expand')} aria-hidden={children.length === 0 || undefined} onClick={() => send({ type: 'notes.toggleExpanded', id: note.id })}>
            {children.length > 0 && (open ? <ChevronDownIcon size={12} /> : <ChevronRightIcon size={12} />)}
          </button>
          {selecting && <input type="checkbox" tabIndex={-1} aria-label={note.name} checked={state.selected.has(note.id)} onChange={(event) => send({ type: 'notes.toggleSelected', id: note.id, on: event.target.checked, notes })} />}
          {editing ? (
            <RenameInput
              initial={note.name}
              onDone={(name, byKey) => {
                if (name === null || name === note.name) send({ type: 'notes.renameCancel' });
                else send({ type: 'notes.rename', id: note.id, name, before: note.name });
                if (byKey) focusRow(note.id);
              }}
            />
          ) : (
            <button type="button" tabIndex={-1} className="note-name" onClick={() => openNote(note.id)} onDoubleClick={() => send({ type: 'notes.renameStart', id: note.id })} title={note.name}>
              <FileTextIcon size={14} />
              <span>{note.name}</span>
              {publicly && (
                <span className="note-public" title={publicly}>
                  <GlobeIcon size={12} />
                </span>
              )}
            </button>
          )}
          <Menu
            items={items}
            trigger={
              <button type="button" tabIndex={-1} className="icon-button tiny note-menu-button" aria-label={t('menu.open')}>
                <EllipsisIcon size={14} />
              </button>
            }
          />
        </div>
        {open && children.length > 0 && (
          <ul role="group">
            {children.map((child) => (
              <NoteRow key={child.note.id} {...props} node={child} depth={depth + 1} />
            ))}
          </ul>
        )}
      </li>
    </ContextMenuArea>
  );
}

function RenameInput({ initial, onDone }: { initial: string; onDone: (name: string | null, byKey: boolean) => void }) {
  const { t } = useTranslation('notes');
  const ref = useRef<HTMLInputElement>(null);
  const done = useRef(false);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, []);
  const finish = (value: string | null, byKey: boolean) => {
    if (done.current) return;
    done.current = true;
    onDone(value === null ? null : cleanName(value), byKey);
  };
  const onKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') finish(event.currentTarget.value, true);
    if (event.key === 'Escape') finish(null, true);
  };
  return <input ref={ref} className="note-rename" defaultValue={initial} placeholder={t('renamePlaceholder')} aria-label={t('renamePlaceholder')} maxLength={200} onKeyDown={onKey} onBlur={(event) => finish(event.currentTarget.value, false)} />;
}

import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { DropPosition } from '../api/notes.ts';
import { ExtractionDialog } from '../cognition/ExtractionDialog.tsx';
import { noteExtractionCheck } from '../cognition/noteExtraction.ts';
import { useCognitionExtraction } from '../cognition/useCognitionExtraction.ts';
import { Icon } from '../components/Icon.tsx';
import { useAuth } from '../app/auth/index.ts';
import { notesStore, useNotes } from './store.ts';
import { buildTree, canDrop, cleanName, descendants, dropPosition, type TreeNode } from './tree.ts';
import '../styles/notes.css';

/**
 * The note sidebar (spec 02 §2): a collapsible tree with a context menu per note (add child,
 * rename, delete), drag and drop before, after or inside a note, and a selection mode whose 1–5
 * documents can be turned into a cognition.
 */
export function NoteSidebar({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation('notes');
  const { t: tc } = useTranslation('cognition');
  const auth = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const state = useNotes();
  const extraction = useCognitionExtraction();
  const [drag, setDrag] = useState<{ id: string; over: string | null; position: DropPosition } | null>(null);
  const signedIn = auth.status === 'authenticated';

  useEffect(() => {
    if (signedIn) void notesStore.load();
  }, [signedIn]);

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

  const notes = state.notes ?? [];
  const tree = buildTree(notes);
  const check = noteExtractionCheck(state.selected.size);
  const create = async (parentId: string | null) => {
    await notesStore.create(t('newNote'), parentId);
    if (!compact && !location.pathname.startsWith('/note')) navigate('/note');
  };
  const extract = () => {
    if (!check.enabled) {
      if (check.alert) window.alert(tc(`notes.${check.alert}`));
      return;
    }
    extraction.start({ kind: 'notes', noteIds: [...state.selected] });
  };

  const onDrop = (event: DragEvent, targetId: string | null) => {
    event.preventDefault();
    event.stopPropagation();
    const current = drag;
    setDrag(null);
    if (!current) return;
    if (targetId === null) void notesStore.move(current.id, null, 'inside');
    else if (canDrop(notes, current.id, targetId)) void notesStore.move(current.id, targetId, current.position);
  };

  return (
    <div className={`note-sidebar${compact ? ' compact' : ''}`}>
      <div className="note-toolbar">
        <button type="button" className="button button-secondary button-small" onClick={() => void create(null)}>
          <Icon name="plus" size={14} />
          {t('add')}
        </button>
        <button
          type="button"
          className={`button button-small ${state.selecting ? 'button-primary' : 'button-secondary'}`}
          aria-pressed={state.selecting}
          onClick={() => notesStore.setSelecting(!state.selecting, extraction.busy)}
        >
          <Icon name="check" size={14} />
          {state.selecting ? t('cancelSelect') : t('selectNotes')}
        </button>
      </div>
      {state.selecting && (
        <div className="note-selection">
          <span>{t('selected', { count: state.selected.size })}</span>
          <div className="note-selection-actions">
            <button
              type="button"
              className="button button-primary button-small"
              aria-disabled={!check.enabled || extraction.busy}
              title={tc(`notes.${check.tooltip}`, { count: state.selected.size })}
              onClick={extract}
            >
              <Icon name="sparkles" size={14} />
              {tc('notes.extract')}
            </button>
            <Link className="button button-secondary button-small" to="/cognition/library">
              <Icon name="cognition" size={14} />
              {t('viewCognition')}
            </Link>
          </div>
        </div>
      )}
      {state.error && (
        <p className="note-error" role="alert">
          {state.error.userMessage}
          <button type="button" className="link-button" onClick={() => (state.notes === null ? void notesStore.load() : notesStore.dismissError())}>
            {state.notes === null ? t('retry') : '×'}
          </button>
        </p>
      )}
      {state.notes === null ? (
        state.loading && <span className="spinner spinner-small" />
      ) : notes.length === 0 ? (
        <div className="note-empty">
          <p>{t('empty')}</p>
          <p className="muted">{t('emptyHint')}</p>
          <button type="button" className="button button-primary button-small" onClick={() => void create(null)}>
            {t('createFirst')}
          </button>
        </div>
      ) : (
        <ul className="note-tree" role="tree" aria-label={t('title')} onDragOver={(event) => event.preventDefault()} onDrop={(event) => onDrop(event, null)}>
          {tree.map((node) => (
            <NoteRow key={node.note.id} node={node} depth={0} drag={drag} setDrag={setDrag} onDrop={onDrop} compact={compact} />
          ))}
        </ul>
      )}
      <ExtractionDialog extraction={extraction} />
    </div>
  );
}

interface RowProps {
  node: TreeNode;
  depth: number;
  drag: { id: string; over: string | null; position: DropPosition } | null;
  setDrag: (drag: { id: string; over: string | null; position: DropPosition } | null) => void;
  onDrop: (event: DragEvent, targetId: string | null) => void;
  compact: boolean;
}

function NoteRow({ node, depth, drag, setDrag, onDrop, compact }: RowProps) {
  const { t } = useTranslation('notes');
  const state = useNotes();
  const navigate = useNavigate();
  const location = useLocation();
  const [menu, setMenu] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);
  const { note, children } = node;
  const open = state.expanded.has(note.id);
  const editing = state.editingId === note.id;
  const active = state.currentId === note.id;
  const notes = state.notes ?? [];
  const droppable = drag !== null && canDrop(notes, drag.id, note.id);
  const over = drag?.over === note.id && droppable ? drag.position : null;

  useEffect(() => {
    if (!menu) return;
    // The menu is not modal: a click anywhere else or Escape puts it away, as menus do.
    const outside = (event: PointerEvent) => {
      if (!menuRef.current?.contains(event.target as Node)) setMenu(false);
    };
    const escape = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenu(false);
      menuRef.current?.querySelector<HTMLButtonElement>('[aria-haspopup]')?.focus();
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [menu]);

  const openNote = () => {
    notesStore.open(note.id);
    if (!compact && !location.pathname.startsWith('/note')) navigate('/note');
  };
  const remove = () => {
    setMenu(false);
    const below = descendants(notes, note.id).size;
    const question = below > 0 ? t('confirmDeleteTree', { name: note.name, count: below }) : t('confirmDelete', { name: note.name });
    if (window.confirm(question)) void notesStore.remove(note.id);
  };

  return (
    <li role="treeitem" aria-expanded={children.length > 0 ? open : undefined} aria-selected={active}>
      <div
        className={`note-row${active ? ' active' : ''}${over ? ` drop-${over}` : ''}`}
        style={{ paddingLeft: 6 + depth * 14 }}
        draggable={!editing}
        onDragStart={(event) => {
          event.dataTransfer.effectAllowed = 'move';
          event.dataTransfer.setData('text/plain', note.id);
          setDrag({ id: note.id, over: null, position: 'inside' });
        }}
        onDragEnd={() => setDrag(null)}
        onDragOver={(event) => {
          if (!drag || !droppable) return;
          event.preventDefault();
          event.stopPropagation();
          const box = event.currentTarget.getBoundingClientRect();
          const position = dropPosition(event.clientY - box.top, box.height);
          if (drag.over !== note.id || drag.position !== position) setDrag({ ...drag, over: note.id, position });
        }}
        onDrop={(event) => onDrop(event, droppable ? note.id : null)}
      >
        <button type="button" className={`note-twisty${children.length === 0 ? ' leaf' : ''}`} aria-label={open ? t('collapse') : t('expand')} onClick={() => notesStore.toggleExpanded(note.id)} tabIndex={children.length === 0 ? -1 : 0}>
          {children.length > 0 && <Icon name={open ? 'chevronDown' : 'chevronRight'} size={12} />}
        </button>
        {state.selecting && (
          <input type="checkbox" aria-label={note.name} checked={state.selected.has(note.id)} onChange={(event) => notesStore.toggleSelected(note.id, event.target.checked)} />
        )}
        {editing ? (
          <RenameInput initial={note.name} onDone={(name) => (name === null || name === note.name ? notesStore.startRename(null) : void notesStore.rename(note.id, name))} />
        ) : (
          <button type="button" className="note-name" onClick={openNote} onDoubleClick={() => notesStore.startRename(note.id)} title={note.name}>
            <Icon name="note" size={14} />
            <span>{note.name}</span>
          </button>
        )}
        <div className="note-menu" ref={menuRef}>
          <button type="button" className="icon-button tiny" aria-label={t('menu.open')} aria-haspopup="menu" aria-expanded={menu} onClick={() => setMenu((value) => !value)}>
            ⋯
          </button>
          {menu && (
            <ul className="note-menu-list" role="menu">
              <li role="none">
                <button
                  type="button"
                  role="menuitem"
                  onClick={() => {
                    setMenu(false);
                    void notesStore.create(t('newNote'), note.id);
                  }}
                >
                  {t('menu.addChild')}
                </button>
              </li>
              <li role="none">
                <button
                  type="button"
                  role="menuitem"
                  onClick={() => {
                    setMenu(false);
                    notesStore.startRename(note.id);
                  }}
                >
                  {t('menu.rename')}
                </button>
              </li>
              <li role="none">
                <button type="button" role="menuitem" className="danger" onClick={remove}>
                  {t('menu.delete')}
                </button>
              </li>
            </ul>
          )}
        </div>
      </div>
      {open && children.length > 0 && (
        <ul role="group">
          {children.map((child) => (
            <NoteRow key={child.note.id} node={child} depth={depth + 1} drag={drag} setDrag={setDrag} onDrop={onDrop} compact={compact} />
          ))}
        </ul>
      )}
    </li>
  );
}

function RenameInput({ initial, onDone }: { initial: string; onDone: (name: string | null) => void }) {
  const { t } = useTranslation('notes');
  const ref = useRef<HTMLInputElement>(null);
  const done = useRef(false);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, []);
  const finish = (value: string | null) => {
    if (done.current) return;
    done.current = true;
    onDone(value === null ? null : cleanName(value));
  };
  const onKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') finish(event.currentTarget.value);
    if (event.key === 'Escape') finish(null);
  };
  return <input ref={ref} className="note-rename" defaultValue={initial} placeholder={t('renamePlaceholder')} aria-label={t('renamePlaceholder')} maxLength={200} onKeyDown={onKey} onBlur={(event) => finish(event.currentTarget.value)} />;
}

import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { useAuth } from '../app/auth/index.ts';
import { NoteEditor } from './NoteEditor.tsx';
import { NoteSidebar } from './NoteSidebar.tsx';
import { cachedTree, notesActor, useNoteTree, useNotesUi } from './live.ts';
import './notes.css';
import { FileTextIcon, PlusIcon } from '../ui/icons.ts';

/**
 * /note: the current note's editor; the tree is the route's sub-panel in the app sidebar. Inside
 * the research view (the "note page" panel) the tree comes along, since that sidebar is not there.
 * `?id=` opens a note (reports link their note sources this way).
 */
export default function NotePage() {
  const { t } = useTranslation('notes');
  const location = useLocation();
  const [params] = useSearchParams();
  const auth = useAuth();
  const state = useNotesUi();
  const tree = useNoteTree(auth.status === 'authenticated');
  const embedded = !location.pathname.startsWith('/note');
  const requested = params.get('id');

  const notes = tree.data;
  useEffect(() => {
    if (requested && !embedded) notesActor.send({ type: 'notes.open', id: requested, notes: cachedTree() });
  }, [requested, embedded]);

  const editor =
    auth.status !== 'authenticated' ? (
      <div className="note-main-empty">
        <FileTextIcon size={28} />
        <p>{t('signIn')}</p>
        <Link className="button button-primary" to={`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`}>
          {t('login')}
        </Link>
      </div>
    ) : state.currentId ? (
      <NoteEditor key={state.currentId} noteId={state.currentId} />
    ) : (
      <div className="note-main-empty">
        <FileTextIcon size={28} />
        <p>{notes && notes.length === 0 ? t('emptyHint') : t('editor.pick')}</p>
        <button type="button" className="button button-primary" onClick={() => notesActor.send({ type: 'notes.create', name: t('newNote'), parentId: null, notes: notes ?? [] })}>
          <PlusIcon size={16} />
          {t('add')}
        </button>
      </div>
    );

  if (!embedded) return <div className="note-page">{editor}</div>;
  return (
    <div className="note-page embedded">
      <aside className="note-page-tree">
        <NoteSidebar compact />
      </aside>
      <div className="note-page-main">{editor}</div>
    </div>
  );
}

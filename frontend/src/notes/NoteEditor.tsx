import { EditorState } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import 'prosemirror-view/style/prosemirror.css';
import '../components/markdown.css';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError } from '../api/client.ts';
import { notesApi } from './api.ts';
import { useNote } from './queries.ts';
import { parseCanvas, serializeCanvas } from '../panels/canvas/canvasMarkdown.ts';
import { notePlugins } from './editorSetup.ts';
import { ShareNoteButton } from './ShareNoteDialog.tsx';
import { notesActor, noteTouched, onNoteSavedElsewhere, useNoteTree } from './live.ts';
import { cleanName } from './tree.ts';
import { CheckIcon, CopyIcon, RefreshCwIcon } from '../ui/icons.ts';
import { copyText } from '../components/ShareLinkDialog.tsx';
import { intlLocale } from '../i18n/language.ts';

/** Typing pauses this long before the note is saved. */
export const SAVE_DELAY_MS = 1000;

type SaveState = { kind: 'saved' } | { kind: 'dirty' } | { kind: 'saving' } | { kind: 'failed'; message: string } | { kind: 'conflict' };

/**
 * The current note as a Markdown editor. Saves after a pause in typing, always from the revision
 * the text was loaded or last saved at, so a save that would overwrite another tab's newer text is
 * refused by the server and offered as a reload instead.
 */
export function NoteEditor({ noteId }: { noteId: string }) {
  const { t, i18n } = useTranslation('notes');
  const labelRef = useRef('');
  labelRef.current = t('editor.label');
  const host = useRef<HTMLDivElement>(null);
  const loaded = useNote(noteId);
  const note = loaded.data;
  const [save, setSave] = useState<SaveState>({ kind: 'saved' });
  const [empty, setEmpty] = useState(false);
  const flush = useRef<() => Promise<void>>(async () => undefined);
  /** The text as this editor has it, for the copy a conflict offers before the reload replaces it. */
  const mine = useRef<() => string>(() => '');
  const [copied, setCopied] = useState<boolean | null>(null);
  const listed = useNoteTree(true).data?.find((candidate) => candidate.id === noteId);
  // Saved in another tab: read again if nothing here waits to be saved; otherwise this tab's next save
  // meets the conflict and says so.
  const settled = useRef(true);
  settled.current = save.kind === 'saved';
  const { refetch } = loaded;
  useEffect(() => onNoteSavedElsewhere((id) => id === noteId && settled.current && void refetch()), [noteId, refetch]);

  useEffect(() => {
    if (!note || !host.current) return;
    setSave({ kind: 'saved' });
    setCopied(null);
    let revision = note.revision;
    let saved = note.content;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let running: Promise<void> | null = null;
    let conflict = false;

    const saveNow = async (): Promise<void> => {
      clearTimeout(timer);
      if (running) await running;
      const content = serializeCanvas(view.state.doc);
      if (conflict || content === saved) {
        if (!conflict) setSave({ kind: 'saved' });
        return;
      }
      setSave({ kind: 'saving' });
      running = notesApi
        .save(note.id, content, revision)
        .then((result) => {
          revision = result.revision;
          saved = content;
          noteTouched(note.id, result.updated_at);
          setSave(serializeCanvas(view.state.doc) === saved ? { kind: 'saved' } : { kind: 'dirty' });
        })
        .catch((error: unknown) => {
          const failure = toApiError(error);
          if (failure.status === 409) {
            conflict = true;
            setSave({ kind: 'conflict' });
            // Locked at once, not at the next keystroke: what is typed now could not be saved.
            view.setProps({ editable: () => false });
          } else setSave({ kind: 'failed', message: failure.userMessage });
        })
        .finally(() => {
          running = null;
        });
      await running;
    };
    flush.current = saveNow;
    mine.current = () => serializeCanvas(view.state.doc);

    const view = new EditorView(host.current, {
      state: EditorState.create({ doc: parseCanvas(note.content), plugins: notePlugins(() => void saveNow()) }),
      editable: () => !conflict,
      attributes: () => ({ role: 'textbox', 'aria-multiline': 'true', 'aria-label': labelRef.current }),
      dispatchTransaction(transaction) {
        view.updateState(view.state.apply(transaction));
        setEmpty(view.state.doc.textContent.length === 0 && view.state.doc.childCount <= 1);
        if (!transaction.docChanged || conflict) return;
        setSave({ kind: 'dirty' });
        clearTimeout(timer);
        timer = setTimeout(() => void saveNow(), SAVE_DELAY_MS);
      },
    });
    setEmpty(view.state.doc.textContent.length === 0 && view.state.doc.childCount <= 1);
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (serializeCanvas(view.state.doc) !== saved && !conflict) {
        void saveNow();
        event.preventDefault();
      }
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      // Switching notes keeps what was typed: the last edit is saved on the way out.
      void saveNow().finally(() => view.destroy());
    };
  }, [note]);

  if (loaded.isPending) return <p className="note-editor-message muted">{t('editor.loading')}</p>;
  if (!note) return <p className="note-editor-message muted">{t('editor.missing')}</p>;

  const formatTime = (iso: string) => new Intl.DateTimeFormat(intlLocale(i18n.language), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  return (
    <div className="note-editor">
      <header className="note-editor-head">
        <h1 title={listed?.name ?? note.name}>
          <NoteTitle key={listed?.name ?? note.name} id={note.id} name={listed?.name ?? note.name} />
        </h1>
        <span className={`note-save-state ${save.kind}`} role="status">
          {save.kind === 'saving' && <span className="spinner spinner-small" />}
          {save.kind === 'saved' && <CheckIcon size={12} />}
          {save.kind === 'failed' ? t('editor.saveFailed', { message: save.message }) : save.kind === 'conflict' ? t('editor.conflict') : t(`editor.${save.kind === 'dirty' ? 'unsaved' : save.kind}`)}
        </span>
        {save.kind === 'conflict' && (
          <>
            <button type="button" className="button button-secondary button-small" onClick={() => void copyText(mine.current()).then(setCopied)}>
              <CopyIcon size={14} />
              {t('editor.copyMine')}
            </button>
            <button type="button" className="button button-secondary button-small" onClick={() => void loaded.refetch()}>
              <RefreshCwIcon size={14} />
              {t('editor.reload')}
            </button>
            {copied !== null && (
              <span className="muted small" role="status">
                {t(copied ? 'editor.copiedMine' : 'editor.copyMineFailed')}
              </span>
            )}
          </>
        )}
        <span className="toolbar-spacer" />
        <span className="muted note-updated">{t('editor.updated', { time: formatTime(listed?.updated_at ?? note.updated_at) })}</span>
        <ShareNoteButton note={note} beforeShare={() => flush.current()} />
      </header>
      <div className="note-editor-body">
        {empty && <div className="note-placeholder">{t('editor.placeholder')}</div>}
        <div ref={host} className="note-doc markdown" />
      </div>
    </div>
  );
}

/**
 * The note's name in the header, edited in place: Enter or leaving the field renames the note (as
 * the tree's rename does, shown at once and taken back if refused), Escape or a blank name keeps it.
 */
function NoteTitle({ id, name }: { id: string; name: string }) {
  const { t } = useTranslation('notes');
  const [value, setValue] = useState(name);
  const finish = (typed: string) => {
    const next = cleanName(typed);
    if (next === null || next === name) return setValue(name);
    notesActor.send({ type: 'notes.rename', id, name: next, before: name });
  };
  const onKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') event.currentTarget.blur();
    if (event.key === 'Escape') {
      setValue(name);
      event.currentTarget.dataset.cancelled = 'true';
      event.currentTarget.blur();
    }
  };
  return (
    <input
      className="note-title-input"
      value={value}
      maxLength={200}
      aria-label={t('titleLabel')}
      onChange={(event) => setValue(event.target.value)}
      onKeyDown={onKey}
      onBlur={(event) => {
        if (event.currentTarget.dataset.cancelled === 'true') delete event.currentTarget.dataset.cancelled;
        else finish(event.currentTarget.value);
      }}
    />
  );
}

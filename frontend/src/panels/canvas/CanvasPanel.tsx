import { useSelector } from '@xstate/react';
import { baseKeymap } from 'prosemirror-commands';
import { history, redo, undo } from 'prosemirror-history';
import { keymap } from 'prosemirror-keymap';
import { EditorState, Plugin, PluginKey } from 'prosemirror-state';
import { Decoration, DecorationSet, EditorView } from 'prosemirror-view';
import 'prosemirror-view/style/prosemirror.css';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { canvasMarkdown, downloadBlob, markdownToPdf, sharedCanvasPdf } from '../../api/research.ts';
import { toApiError } from '../../api/client.ts';
import { Icon } from '../../components/Icon.tsx';
import { editState, shownVersion } from '../../machines/writing.ts';
import { shareIdOf } from '../../research/sessions.ts';
import { researchStore, type ResearchSession } from '../../research/store.ts';
import { parseCanvas, serializeCanvas, snippetIn } from './canvasMarkdown.ts';

const fileName = (title: string, version: number) => `${(title || 'report').replace(/[\\/:*?"<>|]+/g, '_')}-v${version}`;

/**
 * Marks the passage a targeted edit will change while the instruction is typed: the editor's own
 * selection is not drawn once the focus is in the instruction field.
 */
const target = new PluginKey<DecorationSet>('edit-target');
const targetPlugin = new Plugin<DecorationSet>({
  key: target,
  state: {
    init: () => DecorationSet.empty,
    apply(transaction, current) {
      const range = transaction.getMeta(target) as { from: number; to: number } | null | undefined;
      if (range === undefined) return current.map(transaction.mapping, transaction.doc);
      return range ? DecorationSet.create(transaction.doc, [Decoration.inline(range.from, range.to, { class: 'edit-target' })]) : DecorationSet.empty;
    },
  },
  props: { decorations: (state) => target.getState(state) },
});

interface Selection {
  from: number;
  to: number;
  top: number;
  left: number;
}

/** The canvas editor (dccanvas): versions, live writing, hand edits saved as versions, targeted edits and exports. */
export default function CanvasPanel({ session, readOnly }: { session: ResearchSession; readOnly: boolean }) {
  const { t, i18n } = useTranslation();
  const context = useSelector(session.writing, (snapshot) => snapshot.context);
  const edit = useSelector(session.writing, editState);
  const shown = shownVersion(context);
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const lastMarkdown = useRef<string | null>(null);
  const [selection, setSelection] = useState<Selection | null>(null);
  const [instruction, setInstruction] = useState('');
  const [pendingEdit, setPendingEdit] = useState<string | null>(null);
  const [exporting, setExporting] = useState<'pdf' | 'markdown' | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const editable = !readOnly && shown !== null && !shown.streaming;
  const editableRef = useRef(editable);
  editableRef.current = editable;

  const save = (): boolean => {
    const editor = view.current;
    if (!editor || !editableRef.current || !session.writing.getSnapshot().matches({ edit: 'dirty' })) return false;
    const markdown = serializeCanvas(editor.state.doc);
    // The saved version comes back with this text: the editor keeps its cursor.
    lastMarkdown.current = markdown;
    session.writing.send({ type: 'edit.saved', content: markdown });
    return true;
  };
  const saveRef = useRef(save);
  saveRef.current = save;
  /** Shows a version's text afresh (set up with the editor). */
  const reset = useRef<(markdown: string) => void>(() => undefined);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const stateFor = (markdown: string) =>
      EditorState.create({
        doc: parseCanvas(markdown),
        plugins: [targetPlugin, history(), keymap({ 'Mod-z': undo, 'Mod-y': redo, 'Shift-Mod-z': redo, 'Mod-s': () => saveRef.current() }), keymap(baseKeymap)],
      });
    const editor = new EditorView(element, {
      state: stateFor(''),
      editable: () => editableRef.current,
      dispatchTransaction(transaction) {
        const next = editor.state.apply(transaction);
        editor.updateState(next);
        const { from, to, empty } = next.selection;
        if (transaction.getMeta(target) !== undefined) return;
        if (empty || !editableRef.current) {
          setSelection(null);
          if (target.getState(next) !== DecorationSet.empty) editor.dispatch(next.tr.setMeta(target, null));
        } else {
          const coords = editor.coordsAtPos(from);
          const box = element.getBoundingClientRect();
          setSelection({ from, to, top: coords.bottom - box.top + element.scrollTop + 6, left: Math.max(0, Math.min(coords.left - box.left, box.width - 392)) });
        }
        if (transaction.docChanged) session.writing.send({ type: 'version.edited' });
      },
    });
    view.current = editor;
    reset.current = (markdown: string) => {
      lastMarkdown.current = markdown;
      editor.updateState(stateFor(markdown));
      setSelection(null);
    };
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, [session.writing]);

  const content = shown?.content ?? '';
  useEffect(() => {
    // The user's own saved edit coming back must not reset the cursor.
    if (content === lastMarkdown.current) return;
    reset.current(content);
    if (shown?.streaming) view.current?.dom.parentElement?.scrollTo({ top: view.current.dom.scrollHeight });
  }, [content, shown?.version, shown?.streaming]);

  useEffect(() => {
    view.current?.setProps({ editable: () => editableRef.current });
  }, [editable]);

  // A targeted edit is answered in the conversation under its request id: a new version, or why not.
  const answer = pendingEdit ? session.conversation.messages.find((message) => message.id === pendingEdit)?.contents.find((item) => item.content_type === 'targeted_edit_result' || item.content_type === 'error') : undefined;
  useEffect(() => {
    if (!answer) return;
    setPendingEdit(null);
    if (answer.content_type === 'error') {
      setExportError(String(answer.error_message ?? ''));
      view.current?.dispatch(view.current.state.tr.setMeta(target, null));
    }
  }, [answer]);

  const submitEdit = async () => {
    const editor = view.current;
    if (!selection || !shown || !editor) return;
    const snippet = snippetIn(shown.content, editor.state.doc, selection.from, selection.to);
    const requestId = await researchStore.targetedEdit(instruction, snippet);
    if (requestId) {
      setPendingEdit(requestId);
      setExportError(null);
      setInstruction('');
      setSelection(null);
    }
  };

  const exportFile = async (kind: 'pdf' | 'markdown') => {
    if (!shown) return;
    setExporting(kind);
    setExportError(null);
    try {
      const name = fileName(shown.title, shown.version);
      if (kind === 'pdf') {
        const shareId = readOnly ? shareIdOf(session.id) : null;
        downloadBlob(shareId ? await sharedCanvasPdf(shareId, shown.version) : await markdownToPdf(shown.content, `${name}.pdf`), `${name}.pdf`);
      }
      // A shared canvas has no owner's download; its text is the same as the server's.
      else if (readOnly) downloadBlob(new Blob([shown.content], { type: 'text/markdown;charset=utf-8' }), `${name}.md`);
      else {
        const file = await canvasMarkdown(session.id, shown.version);
        downloadBlob(file.blob, file.filename ?? `${name}.md`);
      }
    } catch (error) {
      setExportError(toApiError(error).userMessage);
    } finally {
      setExporting(null);
    }
  };

  const formatTime = (timestamp: string) => {
    const date = new Date(timestamp);
    return Number.isNaN(date.getTime()) ? '' : new Intl.DateTimeFormat(i18n.language === 'en' ? 'en' : 'zh-CN', { dateStyle: 'short', timeStyle: 'short' }).format(date);
  };

  const alert = context.saveError ? t('canvas.saveFailed', { message: context.saveError }) : exportError;
  return (
    <div className="canvas-panel">
      <header className="panel-header">
        <Icon name="pen" size={16} />
        <strong className="canvas-title" title={shown?.title || t('canvas.untitled')}>
          {shown?.title || t('canvas.untitled')}
        </strong>
        {shown?.streaming && (
          <span className="badge badge-primary">
            <span className="spinner spinner-small" />
            {t('writing.inProgress')}
          </span>
        )}
        {pendingEdit !== null && (
          <span className="badge badge-primary">
            <span className="spinner spinner-small" />
            {t('canvas.editSubmitted')}
          </span>
        )}
        <span className="toolbar-spacer" />
        <label className="version-select">
          <span className="sr-only">{t('canvas.versions')}</span>
          <select
            value={context.draft ? 'draft' : String(context.currentVersion ?? '')}
            disabled={context.versions.length === 0 || context.draft !== null || edit === 'saving'}
            onChange={(event) => session.writing.send({ type: 'version.selected', version: Number(event.target.value) })}
            aria-label={t('canvas.versions')}
          >
            {context.draft && <option value="draft">{t('canvas.draft', { version: context.draft.version })}</option>}
            {[...context.versions].reverse().map((version) => (
              <option key={version.version} value={version.version}>
                {t('canvas.versionLabel', { version: version.version, time: formatTime(version.timestamp) })}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button button-secondary button-small" disabled={!shown || shown.streaming || exporting !== null} onClick={() => void exportFile('markdown')}>
          {exporting === 'markdown' ? <span className="spinner spinner-small" /> : <Icon name="download" size={14} />}
          Markdown
        </button>
        <button type="button" className="button button-secondary button-small" disabled={!shown || shown.streaming || exporting !== null} onClick={() => void exportFile('pdf')}>
          {exporting === 'pdf' ? <span className="spinner spinner-small" /> : <Icon name="download" size={14} />}
          PDF
        </button>
        <button type="button" className="icon-button" aria-label={t('user.close')} title={t('user.close')} onClick={() => researchStore.showCanvas(false)}>
          <Icon name="close" size={16} />
        </button>
      </header>
      {edit !== 'clean' && (
        <div className="canvas-savebar">
          <Icon name="edit" size={14} />
          <span>{t('canvas.unsaved')}</span>
          <span className="toolbar-spacer" />
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={edit === 'saving'}
            onClick={() => {
              session.writing.send({ type: 'edit.discarded' });
              reset.current(content);
            }}
          >
            {t('canvas.discard')}
          </button>
          <button type="button" className="button button-primary button-small" disabled={edit === 'saving'} onClick={() => save()} title="Ctrl/⌘ + S">
            {edit === 'saving' ? <span className="spinner spinner-small" /> : <Icon name="check" size={14} />}
            {t(edit === 'saving' ? 'canvas.saving' : 'canvas.save')}
          </button>
        </div>
      )}
      {alert && (
        <div className="composer-alert" role="alert">
          <Icon name="alert" size={14} />
          {alert}
        </div>
      )}
      <div className="canvas-scroll">
        {!shown && <p className="canvas-empty muted">{t('canvas.empty')}</p>}
        <div className="canvas-doc markdown" ref={host} />
        {selection && editable && (
          <form
            className="edit-popover"
            style={{ top: selection.top, left: selection.left }}
            onSubmit={(event) => {
              event.preventDefault();
              void submitEdit();
            }}
          >
            <Icon name="sparkles" size={14} />
            <input
              value={instruction}
              onChange={(event) => setInstruction(event.target.value)}
              onFocus={() => view.current?.dispatch(view.current.state.tr.setMeta(target, { from: selection.from, to: selection.to }))}
              placeholder={t('canvas.editPlaceholder')}
              aria-label={t('canvas.editPlaceholder')}
            />
            <button type="submit" className="button button-primary button-small" disabled={instruction.trim() === '' || selection.from === selection.to}>
              {t('canvas.editSubmit')}
            </button>
          </form>
        )}
      </div>
    </div>
  );
}

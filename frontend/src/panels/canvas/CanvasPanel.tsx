import { useSelector } from '@xstate/react';
import { baseKeymap } from 'prosemirror-commands';
import { history, redo, undo } from 'prosemirror-history';
import { keymap } from 'prosemirror-keymap';
import { defaultMarkdownParser, defaultMarkdownSerializer } from 'prosemirror-markdown';
import { EditorState } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import 'prosemirror-view/style/prosemirror.css';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadBlob, markdownToPdf } from '../../api/research.ts';
import { toApiError } from '../../api/client.ts';
import { Icon } from '../../components/Icon.tsx';
import { shownVersion } from '../../machines/writing.ts';
import { researchStore, type ResearchSession } from '../../research/store.ts';

/** Edits are kept once typing pauses, so each keystroke does not rebuild the version list. */
const EDIT_SETTLE_MS = 400;

const fileName = (title: string, version: number) => `${(title || 'report').replace(/[\\/:*?"<>|]+/g, '_')}-v${version}`;

function stateFor(markdown: string): EditorState {
  return EditorState.create({
    doc: defaultMarkdownParser.parse(markdown),
    plugins: [history(), keymap({ 'Mod-z': undo, 'Mod-y': redo, 'Shift-Mod-z': redo }), keymap(baseKeymap)],
  });
}

/** The canvas editor (dccanvas): versions, live writing, editing, targeted edits and exports. */
export default function CanvasPanel({ session, readOnly }: { session: ResearchSession; readOnly: boolean }) {
  const { t, i18n } = useTranslation();
  const context = useSelector(session.writing, (snapshot) => snapshot.context);
  const shown = shownVersion(context);
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const lastMarkdown = useRef<string | null>(null);
  const settle = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [selection, setSelection] = useState<{ text: string; top: number; left: number } | null>(null);
  const [instruction, setInstruction] = useState('');
  const [pendingEdit, setPendingEdit] = useState<number | null>(null);
  const [exporting, setExporting] = useState<'pdf' | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const editable = !readOnly && shown !== null && !shown.streaming;
  const editableRef = useRef(editable);
  editableRef.current = editable;

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const editor = new EditorView(element, {
      state: stateFor(''),
      editable: () => editableRef.current,
      dispatchTransaction(transaction) {
        const next = editor.state.apply(transaction);
        editor.updateState(next);
        const { from, to, empty } = next.selection;
        if (empty || !editableRef.current) setSelection(null);
        else {
          const coords = editor.coordsAtPos(from);
          const box = element.getBoundingClientRect();
          setSelection({ text: next.doc.textBetween(from, to, '\n\n'), top: coords.bottom - box.top + element.scrollTop + 6, left: Math.max(0, coords.left - box.left) });
        }
        if (transaction.docChanged) {
          if (settle.current) clearTimeout(settle.current);
          settle.current = setTimeout(() => {
            const markdown = defaultMarkdownSerializer.serialize(editor.state.doc);
            lastMarkdown.current = markdown;
            session.writing.send({ type: 'version.edited', content: markdown });
          }, EDIT_SETTLE_MS);
        }
      },
    });
    view.current = editor;
    return () => {
      if (settle.current) clearTimeout(settle.current);
      editor.destroy();
      view.current = null;
    };
  }, [session.writing]);

  const content = shown?.content ?? '';
  const key = `${shown?.version ?? 0}`;
  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    // The user's own edit coming back from the machine must not reset the cursor.
    if (content === lastMarkdown.current) return;
    lastMarkdown.current = content;
    editor.updateState(stateFor(content));
    setSelection(null);
    if (shown?.streaming) editor.dom.parentElement?.scrollTo({ top: editor.dom.scrollHeight });
  }, [content, key, shown?.streaming]);

  useEffect(() => {
    view.current?.setProps({ editable: () => editableRef.current });
  }, [editable]);

  useEffect(() => {
    if (pendingEdit !== null && context.currentVersion !== null && context.currentVersion > pendingEdit) setPendingEdit(null);
  }, [context.currentVersion, pendingEdit]);

  const submitEdit = async () => {
    if (!selection || !shown) return;
    const sent = await researchStore.targetedEdit(instruction, selection.text);
    if (sent) {
      setPendingEdit(shown.version);
      setInstruction('');
      setSelection(null);
    }
  };

  const exportPdf = async () => {
    if (!shown) return;
    setExporting('pdf');
    setExportError(null);
    try {
      const name = fileName(shown.title, shown.version);
      downloadBlob(await markdownToPdf(shown.content, `${name}.pdf`), `${name}.pdf`);
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

  return (
    <div className="canvas-panel">
      <header className="panel-header">
        <Icon name="pen" size={16} />
        <strong className="canvas-title">{shown?.title || t('canvas.untitled')}</strong>
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
            disabled={context.versions.length === 0 || context.draft !== null}
            onChange={(event) => session.writing.send({ type: 'version.selected', version: Number(event.target.value) })}
            aria-label={t('canvas.versions')}
          >
            {context.draft && <option value="draft">{t('canvas.draft', { version: context.draft.version })}</option>}
            {[...context.versions].reverse().map((version) => (
              <option key={version.version} value={version.version}>
                {t('canvas.versionLabel', { version: version.version, title: version.title || t('canvas.untitled'), time: formatTime(version.timestamp) })}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button button-secondary button-small"
          disabled={!shown || shown.streaming}
          onClick={() => shown && downloadBlob(new Blob([shown.content], { type: 'text/markdown;charset=utf-8' }), `${fileName(shown.title, shown.version)}.md`)}
        >
          <Icon name="download" size={14} />
          Markdown
        </button>
        <button type="button" className="button button-secondary button-small" disabled={!shown || shown.streaming || exporting !== null} onClick={() => void exportPdf()}>
          {exporting ? <span className="spinner spinner-small" /> : <Icon name="download" size={14} />}
          PDF
        </button>
        <button type="button" className="icon-button" aria-label={t('user.close')} title={t('user.close')} onClick={() => researchStore.showCanvas(false)}>
          <Icon name="close" size={16} />
        </button>
      </header>
      {exportError && (
        <div className="composer-alert" role="alert">
          <Icon name="alert" size={14} />
          {exportError}
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
            <input value={instruction} onChange={(event) => setInstruction(event.target.value)} placeholder={t('canvas.editPlaceholder')} aria-label={t('canvas.editPlaceholder')} />
            <button type="submit" className="button button-primary button-small" disabled={instruction.trim() === '' || selection.text.trim() === ''}>
              {t('canvas.editSubmit')}
            </button>
          </form>
        )}
      </div>
    </div>
  );
}

import { useSelector } from '@xstate/react';
import { baseKeymap } from 'prosemirror-commands';
import { history, redo, undo } from 'prosemirror-history';
import { keymap } from 'prosemirror-keymap';
import { EditorState, Plugin, PluginKey, type Transaction } from 'prosemirror-state';
import { Decoration, DecorationSet, EditorView } from 'prosemirror-view';
import 'prosemirror-view/style/prosemirror.css';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ResearchSessionRef } from '../../machines/researchSession.ts';
import { editState, shownVersion } from '../../machines/writing.ts';
import { parseCanvas, serializeCanvas, snippetAt } from './canvasMarkdown.ts';
import { CitationPopover, unverifiedPlugin, type OpenCitation } from './CitationPopover.tsx';
import { markdownEditing } from './markdownInput.ts';
import { Select } from '../../ui/Select.tsx';
import { CheckIcon, CircleAlertIcon, DownloadIcon, PenLineIcon, SparklesIcon, SendIcon, SquarePenIcon, UsersIcon, XIcon } from '../../ui/icons.ts';
import { collabApi } from '../../collab/api.ts';
import { useApiMutation } from '../../api/query.ts';
import { COLLAB_LIMITS } from '@scriptorium/domain/protocol/collab';
import '../../components/markdown.css';
import { intlLocale } from '../../i18n/language.ts';

/** Marks transactions that carry streamed text: they are the agent's writing, not a hand edit. */
const STREAMED = 'canvas-streamed';

/**
 * The transaction that turns the editor's document into `markdown`'s, touching only what differs: a
 * streamed chunk changes the end of the report, so only its last blocks are redrawn.
 */
function streamTransaction(state: EditorState, markdown: string): Transaction | null {
  const next = parseCanvas(markdown);
  const start = state.doc.content.findDiffStart(next.content);
  if (start === null) return null;
  let { a: endA, b: endB } = state.doc.content.findDiffEnd(next.content)!;
  const overlap = start - Math.min(endA, endB);
  if (overlap > 0) {
    endA += overlap;
    endB += overlap;
  }
  return state.tr.replace(start, endA, next.slice(start, endB)).setMeta(STREAMED, true).setMeta('addToHistory', false);
}

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
export default function CanvasPanel({ session, readOnly }: { session: ResearchSessionRef; readOnly: boolean }) {
  const { t, i18n } = useTranslation();
  const { writing, targetedEdit, canvasExport } = session.getSnapshot().children as Required<ReturnType<ResearchSessionRef['getSnapshot']>['children']>;
  const context = useSelector(writing, (snapshot) => snapshot.context);
  const edit = useSelector(writing, editState);
  const editing = useSelector(
    targetedEdit,
    (snapshot) => ({ pending: snapshot.matches('pending'), error: snapshot.context.error, instruction: snapshot.context.request?.text ?? '' }),
    (a, b) => a.pending === b.pending && a.error === b.error && a.instruction === b.instruction,
  );
  const exporting = useSelector(canvasExport, (snapshot) => snapshot.context);
  const shown = shownVersion(context);
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const lastMarkdown = useRef<string | null>(null);
  const [selection, setSelection] = useState<Selection | null>(null);
  const [citation, setCitation] = useState<OpenCitation | null>(null);
  const [instruction, setInstruction] = useState('');
  const editable = !readOnly && shown !== null && !shown.streaming;
  const editableRef = useRef(editable);
  const labelRef = useRef('');
  labelRef.current = t('canvas.editorLabel');
  editableRef.current = editable;

  const save = (): boolean => {
    const editor = view.current;
    const state = writing.getSnapshot();
    if (!editor || !editableRef.current || !(state.matches({ edit: 'dirty' }) || state.matches({ edit: 'confirmingSwitch' }))) return false;
    const markdown = serializeCanvas(editor.state.doc);
    // The saved version comes back with this text: the editor keeps its cursor.
    lastMarkdown.current = markdown;
    writing.send({ type: 'edit.saved', content: markdown });
    return true;
  };
  const saveRef = useRef(save);
  saveRef.current = save;
  /** Shows a version's text afresh, or applies the streamed text to it (both set up with the editor). */
  const reset = useRef<(markdown: string) => void>(() => undefined);
  const stream = useRef<(markdown: string) => void>(() => undefined);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const stateFor = (markdown: string) =>
      EditorState.create({
        doc: parseCanvas(markdown),
        plugins: [targetPlugin, unverifiedPlugin, ...markdownEditing(), history(), keymap({ 'Mod-z': undo, 'Mod-y': redo, 'Shift-Mod-z': redo, 'Mod-s': () => saveRef.current() }), keymap(baseKeymap)],
      });
    const editor = new EditorView(element, {
      state: stateFor(''),
      editable: () => editableRef.current,
      handleDOMEvents: {
        // A citation shows what its source says instead of leaving the report.
        click(_view, event) {
          const link = event.target instanceof Element ? event.target.closest('a') : null;
          const n = /^\[(\d+)\]$/.exec(link?.textContent ?? '')?.[1];
          if (!link || !n) return false;
          event.preventDefault();
          const same = [...element.querySelectorAll('a')].filter((candidate) => candidate.textContent === link.textContent);
          const box = element.getBoundingClientRect();
          const at = link.getBoundingClientRect();
          setCitation({ n: Number(n), nth: same.indexOf(link), href: link.getAttribute('href') ?? '', top: at.bottom - box.top + element.scrollTop, left: at.left - box.left });
          return true;
        },
      },
      attributes: () => ({ role: 'textbox', 'aria-multiline': 'true', 'aria-label': labelRef.current, 'aria-readonly': String(!editableRef.current) }),
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
        if (transaction.docChanged && !transaction.getMeta(STREAMED)) writing.send({ type: 'version.edited' });
      },
    });
    view.current = editor;
    // Streamed text is applied once per frame, however many chunks arrived in it.
    let frame: number | null = null;
    const cancelFrame = () => {
      if (frame !== null) cancelAnimationFrame(frame);
      frame = null;
    };
    reset.current = (markdown: string) => {
      cancelFrame();
      setCitation(null);
      lastMarkdown.current = markdown;
      editor.updateState(stateFor(markdown));
      setSelection(null);
    };
    stream.current = (markdown: string) => {
      lastMarkdown.current = markdown;
      frame ??= requestAnimationFrame(() => {
        frame = null;
        const transaction = streamTransaction(editor.state, lastMarkdown.current ?? '');
        if (transaction) editor.dispatch(transaction);
        const scroller = element.closest('.canvas-scroll');
        if (scroller) scroller.scrollTop = scroller.scrollHeight;
      });
    };
    return () => {
      cancelFrame();
      editor.destroy();
      view.current = null;
    };
  }, [writing]);

  const content = shown?.content ?? '';
  const streamingVersion = shown?.streaming ? shown.version : null;
  const streamedVersion = useRef<number | null>(null);
  useEffect(() => {
    // The user's own saved edit coming back must not reset the cursor.
    if (content === lastMarkdown.current) return;
    // Streamed text of the version being written goes in as transactions; anything else starts afresh.
    if (streamingVersion !== null && streamedVersion.current === streamingVersion) stream.current(content);
    else reset.current(content);
    streamedVersion.current = streamingVersion;
  }, [content, shown?.version, streamingVersion]);

  // Another version is read from its top, not from where the one before was scrolled to.
  const shownNumber = shown?.version ?? null;
  useEffect(() => {
    host.current?.closest('.canvas-scroll')?.scrollTo({ top: 0 });
  }, [shownNumber]);

  useEffect(() => {
    view.current?.setProps({ editable: () => editableRef.current });
  }, [editable]);

  // A refused or failed edit stops marking its passage.
  useEffect(() => {
    if (editing.error) view.current?.dispatch(view.current.state.tr.setMeta(target, null));
  }, [editing.error]);

  const submitEdit = () => {
    const editor = view.current;
    if (!selection || !shown || !editor || instruction.trim() === '') return;
    const { snippet, offset } = snippetAt(shown.content, editor.state.doc, selection.from, selection.to);
    session.send({ type: 'edit.request', text: instruction, snippet, offset, version: shown.version });
    setInstruction('');
    setSelection(null);
    // The box that asked goes: the report, where the passage is marked, takes its focus.
    editor.focus();
  };

  const exportFile = (kind: 'pdf' | 'markdown') => {
    if (!shown) return;
    canvasExport.send({ type: 'export.start', request: { kind, sessionId: session.getSnapshot().context.id, readOnly, version: shown.version, title: shown.title, content: shown.content } });
  };

  const formatTime = (timestamp: string) => {
    const date = new Date(timestamp);
    return Number.isNaN(date.getTime()) ? '' : new Intl.DateTimeFormat(intlLocale(i18n.language), { dateStyle: 'short', timeStyle: 'short' }).format(date);
  };

  /** Opens the shown version to live co-editing: a shared document that starts as its content, opened in /collaboration. */
  const coEdit = useApiMutation({
    mutationFn: async (version: { version: number; title: string; content: string }) => {
      const { reportToDoc } = await import('../../collab/markdown.ts');
      const start = { report: { session_id: session.getSnapshot().context.id, version: version.version }, doc: reportToDoc(version.content).toJSON() };
      return collabApi.create((version.title || t('canvas.untitled')).slice(0, COLLAB_LIMITS.title), start);
    },
    onSuccess: (created) => location.assign(`/collaboration/${created.id}`),
  });

  const alert = coEdit.error ? t('canvas.coEditFailed', { message: coEdit.error.userMessage }) : context.saveError ? t('canvas.saveFailed', { message: context.saveError }) : editing.error ? null : exporting.error;
  return (
    <div className="canvas-panel">
      <header className="panel-header">
        <PenLineIcon size={16} />
        <strong className="canvas-title" title={shown?.title || t('canvas.untitled')}>
          {shown?.title || t('canvas.untitled')}
        </strong>
        {shown?.streaming && (
          <span className="badge badge-primary">
            <span className="spinner spinner-small" />
            {t('writing.inProgress')}
          </span>
        )}
        {editing.pending && (
          <span className="badge badge-primary">
            <span className="spinner spinner-small" />
            {t('canvas.editSubmitted')}
          </span>
        )}
        <span className="toolbar-spacer" />
        <Select
          className="version-select"
          label={t('canvas.versions')}
          value={context.draft ? 'draft' : String(context.currentVersion ?? '')}
          disabled={context.versions.length === 0 || context.draft !== null || edit === 'saving'}
          onChange={(value) => writing.send({ type: 'version.selected', version: Number(value) })}
          options={[
            ...(context.draft ? [{ value: 'draft', label: t('canvas.draft', { version: context.draft.version }) }] : []),
            ...[...context.versions].reverse().map((version) => ({ value: String(version.version), label: t('canvas.versionLabel', { version: version.version, time: formatTime(version.timestamp) }) })),
          ]}
        />
        {!readOnly && (
          <button type="button" className="button button-secondary button-small" title={t('canvas.coEditHint')} disabled={!shown || shown.streaming || coEdit.isPending || coEdit.isSuccess} onClick={() => shown && coEdit.mutate(shown)}>
            {coEdit.isPending ? <span className="spinner spinner-small" /> : <UsersIcon size={14} />}
            {t('canvas.coEdit')}
          </button>
        )}
        <button type="button" className="button button-secondary button-small" disabled={!shown || shown.streaming || exporting.kind !== null} onClick={() => exportFile('markdown')}>
          {exporting.kind === 'markdown' ? <span className="spinner spinner-small" /> : <DownloadIcon size={14} />}
          {t('canvas.exportMarkdown')}
        </button>
        <button type="button" className="button button-secondary button-small" disabled={!shown || shown.streaming || exporting.kind !== null} onClick={() => exportFile('pdf')}>
          {exporting.kind === 'pdf' ? <span className="spinner spinner-small" /> : <DownloadIcon size={14} />}
          {t('canvas.exportPdf')}
        </button>
        <button type="button" className="icon-button" aria-label={t('user.close')} title={t('user.close')} onClick={() => session.send({ type: 'panel.canvas', open: false })}>
          <XIcon size={16} />
        </button>
      </header>
      {edit === 'confirmingSwitch' && (
        <div className="canvas-savebar" role="alertdialog" aria-label={t('canvas.switchTitle', { version: context.pendingVersion ?? 0 })}>
          <CircleAlertIcon size={14} />
          <span>{t('canvas.switchTitle', { version: context.pendingVersion ?? 0 })}</span>
          <span className="toolbar-spacer" />
          <button type="button" className="button button-secondary button-small" onClick={() => writing.send({ type: 'switch.cancelled' })}>
            {t('canvas.switchCancel')}
          </button>
          <button type="button" className="button button-secondary button-small" onClick={() => writing.send({ type: 'edit.discarded' })}>
            {t('canvas.switchDiscard')}
          </button>
          <button type="button" className="button button-primary button-small" onClick={() => save()}>
            <CheckIcon size={14} />
            {t('canvas.switchSave')}
          </button>
        </div>
      )}
      {(edit === 'dirty' || edit === 'saving') && (
        <div className="canvas-savebar">
          <SquarePenIcon size={14} />
          <span>{t('canvas.unsaved')}</span>
          <span className="toolbar-spacer" />
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={edit === 'saving'}
            onClick={() => {
              writing.send({ type: 'edit.discarded' });
              reset.current(content);
            }}
          >
            {t('canvas.discard')}
          </button>
          <button type="button" className="button button-primary button-small" disabled={edit === 'saving'} onClick={() => save()} title={t('canvas.saveShortcut')}>
            {edit === 'saving' ? <span className="spinner spinner-small" /> : <CheckIcon size={14} />}
            {t(edit === 'saving' ? 'canvas.saving' : 'canvas.save')}
          </button>
        </div>
      )}
      {alert && (
        <div className="composer-alert" role="alert">
          <CircleAlertIcon size={14} />
          {alert}
        </div>
      )}
      {editing.error !== null && (
        // The instruction stays with its reason, to be sent again as it was once the cause is gone (a budget topped up).
        <div className="composer-alert edit-refused" role="alert">
          <CircleAlertIcon size={14} />
          <span>
            {t('canvas.editFailed', { message: editing.error })}
            <q className="edit-refused-instruction">{editing.instruction}</q>
          </span>
          <button type="button" className="button button-secondary button-small" onClick={() => targetedEdit.send({ type: 'edit.dismissed' })}>
            {t('canvas.editDismiss')}
          </button>
          <button type="button" className="button button-primary button-small" onClick={() => targetedEdit.send({ type: 'edit.retried' })}>
            <SendIcon size={14} />
            {t('canvas.editRetry')}
          </button>
        </div>
      )}
      <div className="canvas-scroll">
        {!shown && <p className="canvas-empty muted">{t('canvas.empty')}</p>}
        <div className="canvas-doc markdown" ref={host} />
        {citation && shown && <CitationPopover citation={citation} content={shown.content} checks={shown.citations ?? []} onClose={() => setCitation(null)} />}
        {selection && editable && (
          <form
            className="edit-popover"
            style={{ top: selection.top, left: selection.left }}
            onSubmit={(event) => {
              event.preventDefault();
              submitEdit();
            }}
          >
            <SparklesIcon size={14} />
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

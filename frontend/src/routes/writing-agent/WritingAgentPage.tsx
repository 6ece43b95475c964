import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { queryKeys, useApiMutation, useApiQuery } from '../../api/query.ts';
import { research, uploadFile } from '../../api/research.ts';
import { clientId } from '../../api/socket.ts';
import { useNoteTree } from '../../notes/live.ts';
import { checkBrief, MAX_BRIEF, MAX_MATERIAL, sessionName, uploadTypeOf, type BriefProblem } from './brief.ts';
import './writing.css';
import { CircleAlertIcon, FileIcon, FileTextIcon, PaperclipIcon, PenLineIcon, SparklesIcon, WifiOffIcon } from '../../ui/icons.ts';
import { Segmented } from '../../ui/Segmented.tsx';
import '../../ui/ui.css';

type Length = 'short' | 'medium' | 'long';
type Style = 'academic' | 'professional' | 'popular';
type Language = 'zh' | 'en';
type Step = 'session' | 'preference' | 'notes' | 'files' | 'start';

const LENGTHS: Length[] = ['short', 'medium', 'long'];
const STYLES: Style[] = ['academic', 'professional', 'popular'];
const LANGUAGES: Language[] = ['zh', 'en'];

/**
 * /ai-first/writing-agent: a brief, preferences and material become a research session in which
 * the direct writing agent writes the report into the canvas; the research view then shows it
 * being written, and everything the canvas offers (versions, edits, exports, sharing) follows.
 */
export default function WritingAgentPage() {
  const { t, i18n } = useTranslation('writing');
  const navigate = useNavigate();
  const briefId = useId();
  const instructionsId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [brief, setBrief] = useState('');
  const [length, setLength] = useState<Length>('medium');
  const [style, setStyle] = useState<Style>('professional');
  const [language, setLanguage] = useState<Language>(i18n.language === 'en' ? 'en' : 'zh');
  const [instructions, setInstructions] = useState('');
  const [chosenNotes, setChosenNotes] = useState<ReadonlySet<string>>(new Set());
  const [files, setFiles] = useState<File[]>([]);
  const [touched, setTouched] = useState(false);
  const [step, setStep] = useState<Step | null>(null);
  // The note tree and the model list are the ones the notes page and the research view cache.
  const tree = useNoteTree(true);
  const notes = tree.isPending ? null : (tree.data ?? []);
  const offline = useApiQuery({ queryKey: queryKeys.models, queryFn: research.models }).data?.offline ?? false;

  const problem = checkBrief(brief, chosenNotes.size + files.length);
  const briefProblem = (found: BriefProblem | null): string | null => {
    if (found?.kind === 'tooShort') return t('brief.tooShort', { min: found.min });
    if (found?.kind === 'tooLong') return t('brief.tooLong', { max: found.max });
    return null;
  };

  const toggleNote = (id: string) =>
    setChosenNotes((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const addFiles = (list: FileList | null) => {
    const accepted = Array.from(list ?? []).filter((file) => uploadTypeOf(file.name) !== null);
    setFiles((current) => [...current, ...accepted.filter((file) => !current.some((known) => known.name === file.name && known.size === file.size))]);
    if (fileInput.current) fileInput.current.value = '';
  };

  const launch = useApiMutation({
    mutationFn: async () => {
      setStep('session');
      const session = await research.createSession({ client_id: clientId(), name: sessionName(brief), mode: 1, search_enabled: false, layout_preset: 'chat-interface-only' });
      const conversationId = session.session_id;
      setStep('preference');
      await research.setContentPreference({ conversation_id: conversationId, length, style, language, instructions: instructions.trim() });
      setStep('notes');
      for (const id of chosenNotes) await research.selectNote(conversationId, id);
      setStep('files');
      for (const file of files) await uploadFile(conversationId, file, uploadTypeOf(file.name)!);
      setStep('start');
      await research.dispatch(conversationId, { agent: 'direct_writing_agent', action: 'send', params: { text: brief.trim(), client_id: clientId() }, run_async: true });
      return conversationId;
    },
    onSuccess: (conversationId) => navigate(`/research?conversation_id=${encodeURIComponent(conversationId)}`),
    onError: () => setStep(null),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem || step) return;
    launch.mutate();
  };
  const error = launch.error ? t('failed', { message: launch.error.userMessage }) : null;

  const shownProblem = touched ? briefProblem(problem) : null;
  const briefLength = Array.from(brief.trim()).length;

  return (
    <div className="writing-page">
      <header className="writing-head page-head">
        <span className="writing-head-icon">
          <PenLineIcon size={22} />
        </span>
        <div>
          <h1>{t('title')}</h1>
          <p className="muted">{t('subtitle')}</p>
        </div>
      </header>
      {offline && (
        <p className="writing-offline">
          <WifiOffIcon size={14} />
          {t('offline')}
        </p>
      )}
      <form className="writing-form" onSubmit={submit} noValidate>
        <section className="surface-card writing-card">
          <label htmlFor={briefId} className="writing-label">
            {t('brief.label')}
          </label>
          <textarea
            className="input"
            id={briefId}
            rows={6}
            value={brief}
            maxLength={MAX_BRIEF + 200}
            placeholder={t('brief.placeholder')}
            aria-invalid={shownProblem !== null ? true : undefined}
            onChange={(event) => setBrief(event.target.value)}
          />
          <div className="writing-meta">
            {shownProblem ? <span className="field-error">{shownProblem}</span> : <span />}
            <span className="muted">{t('brief.count', { count: briefLength, max: MAX_BRIEF })}</span>
          </div>
        </section>

        <section className="surface-card writing-card">
          <h2>{t('preference.title')}</h2>
          <div className="writing-options">
            <Choice label={t('preference.length')} options={LENGTHS} value={length} onChange={setLength} text={(value) => t(`preference.lengths.${value}`)} />
            <Choice label={t('preference.style')} options={STYLES} value={style} onChange={setStyle} text={(value) => t(`preference.styles.${value}`)} />
            <Choice label={t('preference.language')} options={LANGUAGES} value={language} onChange={setLanguage} text={(value) => t(`preference.languages.${value}`)} />
          </div>
          <label htmlFor={instructionsId} className="writing-label small">
            {t('preference.instructions')}
          </label>
          <input className="input" id={instructionsId} value={instructions} maxLength={500} placeholder={t('preference.instructionsPlaceholder')} onChange={(event) => setInstructions(event.target.value)} />
        </section>

        <section className="surface-card writing-card">
          <h2>{t('material.title')}</h2>
          <p className="muted small">{t('material.hint')}</p>
          <h3>{t('material.notes')}</h3>
          {notes === null ? (
            <span className="spinner spinner-small" />
          ) : notes.length === 0 ? (
            <p className="muted small">{t('material.noNotes')}</p>
          ) : (
            <ul className="writing-notes">
              {notes.map((note) => (
                <li key={note.id}>
                  <label>
                    <input type="checkbox" checked={chosenNotes.has(note.id)} onChange={() => toggleNote(note.id)} />
                    <FileTextIcon size={14} />
                    <span>{note.name}</span>
                  </label>
                </li>
              ))}
            </ul>
          )}
          <h3>{t('material.files')}</h3>
          <div className="writing-files">
            <button type="button" className="button button-secondary button-small" onClick={() => fileInput.current?.click()}>
              <PaperclipIcon size={14} />
              {t('material.chooseFiles')}
            </button>
            <span className="muted small">{t('material.filesHint')}</span>
            <input ref={fileInput} type="file" multiple hidden accept=".txt,.md,.markdown,.pdf,.docx,.html,.htm" onChange={(event) => addFiles(event.target.files)} />
          </div>
          {files.length > 0 && (
            <ul className="writing-file-list">
              {files.map((file) => (
                <li key={`${file.name}-${file.size}`}>
                  <FileIcon size={14} />
                  <span>{file.name}</span>
                  <button type="button" className="link-button" onClick={() => setFiles((current) => current.filter((known) => known !== file))}>
                    {t('material.remove')}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {touched && problem?.kind === 'tooMany' && <p className="field-error">{t('material.tooMany', { max: MAX_MATERIAL })}</p>}
        </section>

        {error && (
          <p className="writing-error" role="alert">
            <CircleAlertIcon size={14} />
            {error}
          </p>
        )}
        <div className="writing-actions">
          {step && (
            <span className="muted">
              <span className="spinner spinner-small" /> {t(`steps.${step}`)}
            </span>
          )}
          <button type="submit" className="button button-primary" disabled={step !== null}>
            <SparklesIcon size={16} />
            {t('submit')}
          </button>
        </div>
      </form>
    </div>
  );
}

function Choice<T extends string>({ label, options, value, onChange, text }: { label: string; options: readonly T[]; value: T; onChange: (value: T) => void; text: (value: T) => string }) {
  const labelId = useId();
  return (
    <div className="writing-choice">
      <span className="writing-choice-label" id={labelId}>
        {label}
      </span>
      <Segmented aria-labelledby={labelId} value={value} onChange={onChange} options={options.map((option) => ({ value: option, label: text(option) }))} />
    </div>
  );
}

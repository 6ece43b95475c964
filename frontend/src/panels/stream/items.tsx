import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClarificationAnswer, ClarificationQuestion, PlanStep, WebResult } from '@scriptorium/backend/protocol/research';
import type { WireContent } from '@scriptorium/backend/protocol/ws';
import { Icon } from '../../components/Icon.tsx';
import { Markdown } from '../../components/Markdown.tsx';
import { splitReportContent } from '../../research/editReport.ts';
import type { Source } from '../../research/markdown.ts';
import { progressText } from '../../research/progress.ts';
import { researchStore } from '../../research/store.ts';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const list = <T,>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

export function ThinkView({ content, streaming }: { content: string; streaming: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <div className={`think${open ? ' open' : ''}`}>
      <button type="button" className="think-toggle" onClick={() => setOpen((value) => !value)} aria-expanded={open}>
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={14} />
        <Icon name="cognition" size={14} />
        {t(streaming ? 'stream.thinking' : 'stream.thought')}
        {streaming && <span className="dots" aria-hidden="true" />}
      </button>
      {open && <div className="think-body">{content}</div>}
    </div>
  );
}

export function PlanView({ steps }: { steps: PlanStep[] }) {
  const { t } = useTranslation();
  return (
    <div className="card plan">
      <div className="card-title">
        <Icon name="plan" size={16} />
        {t('stream.planGenerated')}
      </div>
      <ol className="plan-steps">
        {steps.map((step) => (
          <li key={step.step} className={`plan-step ${step.status}`}>
            <span className="plan-mark" aria-label={t(`stream.stepStatus.${step.status}`)}>
              {step.status === 'completed' ? <Icon name="check" size={12} /> : step.status === 'in_progress' ? <span className="spinner spinner-small" /> : step.step}
            </span>
            <span>{step.description}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** One step of the plan starting (or, past the last step, all done), where it happens in the stream. */
export function PlanStepView({ index, steps }: { index: number; steps: PlanStep[] }) {
  const { t } = useTranslation();
  const step = steps[index];
  return (
    <div className="progress-line plan-progress">
      <Icon name={step ? 'plan' : 'check'} size={14} />
      <span>{step ? t('stream.planStep', { index: index + 1, total: steps.length, description: step.description }) : t('stream.planDone', { total: steps.length })}</span>
    </div>
  );
}

export function SearchQueriesView({ queries }: { queries: string[] }) {
  const { t } = useTranslation();
  return (
    <div className="progress-line">
      <Icon name="search" size={14} />
      <span>{t('stream.searching')}</span>
      <span className="query-chips">
        {queries.map((query) => (
          <span key={query} className="query-chip">
            {query}
          </span>
        ))}
      </span>
    </div>
  );
}

export function SearchResultsView({ content }: { content: WireContent }) {
  const { t } = useTranslation();
  const results = list<WebResult>(content.results);
  const [expanded, setExpanded] = useState(false);
  const shown = expanded ? results : results.slice(0, 4);
  return (
    <div className="card results">
      <div className="card-title">
        <Icon name="globe" size={16} />
        {t('stream.searchResults', { count: results.length })}
      </div>
      <ul className="result-list">
        {shown.map((result, index) => (
          <li key={`${result.url}-${index}`} className={result.has_useful_info ? 'useful' : undefined}>
            <a href={result.url} target="_blank" rel="noopener noreferrer" className="result-title">
              <span className="result-index">{index + 1}</span>
              {result.title || result.url}
            </a>
            <span className="result-url">{hostOf(result.url)}</span>
            {result.has_useful_info && result.useful_info_summary ? <p className="result-summary">{result.useful_info_summary}</p> : result.snippet && <p className="result-snippet">{result.snippet}</p>}
          </li>
        ))}
      </ul>
      {results.length > 4 && (
        <button type="button" className="link-button" onClick={() => setExpanded((value) => !value)}>
          {t(expanded ? 'stream.showLess' : 'stream.showAll', { count: results.length })}
        </button>
      )}
    </div>
  );
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** web_browsing_* and web_scraping_* of one message, as one progress card. */
export function BrowsingView({ items }: { items: WireContent[] }) {
  const { t } = useTranslation();
  const finished = items.some((item) => item.content_type === 'web_browsing_llm_end');
  const scrapingEnd = items.findLast((item) => item.content_type === 'web_scraping_end');
  const scraping = items.some((item) => item.content_type === 'web_scraping_start');
  const results = items.filter((item) => item.content_type === 'web_browsing_result');
  const current = items.findLast((item) => item.content_type === 'web_browsing_in_progress');
  return (
    <div className="card browsing">
      <div className="card-title">
        {finished ? <Icon name="check" size={16} /> : <span className="spinner spinner-small" />}
        {finished ? t('stream.browsingFinished') : t('stream.browsing')}
      </div>
      {!finished && current && (
        <p className="muted small">
          {t('stream.browsingProgress', { index: Number(current.index ?? 0) + 1, total: Number(current.total ?? 0) })} {text(current.title) || text(current.url)}
        </p>
      )}
      {scraping && <p className="muted small">{scrapingEnd ? t('stream.scrapedCount', { count: Number(scrapingEnd.count ?? 0) }) : t('stream.scraping')}</p>}
      {results.length > 0 && (
        <ul className="browse-list">
          {results.map((result, index) => (
            <li key={index} className={result.ok ? 'ok' : 'failed'}>
              <Icon name={result.ok ? 'check' : 'alert'} size={12} />
              <a href={text(result.url)} target="_blank" rel="noopener noreferrer">
                {text(result.title) || text(result.url)}
              </a>
              {result.ok === true && text(result.summary) && <p className="result-summary">{text(result.summary)}</p>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function PlatformToolsView({ items }: { items: WireContent[] }) {
  const { t } = useTranslation();
  const start = items.find((item) => item.content_type === 'platform_tools_start');
  const result = items.findLast((item) => item.content_type === 'platform_tools_results');
  const ended = items.some((item) => item.content_type === 'platform_tools_end');
  const sources = list<{ title: string; url?: string; tool: string }>(result?.sources);
  const status = (result?.sources_status ?? {}) as Record<string, 'ok' | 'error'>;
  const tools = list<string>(result?.tools ?? start?.tools);
  return (
    <div className="card tools">
      <div className="card-title">
        {ended ? <Icon name="check" size={16} /> : <span className="spinner spinner-small" />}
        {ended ? t('stream.toolsCompleted') : t('stream.toolsRunning')}
      </div>
      <div className="tool-chips">
        {tools.map((tool) => (
          <span key={tool} className={`query-chip tool-${status[tool] ?? 'pending'}`}>
            {tool}
          </span>
        ))}
      </div>
      {result && <p className="muted small">{t('stream.toolsSummary', { tools: Number(result.tool_count ?? tools.length), results: Number(result.total_results ?? 0) })}</p>}
      {sources.length > 0 && (
        <ul className="browse-list">
          {sources.slice(0, 8).map((source, index) => (
            <li key={index}>
              <Icon name="file" size={12} />
              {source.url ? (
                <a href={source.url} target="_blank" rel="noopener noreferrer">
                  {source.title}
                </a>
              ) : (
                source.title
              )}
              <span className="muted small"> · {source.tool}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ClarificationView({ questions, answered, readOnly }: { questions: ClarificationQuestion[]; answered: ClarificationAnswer[] | null; readOnly: boolean }) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<Record<string, string[]>>({});
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [submitted, setSubmitted] = useState<ClarificationAnswer[] | null>(null);
  const done = answered ?? submitted;
  const toggle = (question: ClarificationQuestion, option: string) =>
    setSelected((current) => {
      const chosen = current[question.id] ?? [];
      if (question.question_type === 'single') return { ...current, [question.id]: [option] };
      return { ...current, [question.id]: chosen.includes(option) ? chosen.filter((value) => value !== option) : [...chosen, option] };
    });
  const answers: ClarificationAnswer[] = questions.map((question) => ({
    id: question.id,
    question: question.question_content,
    selectedOptions: selected[question.id] ?? [],
    textInput: (texts[question.id] ?? '').trim(),
    question_type: question.question_type,
  }));
  const complete = answers.some((answer) => answer.selectedOptions.length > 0 || answer.textInput !== '');
  if (done) {
    return (
      <div className="card clarification done">
        <div className="card-title">
          <Icon name="check" size={16} />
          {t('stream.clarificationDone')}
        </div>
        <dl className="answers">
          {done.map((answer) => (
            <div key={answer.id}>
              <dt>{answer.question || questions.find((question) => question.id === answer.id)?.question_content}</dt>
              <dd>{[...answer.selectedOptions, answer.textInput].filter(Boolean).join('；') || t('stream.noAnswer')}</dd>
            </div>
          ))}
        </dl>
      </div>
    );
  }
  return (
    <form
      className="card clarification"
      onSubmit={(event) => {
        event.preventDefault();
        if (!complete || readOnly) return;
        setSubmitted(answers);
        void researchStore.answerClarification(answers);
      }}
    >
      <div className="card-title">
        <Icon name="info" size={16} />
        {t('stream.clarificationTitle')}
      </div>
      {questions.map((question, index) => (
        <fieldset key={question.id} className="question" disabled={readOnly}>
          <legend>
            {index + 1}. {question.question_content}
          </legend>
          {question.question_options.length > 0 && (
            <div className="options">
              {question.question_options.map((option) => {
                const active = (selected[question.id] ?? []).includes(option);
                return (
                  <button key={option} type="button" className={`option${active ? ' active' : ''}`} aria-pressed={active} onClick={() => toggle(question, option)}>
                    {option}
                  </button>
                );
              })}
            </div>
          )}
          <input
            className="text-input"
            value={texts[question.id] ?? ''}
            placeholder={t(question.question_options.length > 0 ? 'stream.otherAnswer' : 'stream.yourAnswer')}
            onChange={(event) => setTexts((current) => ({ ...current, [question.id]: event.target.value }))}
          />
        </fieldset>
      ))}
      {!readOnly && (
        <div className="card-actions">
          <button className="button button-primary button-small" type="submit" disabled={!complete}>
            <Icon name="send" size={14} />
            {t('stream.submitAnswers')}
          </button>
        </div>
      )}
    </form>
  );
}

export function FeedbackRequestView({ chosen, readOnly }: { chosen: { option: string; text?: string } | null; readOnly: boolean }) {
  const { t } = useTranslation();
  const [manual, setManual] = useState(false);
  const [value, setValue] = useState('');
  const [sent, setSent] = useState<{ option: string; text?: string } | null>(null);
  const done = chosen ?? sent;
  const choose = (option: 'continue' | 'satisfied' | 'manual_feedback', feedback?: string) => {
    setSent({ option, ...(feedback !== undefined && { text: feedback }) });
    void researchStore.feedback(option, feedback);
  };
  // A shared conversation cannot answer; an open question is nothing to show there.
  if (!done && readOnly) return null;
  if (done) {
    return (
      <div className="feedback-done">
        <Icon name="check" size={14} />
        {t(`stream.feedback.${done.option as 'continue'}`)}
        {done.text && <span className="muted">：{done.text}</span>}
      </div>
    );
  }
  return (
    <div className="card feedback">
      <div className="card-title">{t('stream.feedback.title')}</div>
      <div className="card-actions start">
        <button type="button" className="button button-secondary button-small" disabled={readOnly} onClick={() => choose('continue')}>
          {t('stream.feedback.continue')}
        </button>
        <button type="button" className="button button-primary button-small" disabled={readOnly} onClick={() => choose('satisfied')}>
          {t('stream.feedback.satisfied')}
        </button>
        <button type="button" className="button button-secondary button-small" disabled={readOnly} onClick={() => setManual((open) => !open)}>
          {t('stream.feedback.manual_feedback')}
        </button>
      </div>
      {manual && (
        <form
          className="manual-feedback"
          onSubmit={(event) => {
            event.preventDefault();
            if (value.trim() !== '') choose('manual_feedback', value.trim());
          }}
        >
          <textarea className="text-input" rows={3} value={value} onChange={(event) => setValue(event.target.value)} placeholder={t('stream.feedback.placeholder')} />
          <button className="button button-primary button-small" type="submit" disabled={value.trim() === ''}>
            {t('stream.feedback.send')}
          </button>
        </form>
      )}
    </div>
  );
}

export function ArtifactCard({ content, complete }: { content: WireContent; complete: boolean }) {
  const { t } = useTranslation();
  const filename = text(content.filename);
  return (
    <div className="artifact-card" data-guide="artifacts">
      <span className="artifact-icon">
        <Icon name="file" size={18} />
      </span>
      <div className="artifact-meta">
        <strong>{filename}</strong>
        <span className="muted small">{complete ? t(content.filetype === 'html' ? 'stream.artifactHtml' : 'stream.artifactMarkdown') : t('stream.artifactGenerating')}</span>
      </div>
      {complete ? (
        <button type="button" className="button button-secondary button-small" onClick={() => researchStore.showArtifact({ filename, content: text(content.content), filetype: content.filetype === 'html' ? 'html' : 'markdown', messageId: text(content.message_id) })}>
          {t('stream.open')}
        </button>
      ) : (
        <span className="spinner spinner-small" />
      )}
    </div>
  );
}

/**
 * The report as it went into the canvas. Folded by default: the canvas beside the chat shows the
 * same text, and the whole report again in the conversation would push everything else away.
 */
export function EditReportView({ content }: { content: WireContent }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const blocks = list<{ id: string; content: string; destination: string }>(content.content);
  const chars = blocks.reduce((sum, block) => sum + block.content.length, 0);
  return (
    <div className="card edit-report">
      <div className="card-title">
        <Icon name="edit" size={16} />
        {t('stream.editReport', { title: text(content.title), version: Number(content.version ?? 0) })}
      </div>
      <div className="edit-report-actions">
        <span className="muted">{t('stream.editReportSize', { blocks: blocks.length, chars })}</span>
        <button type="button" className="button button-secondary button-small" onClick={() => researchStore.showCanvas(true)}>
          {t('stream.openCanvas')}
        </button>
        <button type="button" className="link-button edit-report-toggle" onClick={() => setOpen((value) => !value)} aria-expanded={open}>
          <Icon name={open ? 'chevronDown' : 'chevronRight'} size={14} />
          {t(open ? 'stream.foldReport' : 'stream.unfoldReport')}
        </button>
      </div>
      {open &&
        blocks.flatMap((block) =>
          splitReportContent(block.content).map((part, index) => (
            <div key={`${block.id}-${index}`} className="edit-block">
              {index === 0 && block.destination && <span className="chip chip-small">{block.destination}</span>}
              <Markdown text={part} />
            </div>
          )),
        )}
    </div>
  );
}

export function CognitionView({ content }: { content: WireContent }) {
  const { t } = useTranslation();
  const items = list<{ id: string; title: string; summary: string }>(content.items);
  if (items.length === 0) return null;
  return (
    <div className="card cognition">
      <div className="card-title">
        <Icon name="sparkles" size={16} />
        {t('stream.cognitionTitle')}
      </div>
      <ul className="cognition-list">
        {items.map((item) => (
          <li key={item.id}>
            <a href={`/cognition?id=${encodeURIComponent(item.id)}`} target="_blank" rel="noopener noreferrer">
              {item.title}
            </a>
            <p className="muted small">{item.summary}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function WritingNoticeView({ content }: { content: WireContent }) {
  const { t } = useTranslation();
  if (content.content_type === 'writing_start') {
    return (
      <button type="button" className="writing-notice" onClick={() => researchStore.showCanvas(true)}>
        <span className="spinner spinner-small" />
        {t('writing.inProgress')}
        <span className="muted small">{t('writing.version', { version: Number(content.version ?? 0) })}</span>
      </button>
    );
  }
  const saved = content.saved !== false;
  const interrupted = content.interrupted === true;
  return (
    <button type="button" className={`writing-notice${interrupted ? ' warning' : ''}`} disabled={!saved} onClick={() => researchStore.showCanvas(true)}>
      <Icon name={interrupted ? 'alert' : saved ? 'check' : 'info'} size={14} />
      {t(interrupted ? 'writing.interrupted' : saved ? 'writing.done' : 'writing.discarded')}
      {saved && <span className="muted small">{t('writing.openVersion', { version: Number(content.version ?? 0) })}</span>}
    </button>
  );
}

export function TargetedEditView({ content }: { content: WireContent }) {
  const { t } = useTranslation();
  return (
    <div className="card targeted-edit">
      <div className="card-title">
        <Icon name="check" size={16} />
        {t('stream.targetedEditDone', { version: Number(content.version ?? 0) })}
      </div>
      <div className="diff">
        <del>{text(content.original_snippet)}</del>
        <ins>{text(content.edited_snippet)}</ins>
      </div>
    </div>
  );
}

export function ErrorItem({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <div className="stream-error" role="alert">
      <Icon name="alert" size={16} />
      <span>{message || t('stream.unknownError')}</span>
    </div>
  );
}

export function InfoItem({ content }: { content: WireContent }) {
  const { t } = useTranslation();
  const said = text(content.content) || text(content.message);
  const progress = progressText(said);
  return (
    <div className={`info-item${content.level === 'warning' ? ' warning' : ''}`}>
      <Icon name={content.level === 'warning' ? 'alert' : 'info'} size={14} />
      <span>{progress ? t(progress.key, { count: progress.params?.count ?? 0 }) : said}</span>
    </div>
  );
}

export function StatusGoalView({ content }: { content: WireContent }) {
  return (
    <div className="status-goal">
      <Icon name="compass" size={14} />
      <span>{text(content.status)}</span>
      {text(content.goal) && <span className="muted">— {text(content.goal)}</span>}
    </div>
  );
}

export const sourcesOf = (contents: WireContent[]): Source[] => {
  const sources: Source[] = [];
  for (const item of contents) {
    if (item.content_type === 'web_search_results') for (const result of list<WebResult>(item.results)) sources.push({ title: result.title, url: result.url });
    if (item.content_type === 'platform_tools_results') for (const source of list<{ title: string; url?: string }>(item.sources)) if (source.url) sources.push({ title: source.title, url: source.url });
  }
  return sources;
};

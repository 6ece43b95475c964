import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { PlanReviewPanel, type PlanReview } from './PlanReview.tsx';
import { useTranslation } from 'react-i18next';
import type { ContentOf, WireContent } from '@scriptorium/domain/protocol/content';
import type { ClarificationAnswer, ClarificationQuestion, FeedbackOption, PlanStep } from '@scriptorium/domain/protocol/research';
import { Markdown } from '../../components/Markdown.tsx';
import { splitReportContent } from '../../research/editReport.ts';
import type { Source } from '../../research/markdown.ts';
import { infoText } from '../../research/progress.ts';
import { holdPlanPlayer, planPlayer } from '../../machines/planProgress.ts';
import type { PendingCommand } from '../../machines/researchSession.ts';
import { useSessionRef } from '../../research/sessionContext.ts';
import { OptionGroup } from '../../ui/OptionGroup.tsx';
import { CheckIcon, ChevronDownIcon, ChevronRightIcon, CircleAlertIcon, CompassIcon, FileIcon, GlobeIcon, InfoIcon, LightbulbIcon, ListChecksIcon, SearchIcon, SendIcon, SparklesIcon, SquarePenIcon } from '../../ui/icons.ts';

/** Browsing and scraping items of one round, shown as one card. */
export const BROWSING_TYPES = ['web_browsing_start', 'web_browsing_in_progress', 'web_browsing_result', 'web_browsing_llm_end', 'web_scraping_start', 'web_scraping_end'] as const;
export const TOOL_TYPES = ['platform_tools_start', 'platform_tools_results', 'platform_tools_end'] as const;
export type BrowsingItem = ContentOf<(typeof BROWSING_TYPES)[number]>;
export type ToolItem = ContentOf<(typeof TOOL_TYPES)[number]>;

export function ThinkView({ content, streaming }: { content: string; streaming: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <div className={`think${open ? ' open' : ''}`}>
      <button type="button" className="think-toggle" onClick={() => setOpen((value) => !value)} aria-expanded={open}>
        {open ? <ChevronDownIcon size={14} /> : <ChevronRightIcon size={14} />}
        <LightbulbIcon size={14} />
        {t(streaming ? 'stream.thinking' : 'stream.thought')}
        {streaming && <span className="dots" aria-hidden="true" />}
      </button>
      {open && <Markdown className="think-body" text={content} />}
    </div>
  );
}

/** A plan and its steps' status; `states` is every state it went through, played one at a time. */
export function PlanView({ id, states, review }: { id: string; states: PlanStep[][]; review: PlanReview | null }) {
  const [progress] = useState(() => planPlayer(id, states));
  useEffect(() => holdPlanPlayer(id, progress), [id, progress]);
  useEffect(() => progress.send({ type: 'plan.updated', states }), [progress, states]);
  const steps = useSelector(progress, (snapshot) => snapshot.context.shown);
  return <PlanCard steps={steps}>{review && review.status !== 'started' && <PlanReviewPanel steps={states.at(-1) ?? steps} review={review} />}</PlanCard>;
}

/** A plan exactly as given, with no playing of its changes (a replay at one position); `children` below its steps. */
export function PlanCard({ steps, children }: { steps: PlanStep[]; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="card plan">
      <div className="card-title">
        <ListChecksIcon size={16} />
        {t('stream.planGenerated')}
      </div>
      <ol className="plan-steps">
        {steps.map((step) => (
          <li key={step.step} className={`plan-step ${step.status}`}>
            <span className="plan-mark" aria-label={t(`stream.stepStatus.${step.status}`)}>
              {step.status === 'completed' ? <CheckIcon size={12} /> : step.status === 'in_progress' ? <span className="spinner spinner-small" /> : step.step}
            </span>
            <Markdown inline text={step.description} />
          </li>
        ))}
      </ol>
      {children}
    </div>
  );
}

/** One step of the plan starting (or, past the last step, all done), where it happens in the stream. */
export function PlanStepView({ index, steps }: { index: number; steps: PlanStep[] }) {
  const { t } = useTranslation();
  const step = steps[index];
  return (
    <div className="progress-line plan-progress">
      {step ? <ListChecksIcon size={14} /> : <CheckIcon size={14} />}
      <span>{step ? t('stream.planStep', { index: index + 1, total: steps.length, description: step.description }) : t('stream.planDone', { total: steps.length })}</span>
    </div>
  );
}

export function SearchQueriesView({ queries }: { queries: string[] }) {
  const { t } = useTranslation();
  return (
    <div className="progress-line">
      <SearchIcon size={14} />
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

export function SearchResultsView({ content }: { content: ContentOf<'web_search_results'> }) {
  const { t } = useTranslation();
  const results = content.results;
  const [expanded, setExpanded] = useState(false);
  const shown = expanded ? results : results.slice(0, 4);
  return (
    <div className="card results">
      <div className="card-title">
        <GlobeIcon size={16} />
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
            {result.has_useful_info && result.useful_info_summary ? <Markdown inline className="result-summary" text={result.useful_info_summary} /> : result.snippet && <Markdown inline className="result-snippet" text={result.snippet} />}
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
export function BrowsingView({ items }: { items: BrowsingItem[] }) {
  const { t } = useTranslation();
  const finished = items.some((item) => item.content_type === 'web_browsing_llm_end');
  const scrapingEnd = items.findLast((item) => item.content_type === 'web_scraping_end');
  const scraping = items.some((item) => item.content_type === 'web_scraping_start');
  const results = items.filter((item) => item.content_type === 'web_browsing_result');
  const current = items.findLast((item) => item.content_type === 'web_browsing_in_progress');
  return (
    <div className="card browsing">
      <div className="card-title">
        {finished ? <CheckIcon size={16} /> : <span className="spinner spinner-small" />}
        {finished ? t('stream.browsingFinished') : t('stream.browsing')}
      </div>
      {!finished && current && (
        <p className="muted small">
          {t('stream.browsingProgress', { index: current.index + 1, total: current.total })} {current.title || current.url}
        </p>
      )}
      {scraping && <p className="muted small">{scrapingEnd ? t('stream.scrapedCount', { count: scrapingEnd.count }) : t('stream.scraping')}</p>}
      {results.length > 0 && (
        <ul className="browse-list">
          {results.map((result, index) => (
            <li key={index} className={result.ok ? 'ok' : 'failed'}>
              {result.ok ? <CheckIcon size={12} /> : <CircleAlertIcon size={12} />}
              <a href={result.url} target="_blank" rel="noopener noreferrer">
                {result.title || result.url}
              </a>
              {result.ok && result.summary && <Markdown inline className="result-summary" text={result.summary} />}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function PlatformToolsView({ items }: { items: ToolItem[] }) {
  const { t } = useTranslation();
  const start = items.find((item) => item.content_type === 'platform_tools_start');
  const result = items.findLast((item) => item.content_type === 'platform_tools_results');
  const ended = items.some((item) => item.content_type === 'platform_tools_end');
  const sources = result?.sources ?? [];
  const status = result?.sources_status ?? {};
  const tools = result?.tools ?? start?.tools ?? [];
  return (
    <div className="card tools">
      <div className="card-title">
        {ended ? <CheckIcon size={16} /> : <span className="spinner spinner-small" />}
        {ended ? t('stream.toolsCompleted') : t('stream.toolsRunning')}
      </div>
      <div className="tool-chips">
        {tools.map((tool) => (
          <span key={tool} className={`query-chip tool-${status[tool] ?? 'pending'}`}>
            {tool}
          </span>
        ))}
      </div>
      {result && <p className="muted small">{t('stream.toolsSummary', { tools: t('stream.toolCount', { count: result.tool_count }), results: t('stream.resultCount', { count: result.total_results }) })}</p>}
      {sources.length > 0 && (
        <ul className="browse-list">
          {sources.slice(0, 8).map((source, index) => (
            <li key={index}>
              <FileIcon size={12} />
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

export function ClarificationView({ questions, answered, pending, readOnly }: { questions: ClarificationQuestion[]; answered: ClarificationAnswer[] | null; pending: PendingCommand | null; readOnly: boolean }) {
  const { t } = useTranslation();
  const session = useSessionRef();
  const [selected, setSelected] = useState<Record<string, string[]>>({});
  const [texts, setTexts] = useState<Record<string, string>>({});
  // Sent and not refused: shown as answered until the conversation has the answer.
  const submitted = pending?.error === null && pending.command.kind === 'clarification_answer' ? pending.command.answers : null;
  const done = answered ?? submitted;
  // Answered from the keyboard: the form goes, and focus goes to the answers it left instead of the page's start.
  const answeredHere = useRef(false);
  const summary = useRef<HTMLDivElement>(null);
  const isDone = done !== null;
  useEffect(() => {
    if (!isDone || !answeredHere.current) return;
    answeredHere.current = false;
    summary.current?.focus();
  }, [isDone]);
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
      <div ref={summary} tabIndex={-1} className="card clarification done">
        <div className="card-title">
          <CheckIcon size={16} />
          {t('stream.clarificationDone')}
        </div>
        <dl className="answers">
          {done.map((answer) => (
            <div key={answer.id}>
              <dt>
                <Markdown inline text={answer.question || questions.find((question) => question.id === answer.id)?.question_content || ''} />
              </dt>
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
        answeredHere.current = event.currentTarget.contains(document.activeElement);
        session?.send({ type: 'clarification.answer', answers });
      }}
    >
      <div className="card-title">
        <InfoIcon size={16} />
        {t('stream.clarificationTitle')}
      </div>
      {questions.map((question, index) => (
        <fieldset key={question.id} className="question" disabled={readOnly}>
          <legend>
            {index + 1}. <Markdown inline text={question.question_content} />
          </legend>
          {question.question_options.length > 0 && (
            <OptionGroup
              className="options"
              optionClassName="option"
              options={question.question_options}
              multiple={question.question_type !== 'single'}
              chosen={selected[question.id] ?? []}
              onChange={(chosen) => setSelected((current) => ({ ...current, [question.id]: chosen }))}
            />
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
            <SendIcon size={14} />
            {t('stream.submitAnswers')}
          </button>
        </div>
      )}
    </form>
  );
}

export function FeedbackRequestView({ chosen, pending, readOnly }: { chosen: { option: FeedbackOption; text?: string } | null; pending: PendingCommand | null; readOnly: boolean }) {
  const { t } = useTranslation();
  const session = useSessionRef();
  const [manual, setManual] = useState(false);
  const [value, setValue] = useState('');
  // The box opens below the buttons, often below the fold: it is focused, which scrolls it into view.
  const input = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (manual) input.current?.focus();
  }, [manual]);
  // Sent and not refused: shown as chosen; a refusal (out of budget…) offers the choice again.
  const sent = pending?.error === null && pending.command.kind === 'feedback_response' ? { option: pending.command.option, ...(pending.command.text !== undefined && { text: pending.command.text }) } : null;
  const done = chosen ?? sent;
  const choose = (option: FeedbackOption, feedback?: string) => session?.send({ type: 'feedback.give', option, ...(feedback !== undefined && { text: feedback }) });
  // A shared conversation cannot answer; an open question is nothing to show there.
  if (!done && readOnly) return null;
  if (done) {
    return (
      <div className="feedback-done">
        <CheckIcon size={14} />
        {t(`stream.feedback.${done.option}`)}
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
          <textarea ref={input} className="text-input" rows={3} value={value} onChange={(event) => setValue(event.target.value)} placeholder={t('stream.feedback.placeholder')} aria-label={t('stream.feedback.manual_feedback')} />
          <button className="button button-primary button-small" type="submit" disabled={value.trim() === ''}>
            {t('stream.feedback.send')}
          </button>
        </form>
      )}
    </div>
  );
}

export function ArtifactCard({ content }: { content: ContentOf<'artifact_start' | 'artifact_complete'> }) {
  const { t } = useTranslation();
  const session = useSessionRef();
  const { filename } = content;
  return (
    <div className="artifact-card" data-guide="artifacts">
      <span className="artifact-icon">
        <FileIcon size={18} />
      </span>
      <div className="artifact-meta">
        <strong>{filename}</strong>
        <span className="muted small">{content.content_type === 'artifact_complete' ? t(content.filetype === 'html' ? 'stream.artifactHtml' : 'stream.artifactMarkdown') : t('stream.artifactGenerating')}</span>
      </div>
      {content.content_type === 'artifact_complete' ? (
        <button type="button" className="button button-secondary button-small" onClick={() => session?.send({ type: 'panel.artifact', artifact: { filename, content: content.content, filetype: content.filetype, messageId: content.message_id } })}>
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
export function EditReportView({ content }: { content: ContentOf<'edit_report'> }) {
  const { t } = useTranslation();
  const session = useSessionRef();
  const [open, setOpen] = useState(false);
  const blocks = content.content;
  const chars = blocks.reduce((sum, block) => sum + block.content.length, 0);
  return (
    <div className="card edit-report">
      <div className="card-title">
        <SquarePenIcon size={16} />
        {t('stream.editReport', { title: content.title, version: content.version })}
      </div>
      <div className="edit-report-actions">
        <span className="muted">{t('stream.editReportSize', { blocks: t('stream.blockCount', { count: blocks.length }), chars: t('stream.charCount', { count: chars }) })}</span>
        <button type="button" className="button button-secondary button-small" onClick={() => session?.send({ type: 'panel.canvas', open: true })}>
          {t('stream.openCanvas')}
        </button>
        <button type="button" className="link-button edit-report-toggle" onClick={() => setOpen((value) => !value)} aria-expanded={open}>
          {open ? <ChevronDownIcon size={14} /> : <ChevronRightIcon size={14} />}
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

export function CognitionView({ content }: { content: ContentOf<'cognition_recommendation'> }) {
  const { t } = useTranslation();
  const items = content.items;
  if (items.length === 0) return null;
  return (
    <div className="card cognition">
      <div className="card-title">
        <SparklesIcon size={16} />
        {t('stream.cognitionTitle')}
      </div>
      <ul className="cognition-list">
        {items.map((item) => (
          <li key={item.id}>
            <a href={`/cognition?id=${encodeURIComponent(item.id)}`} target="_blank" rel="noopener noreferrer">
              {item.title}
            </a>
            <Markdown inline className="muted small" text={item.summary} />
          </li>
        ))}
      </ul>
    </div>
  );
}

export function WritingNoticeView({ content }: { content: ContentOf<'writing_start' | 'writing_end'> }) {
  const { t } = useTranslation();
  const session = useSessionRef();
  if (content.content_type === 'writing_start') {
    return (
      <button type="button" className="writing-notice" onClick={() => session?.send({ type: 'panel.canvas', open: true })}>
        <span className="spinner spinner-small" />
        {t('writing.inProgress')}
        <span className="muted small">{t('writing.version', { version: content.version })}</span>
      </button>
    );
  }
  const { saved, interrupted } = content;
  return (
    <button type="button" className={`writing-notice${interrupted ? ' warning' : ''}`} disabled={!saved} onClick={() => session?.send({ type: 'panel.canvas', open: true })}>
      {interrupted ? <CircleAlertIcon size={14} /> : saved ? <CheckIcon size={14} /> : <InfoIcon size={14} />}
      {t(interrupted ? 'writing.interrupted' : saved ? 'writing.done' : 'writing.discarded')}
      {saved && <span className="muted small">{t('writing.openVersion', { version: content.version })}</span>}
    </button>
  );
}

export function TargetedEditView({ content }: { content: ContentOf<'targeted_edit_result'> }) {
  const { t } = useTranslation();
  return (
    <div className="card targeted-edit">
      <div className="card-title">
        <CheckIcon size={16} />
        {t('stream.targetedEditDone', { version: content.version })}
      </div>
      <div className="diff">
        <del>
          <Markdown inline text={content.original_snippet} />
        </del>
        <ins>
          <Markdown inline text={content.edited_snippet} />
        </ins>
      </div>
    </div>
  );
}

export function ErrorItem({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <div className="stream-error" role="alert">
      <CircleAlertIcon size={16} />
      <span>{message || t('stream.unknownError')}</span>
    </div>
  );
}

export function InfoItem({ content }: { content: ContentOf<'info'> }) {
  const { t } = useTranslation();
  return (
    <div className={`info-item${content.level === 'warning' ? ' warning' : ''}`}>
      {content.level === 'warning' ? <CircleAlertIcon size={14} /> : <InfoIcon size={14} />}
      <Markdown inline text={infoText(t, content)} />
    </div>
  );
}

export function StatusGoalView({ content }: { content: ContentOf<'status_and_goal'> }) {
  return (
    <div className="status-goal">
      <CompassIcon size={14} />
      <Markdown inline text={content.status} />
      {content.goal && (
        <span className="muted">
          — <Markdown inline text={content.goal} />
        </span>
      )}
    </div>
  );
}

/**
 * The same list for the same contents: a message's contents are replaced, never changed, so a reply
 * streaming into the conversation leaves the earlier replies' lists, and the Markdown rendered with
 * them, as they are.
 */
const sourceLists = new WeakMap<WireContent[], Source[]>();

export const sourcesOf = (contents: WireContent[]): Source[] => {
  const known = sourceLists.get(contents);
  if (known) return known;
  const sources: Source[] = [];
  for (const item of contents) {
    if (item.content_type === 'web_search_results') for (const result of item.results) sources.push({ title: result.title, url: result.url });
    if (item.content_type === 'platform_tools_results') for (const source of item.sources) if (source.url) sources.push({ title: source.title, url: source.url });
  }
  sourceLists.set(contents, sources);
  return sources;
};

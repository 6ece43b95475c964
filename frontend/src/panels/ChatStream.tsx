import { memo, useEffect, useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContentOf, ContentType, WireContent } from '@scriptorium/domain/protocol/content';
import { codeOfSpecText } from '@scriptorium/domain/protocol/progress';
import { refusalMessage } from '../api/client.ts';
import { Markdown } from '../components/Markdown.tsx';
import { userText, type ChatMessage, type Conversation } from '../research/conversation.ts';
import type { PendingCommand, ResearchSessionRef } from '../machines/researchSession.ts';
import { useSessionRef } from '../research/sessionContext.ts';
import { useSessionView } from '../research/live.ts';
import {
  ArtifactCard,
  BROWSING_TYPES,
  BrowsingView,
  ClarificationView,
  CognitionView,
  EditReportView,
  ErrorItem,
  FeedbackRequestView,
  InfoItem,
  PlanStepView,
  PlanView,
  PlatformToolsView,
  SearchQueriesView,
  SearchResultsView,
  sourcesOf,
  StatusGoalView,
  TargetedEditView,
  ThinkView,
  TOOL_TYPES,
  WritingNoticeView,
} from './stream/items.tsx';
import type { PlanReview } from './stream/PlanReview.tsx';
import { CheckIcon, LightbulbIcon, PauseIcon, PlayIcon, RefreshCwIcon, SparklesIcon } from '../ui/icons.ts';
import './research.css';

const HIDDEN: ReadonlySet<ContentType> = new Set(['plan_review', 'message_start', 'think_end', 'status', 'writing_content', 'writing_rollback', 'clarification_answer', 'feedback_response', 'user_input']);

/** Progress that says a reply was paused, which its end says again with where it stood. */
const SAID_BY_PAUSED_END: ReadonlySet<string> = new Set(['research.interrupted', 'chat.paused']);

/** Progress that announces an item, and that item: the announcement goes once the item arrives. */
const SETTLED_BY: Readonly<Partial<Record<string, ContentType>>> = { 'research.planning': 'plan', 'research.clarifying': 'clarification' };

const oneOf =
  <T extends ContentType>(types: readonly T[]) =>
  (item: WireContent): item is ContentOf<T> =>
    (types as readonly ContentType[]).includes(item.content_type);
const isBrowsing = oneOf(BROWSING_TYPES);
const isTool = oneOf(TOOL_TYPES);

/** Later answers in the whole conversation close the forms that asked for them. */
function laterItem<T extends ContentType>(conversation: Conversation, message: ChatMessage, index: number, type: T): ContentOf<T> | null {
  let seen = false;
  for (const candidate of conversation.messages) {
    const start = candidate === message ? index + 1 : 0;
    if (candidate === message) seen = true;
    if (!seen) continue;
    const found = candidate.contents.slice(start).find(oneOf([type]));
    if (found) return found;
  }
  return null;
}

/** What answers a form of a message (null while unanswered), by the form's index. */
type Answer = ContentOf<'clarification_answer' | 'feedback_response'> | null;
type Answers = ReadonlyMap<number, Answer>;
const NO_ANSWERS: Answers = new Map();
const NO_PENDING: readonly PendingCommand[] = [];

/** The answers to a message's forms (clarifications, feedback requests); none for a message without forms. */
function answersOf(conversation: Conversation, message: ChatMessage): Answers {
  let answers: Map<number, Answer> | null = null;
  message.contents.forEach((item, index) => {
    if (item.content_type === 'clarification') (answers ??= new Map()).set(index, laterItem(conversation, message, index, 'clarification_answer'));
    if (item.content_type === 'feedback_request') (answers ??= new Map()).set(index, laterItem(conversation, message, index, 'feedback_response'));
  });
  return answers ?? NO_ANSWERS;
}

const sameAnswers = (a: Answers, b: Answers): boolean => a.size === b.size && [...a].every(([index, answer]) => b.get(index) === answer);

/** Where the review of a plan stands, from the items of its card; null when it never waited. */
function planReviewOf(items: readonly WireContent[]): PlanReview | null {
  const reviews = items.filter(oneOf(['plan_review']));
  const last = reviews.at(-1);
  if (!last) return null;
  const queries = reviews.findLast((review) => review.queries)?.queries ?? [];
  return { status: last.status, startsAt: last.status === 'waiting' ? (last.starts_at ?? null) : null, queries };
}

/** The newest command of a kind still waiting for its echo (or refused), if any. */
const pendingOf = (outbox: readonly PendingCommand[], kind: PendingCommand['command']['kind']): PendingCommand | null => outbox.findLast((pending) => pending.command.kind === kind) ?? null;

function renderContents(message: ChatMessage, answers: Answers, outbox: readonly PendingCommand[], readOnly: boolean): ReactNode[] {
  const { contents } = message;
  const streaming = message.status === 'streaming';
  const sources = sourcesOf(contents);
  const nodes: ReactNode[] = [];
  // Browsing and tool items come in rounds (one per plan step); each round is one card.
  let groupedUntil = -1;
  const round = <T extends WireContent>(from: number, belongs: (item: WireContent) => item is T): T[] => {
    const items: T[] = [];
    let index = from;
    for (; index < contents.length; index++) {
      const candidate = contents[index]!;
      if (belongs(candidate)) items.push(candidate);
      else if (!HIDDEN.has(candidate.content_type)) break;
    }
    groupedUntil = index - 1;
    return items;
  };
  contents.forEach((item, index) => {
    const key = `${item.content_type}-${index}`;
    if (HIDDEN.has(item.content_type) || index <= groupedUntil) return;
    if (item.content_type === 'mark_in_progress_plan_step') {
      nodes.push(<PlanStepView key={key} index={item.index} steps={item.research_plan} />);
      return;
    }
    if (item.content_type === 'plan') {
      // Every plan is a card of its own (a revision plans again in the same reply), fed by its step marks.
      const next = contents.findIndex((candidate, at) => at > index && candidate.content_type === 'plan');
      const own = contents.slice(index, next === -1 ? undefined : next);
      // A plan the user edited is shown as edited: each edit is one more state of the card.
      const states = own.flatMap((candidate) =>
        candidate.content_type === 'plan' || candidate.content_type === 'mark_in_progress_plan_step' ? [candidate.research_plan] : candidate.content_type === 'plan_review' && candidate.research_plan ? [candidate.research_plan] : [],
      );
      nodes.push(<PlanView key={key} id={`${message.id}:${index}`} states={states} review={streaming && !readOnly ? planReviewOf(own) : null} />);
      return;
    }
    if (isBrowsing(item)) {
      nodes.push(<BrowsingView key={key} items={round(index, isBrowsing)} />);
      return;
    }
    if (isTool(item)) {
      nodes.push(<PlatformToolsView key={key} items={round(index, isTool)} />);
      return;
    }
    switch (item.content_type) {
      case 'chat_chunk':
      case 'content':
        nodes.push(<Markdown key={key} text={item.content} sources={sources} />);
        return;
      case 'think': {
        const thinkingNow = streaming && index === contents.length - 1;
        nodes.push(<ThinkView key={key} content={item.content} streaming={thinkingNow} />);
        return;
      }
      case 'clarification': {
        const answer = answers.get(index);
        nodes.push(<ClarificationView key={key} questions={item.questions} answered={answer?.content_type === 'clarification_answer' ? answer.answers : null} pending={pendingOf(outbox, 'clarification_answer')} readOnly={readOnly} />);
        return;
      }
      case 'feedback_request': {
        const answer = answers.get(index);
        nodes.push(<FeedbackRequestView key={key} chosen={answer?.content_type === 'feedback_response' ? { option: answer.option, ...(answer.text !== undefined && { text: answer.text }) } : null} pending={pendingOf(outbox, 'feedback_response')} readOnly={readOnly} />);
        return;
      }
      case 'web_search_queries':
        nodes.push(<SearchQueriesView key={key} queries={item.queries} />);
        return;
      case 'web_search_results':
        nodes.push(<SearchResultsView key={key} content={item} />);
        return;
      case 'artifact_start': {
        const completed = contents.slice(index + 1).some((candidate) => candidate.content_type === 'artifact_complete' && candidate.filename === item.filename);
        if (!completed) nodes.push(<ArtifactCard key={key} content={item} />);
        return;
      }
      case 'artifact_complete':
        nodes.push(<ArtifactCard key={key} content={item} />);
        return;
      case 'writing_start': {
        const ended = contents.slice(index + 1).some((candidate) => candidate.content_type === 'writing_end' && candidate.version === item.version);
        if (!ended) nodes.push(<WritingNoticeView key={key} content={item} />);
        return;
      }
      case 'writing_end':
        nodes.push(<WritingNoticeView key={key} content={item} />);
        return;
      case 'edit_report':
        nodes.push(<EditReportView key={key} content={item} />);
        return;
      case 'cognition_recommendation':
        nodes.push(<CognitionView key={key} content={item} />);
        return;
      case 'targeted_edit_result':
        nodes.push(<TargetedEditView key={key} content={item} />);
        return;
      case 'status_and_goal':
        nodes.push(<StatusGoalView key={key} content={item} />);
        return;
      case 'error':
        nodes.push(<ErrorItem key={key} message={refusalMessage(item)} />);
        return;
      case 'info': {
        // "Planning…" and "making clarification questions…" tell what is under way; once the plan or the questions are here, they are not.
        const code = item.progress?.code ?? codeOfSpecText(item.content) ?? '';
        const settledBy = SETTLED_BY[code];
        if (settledBy && contents.slice(index + 1).some((candidate) => candidate.content_type === settledBy)) return;
        // The reply's end says it was paused, and where it stood: once is enough.
        if (SAID_BY_PAUSED_END.has(code) && contents.slice(index + 1).some((candidate) => candidate.content_type === 'message_end' && candidate.outcome === 'interrupted')) return;
        nodes.push(<InfoItem key={key} content={item} />);
        return;
      }
      case 'message_end':
        // The error item before it already said why, in the reader's language; the end's own text is for a reply that has none.
        if (item.outcome === 'failed' && !contents.some((candidate) => candidate.content_type === 'error')) nodes.push(<ErrorItem key={key} message={item.error_message ?? ''} />);
        if (item.outcome === 'interrupted') nodes.push(<InterruptedItem key={key} contents={contents} />);
        return;
      default:
        return;
    }
  });
  return nodes;
}

/**
 * A reply. Memoised: while another reply streams, this one re-renders only when its own contents, the
 * answers to its forms or (for a reply with forms) the commands waiting for their echo change.
 */
const AssistantMessage = memo(
  function AssistantMessage({ message, answers, outbox, readOnly, busy, resume }: { message: ChatMessage; answers: Answers; outbox: readonly PendingCommand[]; readOnly: boolean; busy: boolean; resume: Resume }) {
    const { t } = useTranslation();
    const nodes = renderContents(message, answers, outbox, readOnly);
    const streaming = message.status === 'streaming';
    if (nodes.length === 0 && !streaming) return null;
    const visible = message.contents.some((item) => !HIDDEN.has(item.content_type) && item.content_type !== 'message_end');
    return (
      <div className={`message message-assistant${streaming ? ' streaming' : ''}`} data-status={message.status}>
        <span className="assistant-avatar" aria-hidden="true">
          {message.agent === 'deep_cognition' ? <LightbulbIcon size={16} /> : <SparklesIcon size={16} />}
        </span>
        <div className="assistant-body">
          <span className="assistant-name">{t(`agents.${agentKey(message.agent)}`)}</span>
          {nodes}
          {streaming && !visible && busy && (
            <div className="progress-line">
              <span className="dots" aria-hidden="true" />
              {t(pendingLabel(message))}
            </div>
          )}
          {streaming && visible && busy && <span className="caret" aria-hidden="true" />}
          {resume && <ResumeButton message={message} resume={resume} />}
        </div>
      </div>
    );
  },
  (before, after) =>
    before.message === after.message && before.outbox === after.outbox && before.readOnly === after.readOnly && before.busy === after.busy && before.resume === after.resume && sameAnswers(before.answers, after.answers),
);

/** Whether a reply can be continued from where it stopped, and whether that was already asked. */
type Resume = null | 'ready' | 'asked';

const RESUMABLE_AGENTS: ReadonlySet<string> = new Set(['deep_cognition', 'poe_llm']);

/**
 * The last reply, when a pause or a failure cut it short and nothing was sent since, is what the
 * server's resume continues; a targeted edit or a document agent is asked again instead.
 */
function resumeOf(conversation: Conversation, outbox: readonly PendingCommand[], readOnly: boolean): Resume {
  const last = conversation.messages.at(-1);
  if (readOnly || conversation.busy || !last || last.role !== 'assistant' || last.status === 'streaming' || !RESUMABLE_AGENTS.has(last.agent)) return null;
  const end = last.contents.find(oneOf(['message_end']));
  if (end?.outcome !== 'interrupted' && end?.outcome !== 'failed') return null;
  return outbox.some((pending) => pending.command.kind === 'resume' && pending.error === null) ? 'asked' : 'ready';
}

function ResumeButton({ message, resume }: { message: ChatMessage; resume: 'ready' | 'asked' }) {
  const { t } = useTranslation();
  const session = useSessionRef();
  const failed = message.contents.some((item) => item.content_type === 'message_end' && item.outcome === 'failed');
  return (
    <div className="resume-row">
      <button
        type="button"
        className="button button-secondary button-small"
        aria-disabled={resume === 'asked'}
        onClick={() => resume === 'ready' && session?.send({ type: 'conversation.resume', agent: message.agent === 'poe_llm' ? 'poe_llm' : 'deep_cognition' })}
      >
        {failed ? <RefreshCwIcon size={14} /> : <PlayIcon size={14} />}
        {t(failed ? 'stream.retryFromFailure' : 'stream.resume')}
      </button>
      <span className="resume-hint">{t(message.agent === 'deep_cognition' ? 'stream.resumeHint' : 'stream.resumeChatHint')}</span>
    </div>
  );
}

/**
 * What this page sent and the conversation does not have yet: a question shows as the user's bubble
 * at once; anything refused (out of budget, socket down and HTTP failing) says why, where it happened.
 */
function PendingView({ pending, session }: { pending: PendingCommand; session: ResearchSessionRef | null }) {
  const { t } = useTranslation();
  const { command, error } = pending;
  if (command.kind === 'user_input') {
    return (
      <>
        <div className={`message message-user${error ? ' failed' : ' sending'}`}>
          <div className="bubble">{command.content}</div>
        </div>
        {error && (
          <>
            <ErrorItem message={error} />
            {session && (
              <div className="pending-actions">
                <button type="button" className="button button-secondary button-small" onClick={() => session.send({ type: 'command.retry', id: pending.id })}>
                  <RefreshCwIcon size={14} />
                  {t('stream.sendAgain')}
                </button>
                <button type="button" className="link-button" onClick={() => session.send({ type: 'command.discard', id: pending.id })}>
                  {t('stream.discard')}
                </button>
              </div>
            )}
          </>
        )}
      </>
    );
  }
  return error ? <ErrorItem message={error} /> : null;
}

/** Where a paused research stands, from the last step it marked: the step under way, or the writing once every step is done. */
function pausedAt(contents: readonly WireContent[]): { step: number; total: number } | null {
  const marked = contents.findLast(oneOf(['mark_in_progress_plan_step']));
  return marked ? { step: marked.index, total: marked.research_plan.length } : null;
}

function InterruptedItem({ contents }: { contents: readonly WireContent[] }) {
  const { t } = useTranslation();
  const at = pausedAt(contents);
  const text = !at ? t('stream.interrupted') : at.step < at.total ? t('stream.pausedDuringStep', { step: at.step + 1, total: at.total }) : t('stream.pausedWhileWriting', { total: at.total });
  return (
    <div className="info-item warning">
      <PauseIcon size={14} />
      <span>{text}</span>
    </div>
  );
}

/** What the agent is doing when nothing visible has arrived yet, in the spec's progress words. */
function pendingLabel(message: ChatMessage): 'stream.planning' | 'stream.makingClarification' | 'stream.working' {
  if (message.agent !== 'deep_cognition') return 'stream.working';
  const types = new Set(message.contents.map((item) => item.content_type));
  if (types.has('plan') || types.has('clarification')) return 'stream.working';
  return types.has('think_end') ? 'stream.planning' : 'stream.makingClarification';
}

const NAMED_AGENTS = ['deep_cognition', 'targeted_edit', 'direct_writing_agent'] as const;
const agentKey = (agent: string): (typeof NAMED_AGENTS)[number] | 'poe_llm' => NAMED_AGENTS.find((named) => named === agent) ?? 'poe_llm';

/**
 * The way to the exchanges before the first one shown: a button, pressed too by scrolling it into
 * view. While a page loads it says so; a page that failed says why, and the button tries again.
 */
function EarlierExchanges({ session, scroller }: { session: ResearchSessionRef; scroller: RefObject<HTMLDivElement | null> }) {
  const { t } = useTranslation();
  const view = useSessionView(session, (snapshot) => ({ loading: snapshot.matches({ ready: { earlier: 'loading' } }), error: snapshot.context.earlierError }));
  const button = useRef<HTMLButtonElement>(null);
  const loading = view?.loading ?? false;
  const failed = (view?.error ?? null) !== null;
  useEffect(() => {
    const target = button.current;
    if (!target || loading || failed) return;
    // Scrolling up to the top asks for the page before: a failed page waits for the button instead.
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && session.send({ type: 'history.earlier' }), { root: scroller.current });
    observer.observe(target);
    return () => observer.disconnect();
  }, [session, scroller, loading, failed]);
  return (
    <div className="earlier-exchanges">
      {view?.error && <ErrorItem message={t('stream.loadEarlierFailed', { message: view.error })} />}
      <button ref={button} type="button" className="button button-secondary button-small" disabled={loading} aria-busy={loading} onClick={() => session.send({ type: 'history.earlier' })}>
        {loading ? t('stream.loadingEarlier') : t('stream.loadEarlier')}
      </button>
    </div>
  );
}

export function ChatStream({ conversation, outbox = [], readOnly }: { conversation: Conversation; outbox?: readonly PendingCommand[]; readOnly: boolean }) {
  const { t } = useTranslation();
  const session = useSessionRef();
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  /** Where the reader stood, from the bottom, and the first message then: an earlier page put above keeps the reader where they were. */
  const anchor = useRef<{ fromBottom: number; first: string | undefined }>({ fromBottom: 0, first: undefined });

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const first = conversation.messages[0]?.id;
    const prepended = anchor.current.first !== undefined && first !== anchor.current.first && conversation.messages.some((message) => message.id === anchor.current.first);
    if (pinned.current) element.scrollTop = element.scrollHeight;
    else if (prepended) element.scrollTop = element.scrollHeight - anchor.current.fromBottom;
    anchor.current = { fromBottom: element.scrollHeight - element.scrollTop, first };
  });

  const last = conversation.messages.at(-1);
  // A message sent while a research streams is an instruction to it, not a question awaiting a reply of its own.
  const streaming = conversation.messages.some((message) => message.role === 'assistant' && message.status === 'streaming');
  const waiting = conversation.busy && !streaming && (!last || last.role === 'user');
  const resume = resumeOf(conversation, outbox, readOnly);
  return (
    <div
      className="chat-stream"
      ref={scroller}
      onScroll={(event) => {
        const element = event.currentTarget;
        pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 80;
        anchor.current.fromBottom = element.scrollHeight - element.scrollTop;
      }}
    >
      <div className="chat-stream-inner" aria-live="polite">
        {conversation.earlier !== null && session && <EarlierExchanges session={session} scroller={scroller} />}
        {conversation.messages.map((message) => {
          if (message.role === 'user') {
            const text = userText(message);
            if (text === '') return null;
            return (
              <div key={message.id} className="message message-user">
                <div className="bubble">{text}</div>
              </div>
            );
          }
          // The user's own canvas saves are a line in the stream, not a reply.
          const saved = message.agent === 'user' ? message.contents.find(oneOf(['canvas_saved'])) : undefined;
          if (saved) {
            return (
              <button key={message.id} type="button" className="stream-notice" onClick={() => session?.send({ type: 'panel.canvas', open: true })}>
                <CheckIcon size={14} />
                {t(readOnly ? 'writing.handSavedByOwner' : 'writing.handSaved', { version: saved.version })}
              </button>
            );
          }
          const answers = answersOf(conversation, message);
          return (
            <AssistantMessage
              key={message.id}
              message={message}
              answers={answers}
              outbox={answers === NO_ANSWERS ? NO_PENDING : outbox}
              readOnly={readOnly}
              busy={message.status === 'streaming' && conversation.busy}
              resume={message === last ? resume : null}
            />
          );
        })}
        {outbox.map((pending) => (
          <PendingView key={pending.id} pending={pending} session={readOnly ? null : session} />
        ))}
        {waiting && (
          <div className="message message-assistant streaming">
            <span className="assistant-avatar" aria-hidden="true">
              <SparklesIcon size={16} />
            </span>
            <div className="assistant-body">
              <div className="progress-line">
                <span className="dots" aria-hidden="true" />
                {t('stream.working')}
              </div>
            </div>
          </div>
        )}
      </div>
    </div>
  );
}

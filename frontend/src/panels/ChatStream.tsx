import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClarificationAnswer, ClarificationQuestion, PlanStep } from '@scriptorium/backend/protocol/research';
import type { WireContent } from '@scriptorium/backend/protocol/ws';
import { Icon } from '../components/Icon.tsx';
import { Markdown } from '../components/Markdown.tsx';
import type { ChatMessage, Conversation } from '../research/conversation.ts';
import { researchStore } from '../research/store.ts';
import {
  ArtifactCard,
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
  WritingNoticeView,
} from './stream/items.tsx';

const BROWSING = /^web_(browsing|scraping)_/;
const TOOLS = /^platform_tools_/;
const HIDDEN = new Set(['message_start', 'think_end', 'status', 'writing_content', 'clarification_answer', 'feedback_response', 'user_input']);

/** Later answers in the whole conversation close the forms that asked for them. */
function laterItem(conversation: Conversation, message: ChatMessage, index: number, type: string): WireContent | null {
  let seen = false;
  for (const candidate of conversation.messages) {
    const start = candidate === message ? index + 1 : 0;
    if (candidate === message) seen = true;
    if (!seen) continue;
    const found = candidate.contents.slice(start).find((item) => item.content_type === type);
    if (found) return found;
  }
  return null;
}

function renderContents(message: ChatMessage, conversation: Conversation, readOnly: boolean): ReactNode[] {
  const { contents } = message;
  const streaming = message.status === 'streaming';
  const sources = sourcesOf(contents);
  const nodes: ReactNode[] = [];
  let planShown = false;
  // Browsing and tool items come in rounds (one per plan step); each round is one card.
  let groupedUntil = -1;
  const round = (from: number, pattern: RegExp): WireContent[] => {
    const items: WireContent[] = [];
    let index = from;
    for (; index < contents.length; index++) {
      const candidate = contents[index]!;
      if (pattern.test(candidate.content_type)) items.push(candidate);
      else if (!HIDDEN.has(candidate.content_type)) break;
    }
    groupedUntil = index - 1;
    return items;
  };
  contents.forEach((item, index) => {
    const key = `${item.content_type}-${index}`;
    const type = item.content_type;
    if (HIDDEN.has(type) || index <= groupedUntil) return;
    if (type === 'plan' || type === 'mark_in_progress_plan_step') {
      const steps = (item.research_plan as PlanStep[] | undefined) ?? [];
      if (type === 'mark_in_progress_plan_step') nodes.push(<PlanStepView key={`step-${index}`} index={Number(item.index ?? 0)} steps={steps} />);
      if (planShown) return;
      planShown = true;
      const latest = contents.findLast((candidate) => candidate.content_type === 'plan' || candidate.content_type === 'mark_in_progress_plan_step');
      nodes.splice(type === 'plan' ? nodes.length : nodes.length - 1, 0, <PlanView key={key} steps={(latest?.research_plan as PlanStep[] | undefined) ?? []} />);
      return;
    }
    if (BROWSING.test(type)) {
      nodes.push(<BrowsingView key={key} items={round(index, BROWSING)} />);
      return;
    }
    if (TOOLS.test(type)) {
      nodes.push(<PlatformToolsView key={key} items={round(index, TOOLS)} />);
      return;
    }
    switch (type) {
      case 'chat_chunk':
      case 'content':
        nodes.push(<Markdown key={key} text={String(item.content ?? '')} sources={sources} />);
        return;
      case 'think': {
        const thinkingNow = streaming && index === contents.length - 1;
        nodes.push(<ThinkView key={key} content={String(item.content ?? '')} streaming={thinkingNow} />);
        return;
      }
      case 'clarification': {
        const answer = laterItem(conversation, message, index, 'clarification_answer');
        nodes.push(<ClarificationView key={key} questions={(item.questions as ClarificationQuestion[] | undefined) ?? []} answered={answer ? ((answer.answers as ClarificationAnswer[] | undefined) ?? []) : null} readOnly={readOnly} />);
        return;
      }
      case 'feedback_request': {
        const answer = laterItem(conversation, message, index, 'feedback_response');
        nodes.push(<FeedbackRequestView key={key} chosen={answer ? { option: String(answer.option), ...(typeof answer.text === 'string' && { text: answer.text }) } : null} readOnly={readOnly} />);
        return;
      }
      case 'web_search_queries':
        nodes.push(<SearchQueriesView key={key} queries={(item.queries as string[] | undefined) ?? []} />);
        return;
      case 'web_search_results':
        nodes.push(<SearchResultsView key={key} content={item} />);
        return;
      case 'artifact_start': {
        const completed = contents.slice(index + 1).some((candidate) => candidate.content_type === 'artifact_complete' && candidate.filename === item.filename);
        if (!completed) nodes.push(<ArtifactCard key={key} content={item} complete={false} />);
        return;
      }
      case 'artifact_complete':
        nodes.push(<ArtifactCard key={key} content={item} complete />);
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
        nodes.push(<ErrorItem key={key} message={String(item.error_message ?? '')} />);
        return;
      case 'info':
        nodes.push(<InfoItem key={key} content={item} />);
        return;
      case 'message_end':
        if (item.outcome === 'failed') nodes.push(<ErrorItem key={key} message={String(item.error_message ?? '')} />);
        if (item.outcome === 'interrupted') nodes.push(<InterruptedItem key={key} />);
        return;
      default:
        return;
    }
  });
  return nodes;
}

function InterruptedItem() {
  const { t } = useTranslation();
  return (
    <div className="info-item warning">
      <Icon name="pause" size={14} />
      <span>{t('stream.interrupted')}</span>
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

export function ChatStream({ conversation, readOnly }: { conversation: Conversation; readOnly: boolean }) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && pinned.current) element.scrollTop = element.scrollHeight;
  });

  const last = conversation.messages.at(-1);
  const waiting = conversation.busy && (!last || last.role === 'user');
  return (
    <div
      className="chat-stream"
      ref={scroller}
      onScroll={(event) => {
        const element = event.currentTarget;
        pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 80;
      }}
    >
      <div className="chat-stream-inner" aria-live="polite">
        {conversation.messages.map((message) => {
          if (message.role === 'user') {
            const userText = message.contents
              .filter((item) => item.content_type === 'user_input')
              .map((item) => String(item.content ?? ''))
              .join('');
            if (userText === '') return null;
            return (
              <div key={message.id} className="message message-user">
                <div className="bubble">{userText}</div>
              </div>
            );
          }
          // The user's own canvas saves are a line in the stream, not a reply.
          const saved = message.agent === 'user' ? message.contents.find((item) => item.content_type === 'canvas_saved') : undefined;
          if (saved) {
            return (
              <button key={message.id} type="button" className="stream-notice" onClick={() => researchStore.showCanvas(true)}>
                <Icon name="check" size={14} />
                {t('writing.handSaved', { version: Number(saved.version ?? 0) })}
              </button>
            );
          }
          const nodes = renderContents(message, conversation, readOnly);
          const streaming = message.status === 'streaming';
          if (nodes.length === 0 && !streaming) return null;
          const visible = message.contents.some((item) => !HIDDEN.has(item.content_type) && item.content_type !== 'message_end');
          return (
            <div key={message.id} className={`message message-assistant${streaming ? ' streaming' : ''}`} data-status={message.status}>
              <span className="assistant-avatar" aria-hidden="true">
                <Icon name={message.agent === 'deep_cognition' ? 'cognition' : 'sparkles'} size={16} />
              </span>
              <div className="assistant-body">
                <span className="assistant-name">{t(`agents.${agentKey(message.agent)}`)}</span>
                {nodes}
                {streaming && !visible && conversation.busy && (
                  <div className="progress-line">
                    <span className="dots" aria-hidden="true" />
                    {t(pendingLabel(message))}
                  </div>
                )}
                {streaming && visible && conversation.busy && <span className="caret" aria-hidden="true" />}
              </div>
            </div>
          );
        })}
        {waiting && (
          <div className="message message-assistant streaming">
            <span className="assistant-avatar" aria-hidden="true">
              <Icon name="sparkles" size={16} />
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

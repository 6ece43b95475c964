import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { MetadataUpdateMessage, SessionMessage } from '../protocol/ws.ts';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import type { AgentOutputRecorded, ConversationEvent } from './conversation.ts';
import type { WireContent } from '../protocol/content.ts';
import { codeOfSpecText } from '../protocol/progress.ts';
import { CANVAS_ID, type PlanStep } from '../protocol/research.ts';

/** Spec §4: steps before the current index are completed, the current one in progress, later ones not started. */
export const planWithStatus = (steps: string[], current: number): PlanStep[] =>
  steps.map((description, index) => ({
    step: index + 1,
    description,
    status: index < current ? 'completed' : index === current ? 'in_progress' : 'not_started',
  }));

/** Spec §4's text for a search round's results. */
export const searchResultsMessage = (count: number): string => `Have got ${count} Correlated Web Search Results`;

export const WRITING_DONE = '写作完成';
export const WRITING_INTERRUPTED = '写作过程中断，已保存部分内容';
export const WRITING_DISCARDED = '内容过短，未保存该版本';

/** An item before the conversation stamps it with the event's time. */
type Unstamped = WireContent extends infer C ? (C extends WireContent ? Omit<C, 'timestamp' | 'updated_at'> : never) : never;

/**
 * What an agent recorded, as the item it stands for. The payload is whatever the agent wrote at the
 * time, so an info entry from before progress codes gets its code back from the spec's fixed text,
 * and one that said it as `message` says it as `content`.
 */
function recordedOutput(data: AgentOutputRecorded['data']): Unstamped {
  const content = { ...data.payload, agent: data.agent, content_type: data.contentType, message_id: data.messageId, seq: data.seq } as Unstamped;
  if (content.content_type !== 'info' || content.progress) return content;
  const { message } = data.payload;
  const text = typeof content.content === 'string' ? content.content : typeof message === 'string' ? message : '';
  const code = codeOfSpecText(text);
  return { ...content, content: text, ...(code && { progress: { code, params: {} } as NonNullable<typeof content.progress> }) };
}

/**
 * The one mapping from a conversation event to what a client is sent. The socket gateway, the
 * message history and the auditor's replay all use it, so they show the same thing.
 * Returns null for events no client is shown (creation, token accounting).
 */
export function toWire(recorded: RecordedEvent): SessionMessage | MetadataUpdateMessage | null {
  const event = { type: recorded.type, data: recorded.data } as ConversationEvent;
  if (event.type === 'TokensConsumed') return null;
  const sessionId = event.data.sessionId;
  const at = recorded.metadata.at;
  const message = (content: Unstamped): SessionMessage => ({
    type: 'message',
    session_id: sessionId,
    position: recorded.position,
    content: { ...content, timestamp: at, updated_at: at },
  });
  const metadata = (updated_fields: MetadataUpdateMessage['updated_fields']): MetadataUpdateMessage => ({
    type: 'metadata_update',
    session_id: sessionId,
    position: recorded.position,
    updated_fields,
  });
  switch (event.type) {
    case 'SessionCreated':
    case 'SessionLifecycleChanged':
      return null;
    case 'SessionRenamed':
      return metadata({ name: event.data.name });
    case 'SessionTitleChanged':
      return metadata({ title: event.data.title });
    case 'CollaborationModeSet':
      return metadata({ collaboration_mode: event.data.mode });
    case 'SearchToggled':
      return metadata({ search_enabled: event.data.enabled });
    case 'UserMessagePosted':
      return message({
        agent: 'user',
        content_type: 'user_input',
        message_id: event.data.messageId,
        content: event.data.content,
        target_agent: event.data.agent,
        ...(event.data.clientId !== undefined && { client_id: event.data.clientId }),
      });
    case 'AgentReplyStarted':
      return message({
        agent: event.data.agent,
        content_type: 'message_start',
        message_id: event.data.messageId,
        reply_to: event.data.replyTo,
        ...(event.data.continues !== undefined && { continues: event.data.continues }),
      });
    case 'MessageChunksAppended': {
      const chunk = { agent: event.data.agent, message_id: event.data.messageId, content: event.data.text, seq: event.data.seq };
      const type = event.data.contentType;
      return message(type === 'writing_content' ? { ...chunk, content_type: type, artifact_id: CANVAS_ID } : { ...chunk, content_type: type });
    }
    case 'AgentOutputRecorded':
      return message(recordedOutput(event.data));
    case 'AgentReplyCompleted':
      return message({
        agent: event.data.agent,
        content_type: 'message_end',
        message_id: event.data.messageId,
        outcome: event.data.outcome,
        ...(event.data.error !== undefined && { error_message: event.data.error }),
      });
    case 'AgentStatusChanged':
      return message({ agent: event.data.agent, content_type: 'status', message_id: `status-${recorded.position}`, status: event.data.status });
    case 'ClarificationAsked':
      return message({ agent: 'deep_cognition', content_type: 'clarification', message_id: event.data.messageId, questions: event.data.questions, status: 'undone' });
    case 'ClarificationAnswered':
      return message({ agent: 'deep_cognition', content_type: 'clarification_answer', message_id: event.data.messageId, answers: event.data.answers, status: 'done' });
    case 'StageStarted':
    case 'PageRead':
    case 'SectionWritten':
    case 'CitationsChecked':
    case 'ReplyDeferred':
    case 'ReportRated':
    case 'TargetedEditRequested':
      return null;
    case 'PlanProposed':
      return message({ agent: 'deep_cognition', content_type: 'plan', message_id: event.data.messageId, research_plan: planWithStatus(event.data.steps, -1), message: 'Plan Generated' });
    case 'PlanReviewOpened':
      return message({ agent: 'deep_cognition', content_type: 'plan_review', message_id: event.data.messageId, status: 'waiting', queries: event.data.queries, ...(event.data.startsAt !== undefined && { starts_at: event.data.startsAt }) });
    case 'PlanEdited':
      return message({ agent: 'deep_cognition', content_type: 'plan_review', message_id: event.data.messageId, status: 'edited', research_plan: planWithStatus(event.data.steps, -1), queries: event.data.queries });
    // The step marks that follow a revision carry the revised plan to the card.
    case 'PlanRevised':
      return null;
    case 'PlanStarted':
      return message({ agent: 'deep_cognition', content_type: 'plan_review', message_id: event.data.messageId, status: 'started', by: event.data.by });
    case 'PlanStepMarked':
      return message({
        agent: 'deep_cognition',
        content_type: 'mark_in_progress_plan_step',
        message_id: event.data.messageId,
        index: event.data.index,
        research_plan: planWithStatus(event.data.steps, event.data.index),
      });
    case 'SearchResultsRecorded':
      return message({
        agent: 'deep_cognition',
        content_type: 'web_search_results',
        message_id: event.data.messageId,
        queries: event.data.queries,
        results: event.data.results,
        message: searchResultsMessage(event.data.results.length),
      });
    case 'WritingStarted':
      return message({
        agent: event.data.agent,
        content_type: 'writing_start',
        message_id: event.data.messageId,
        artifact_id: event.data.artifactId,
        version: event.data.version,
        title: event.data.title,
        message: '正在编辑报告...',
      });
    case 'WritingVersionSaved':
      return message({
        agent: event.data.agent,
        content_type: 'writing_end',
        message_id: event.data.messageId,
        artifact_id: event.data.artifactId,
        version: event.data.version,
        title: event.data.title,
        interrupted: event.data.interrupted,
        saved: true,
        message: event.data.interrupted ? WRITING_INTERRUPTED : WRITING_DONE,
        ...(event.data.interrupted && { level: 'warning' }),
        ...(event.data.citations && { citations: event.data.citations }),
      });
    case 'WritingVersionDiscarded':
      return message({
        agent: event.data.agent,
        content_type: 'writing_end',
        message_id: event.data.messageId,
        artifact_id: event.data.artifactId,
        version: event.data.version,
        interrupted: false,
        saved: false,
        message: WRITING_DISCARDED,
      });
    case 'FeedbackRequested':
      return message({
        agent: 'deep_cognition',
        content_type: 'feedback_request',
        message_id: event.data.messageId,
        options: ['continue', 'satisfied', 'manual_feedback'],
        artifact_id: event.data.artifactId,
        version: event.data.version,
      });
    case 'FeedbackGiven':
      return message({
        agent: 'user',
        content_type: 'feedback_response',
        message_id: event.data.messageId,
        option: event.data.option,
        ...(event.data.text !== undefined && { text: event.data.text }),
      });
    case 'TargetedEditApplied':
      return message({
        agent: 'targeted_edit',
        content_type: 'targeted_edit_result',
        message_id: event.data.requestId,
        request_id: event.data.requestId,
        original_snippet: event.data.originalSnippet,
        edited_snippet: event.data.editedSnippet,
        full_content: event.data.fullContent,
        artifact_id: event.data.artifactId,
        version: event.data.version,
        ...(event.data.citations && { citations: event.data.citations }),
      });
    case 'CanvasEdited':
      return message({
        agent: 'user',
        content_type: 'canvas_saved',
        message_id: `canvas-${event.data.version}`,
        artifact_id: event.data.artifactId,
        version: event.data.version,
        title: event.data.title,
        content: event.data.content,
      });
    default:
      return assertNever(event);
  }
}

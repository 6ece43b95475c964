import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { ConversationEvent, FeedbackOption } from '@scriptorium/domain/conversation/conversation';
import type { ClarificationAnswer, WebResult } from '@scriptorium/domain/protocol/research';

/** What the log holds of one job (one stage) of a research reply: what a re-run resumes from. */
export interface StageTrace {
  /** Items and chunks this job already wrote. */
  written: number;
  outputs: Set<string>;
  plan: string[] | null;
  /** Recorded search rounds, in order: round i belongs to plan step i. */
  searches: WebResult[][];
  /** Rounds whose pages were read to the end (their `web_browsing_llm_end` is in the log). */
  browsed: Set<number>;
  /** Progress codes this job already said (a re-run says each once). */
  said: Set<string>;
  savedVersion: number | null;
  /** Text streamed into the version this job was writing when it stopped. */
  writingText: string;
}

/** What the log holds of the whole reply, across its jobs. */
export interface ReplyRecord {
  question: string;
  answers: ClarificationAnswer[];
  /** The research plan: the reply's first. */
  plan: string[] | null;
  feedback: { option: FeedbackOption; text: string } | null;
  /** Everything the reply learned about each address: snippets, summaries of pages. */
  notes: Map<string, { title: string; text: string[] }>;
}

const asEvent = (recorded: RecordedEvent) => ({ type: recorded.type, data: recorded.data }) as ConversationEvent;

/**
 * The job's events: those of the reply after the event that started this job — the reply's start
 * for its first job, the `StageStarted` naming the job for a later one.
 */
export function stageTrace(events: RecordedEvent[], replyId: string, jobId: string): StageTrace {
  const trace: StageTrace = { written: 0, outputs: new Set(), plan: null, searches: [], browsed: new Set(), said: new Set(), savedVersion: null, writingText: '' };
  let inside = false;
  let writing = false;
  for (const recorded of events) {
    const event = asEvent(recorded);
    if (!('messageId' in event.data) || event.data.messageId !== replyId) continue;
    if (event.type === 'StageStarted') {
      inside = event.data.jobId === jobId;
      continue;
    }
    if (event.type === 'AgentReplyStarted') {
      inside = jobId === replyId;
      continue;
    }
    if (!inside) continue;
    switch (event.type) {
      case 'AgentOutputRecorded':
        trace.written++;
        trace.outputs.add(event.data.contentType);
        if (event.data.contentType === 'web_browsing_llm_end' && trace.searches.length > 0) trace.browsed.add(trace.searches.length - 1);
        if (event.data.contentType === 'info') {
          const code = (event.data.payload as { progress?: { code?: unknown } }).progress?.code;
          if (typeof code === 'string') trace.said.add(code);
        }
        break;
      case 'MessageChunksAppended':
        trace.written++;
        if (writing && event.data.contentType === 'writing_content') trace.writingText += event.data.text;
        break;
      case 'PlanProposed':
        trace.plan = event.data.steps;
        break;
      case 'SearchResultsRecorded':
        trace.searches.push(event.data.results);
        break;
      case 'WritingStarted':
        writing = true;
        trace.writingText = '';
        break;
      case 'WritingVersionSaved':
        writing = false;
        trace.savedVersion = event.data.version;
        break;
      case 'WritingVersionDiscarded':
        writing = false;
        break;
      default:
        break;
    }
  }
  return trace;
}

export function replyRecord(events: RecordedEvent[], replyId: string, replyTo: string): ReplyRecord {
  const record: ReplyRecord = { question: '', answers: [], plan: null, feedback: null, notes: new Map() };
  const note = (url: string, title: string, text: string) => {
    if (!url || !text.trim()) return;
    const known = record.notes.get(url) ?? { title, text: [] };
    if (!known.text.includes(text)) known.text.push(text);
    record.notes.set(url, known);
  };
  for (const recorded of events) {
    const event = asEvent(recorded);
    if (event.type === 'UserMessagePosted' && event.data.messageId === replyTo) record.question = event.data.content;
    if (!('messageId' in event.data) || event.data.messageId !== replyId) continue;
    switch (event.type) {
      case 'ClarificationAnswered':
        record.answers = event.data.answers;
        break;
      case 'PlanProposed':
        record.plan ??= event.data.steps;
        break;
      case 'FeedbackGiven':
        record.feedback = { option: event.data.option, text: event.data.text ?? '' };
        break;
      case 'SearchResultsRecorded':
        for (const result of event.data.results) note(result.url, result.title, [result.snippet, result.useful_info_summary].filter(Boolean).join(' '));
        break;
      case 'AgentOutputRecorded':
        if (event.data.contentType === 'web_browsing_result' && event.data.payload.ok === true) {
          note(String(event.data.payload.url ?? ''), String(event.data.payload.title ?? ''), String(event.data.payload.summary ?? ''));
        }
        break;
      default:
        break;
    }
  }
  return record;
}

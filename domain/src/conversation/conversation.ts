import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';
import type { CitationCheck, ClarificationAnswer, ClarificationQuestion, ReportLength, WebResult } from '../protocol/research.ts';
import type { ChunkedType, OutputType } from '../protocol/content.ts';
import { AGENTS, type AgentName } from '../protocol/agents.ts';

/** Agents a session can address (spec §3); the protocol owns the list. `none` only subscribes. */
export { AGENTS, type AgentName };

/** 0: the general chat agent; 1 (default): the deep-cognition research agent. */
export type CollaborationMode = 0 | 1;
export const agentForMode = (mode: CollaborationMode): AgentName => (mode === 0 ? 'poe_llm' : 'deep_cognition');

export type LayoutPreset = 'home-welcome' | 'chat-interface-only';
/** waiting: the reply needs the user (clarification answers or feedback) before it goes on. */
export type Activity = 'idle' | 'processing' | 'paused' | 'waiting';
export type ReplyOutcome = 'completed' | 'interrupted' | 'failed';
export type Lifecycle = 'active' | 'archived';

export type SessionCreated = DomainEvent<
  'SessionCreated',
  { sessionId: string; ownerId: string; clientId: string; name: string; collaborationMode: CollaborationMode; searchEnabled: boolean; layoutPreset: LayoutPreset; createdAt: string }
>;
export type SessionRenamed = DomainEvent<'SessionRenamed', { sessionId: string; name: string; at: string }>;
export type SessionTitleChanged = DomainEvent<'SessionTitleChanged', { sessionId: string; title: string; source: 'user' | 'generated'; at: string }>;
export type CollaborationModeSet = DomainEvent<'CollaborationModeSet', { sessionId: string; mode: CollaborationMode; at: string }>;
export type SearchToggled = DomainEvent<'SearchToggled', { sessionId: string; enabled: boolean; at: string }>;
export type SessionLifecycleChanged = DomainEvent<'SessionLifecycleChanged', { sessionId: string; lifecycle: Lifecycle; at: string }>;
/**
 * `steers`: the research reply this message instructs rather than a question of its own — sent while
 * the research works (applied at its next checkpoint) or after a pause (the research continued,
 * redirected). The reply keeps answering its original question, with this instruction.
 */
export type UserMessagePosted = DomainEvent<
  'UserMessagePosted',
  { sessionId: string; messageId: string; content: string; agent: AgentName; clientId?: string; steers?: string; at: string }
>;
export type AgentReplyStarted = DomainEvent<
  'AgentReplyStarted',
  { sessionId: string; messageId: string; agent: AgentName; replyTo: string; jobId: string; at: string; continues?: string }
>;
/** A batch of streamed text: appended by the worker with a deterministic id per batch. */
export type MessageChunksAppended = DomainEvent<
  'MessageChunksAppended',
  { sessionId: string; messageId: string; agent: AgentName; contentType: ChunkedType; seq: number; text: string }
>;
/** A structured item an agent emitted (artifact, info, plan…), shown as its content_type. */
export type AgentOutputRecorded = DomainEvent<
  'AgentOutputRecorded',
  /** `payload` is `PayloadOf<contentType>` as the agent wrote it then; older entries may lack newer optional fields. */
  { sessionId: string; messageId: string; agent: AgentName; contentType: OutputType; seq: number; payload: Record<string, unknown> }
>;
export type AgentReplyCompleted = DomainEvent<
  'AgentReplyCompleted',
  { sessionId: string; messageId: string; agent: AgentName; outcome: ReplyOutcome; error?: string; at: string }
>;
export type AgentStatusChanged = DomainEvent<'AgentStatusChanged', { sessionId: string; agent: AgentName; status: 'processing' | 'paused'; at: string }>;
/** Every model call's usage. Calls outside a session (query refinement) go to `usage-<userId>` with no session. */
export type TokensConsumed = DomainEvent<
  'TokensConsumed',
  { userId: string; sessionId: string | null; messageId: string | null; prompt: number; completion: number; model: string; at: string }
>;

/** The research agent's steps that the session must remember (what it waits for, the canvas). */
export type ResearchStage = 'research' | 'revise';
export type ClarificationAsked = DomainEvent<'ClarificationAsked', { sessionId: string; messageId: string; questions: ClarificationQuestion[]; at: string }>;
export type ClarificationAnswered = DomainEvent<'ClarificationAnswered', { sessionId: string; messageId: string; answers: ClarificationAnswer[]; at: string }>;
export type StageStarted = DomainEvent<'StageStarted', { sessionId: string; messageId: string; stage: ResearchStage; jobId: string; at: string }>;
/**
 * `queries`: each step's searches, so a job that continues the plan searches as it was planned;
 * `headings` (each step's section heading) and `title` (the report's), when the model wrote them, so
 * a job that continues the report writes the same ones; `length`, how long the report is written.
 */
export type PlanProposed = DomainEvent<'PlanProposed', { sessionId: string; messageId: string; steps: string[]; queries?: string[][]; headings?: string[]; title?: string; length?: ReportLength; at: string }>;
/**
 * The plan waits for the user before it is researched: until `startsAt` (a countdown, which job
 * `jobId` ends by starting the plan) or, with no `startsAt`, until the user starts it. `queries`:
 * each step's planned searches, which the user may change.
 */
export type PlanReviewOpened = DomainEvent<'PlanReviewOpened', { sessionId: string; messageId: string; jobId: string; queries: string[][]; startsAt?: string; at: string }>;
/** The user's plan, in place of the one proposed (or edited) before: what the research runs. */
export type PlanEdited = DomainEvent<'PlanEdited', { sessionId: string; messageId: string; steps: string[]; queries: string[][]; headings: string[]; at: string }>;
/**
 * The running research's plan changed by the user's instructions (`instructions`: their message
 * ids), which changed its scope: the steps finished are kept, those not yet done replaced. `from`:
 * each step's place in the plan before, null for a new one, so a kept step's searches stay its own.
 */
export type PlanRevised = DomainEvent<'PlanRevised', { sessionId: string; messageId: string; steps: string[]; queries: string[][]; headings: string[]; from: Array<number | null>; instructions: string[]; at: string }>;
/** The plan goes on to be researched, as job `jobId`: started by the user, or by the countdown's own job. */
export type PlanStarted = DomainEvent<'PlanStarted', { sessionId: string; messageId: string; jobId: string; by: 'user' | 'countdown'; at: string }>;
export type PlanStepMarked = DomainEvent<'PlanStepMarked', { sessionId: string; messageId: string; steps: string[]; index: number; at: string }>;
/**
 * Where a search round belongs in the research: its plan step, its round within the step (0 the
 * planned search, 1… follow-ups a reflection asked for) and, for a follow-up, why. Absent on rounds
 * recorded before steps were researched concurrently: those came in plan order, one per step.
 */
export interface SearchPlacement {
  step?: number;
  round?: number;
  reason?: string;
}

export type SearchResultsRecorded = DomainEvent<'SearchResultsRecorded', { sessionId: string; messageId: string; queries: string[]; results: WebResult[]; at: string } & SearchPlacement>;
/** A page the research read, with its text, so a continuation or a revision works from the page and not from a summary. */
export type PageRead = DomainEvent<'PageRead', { sessionId: string; messageId: string; url: string; title: string; text: string; summary: string; at: string }>;
/**
 * A section of the report written to its end (`index` in the plan; the conclusion is the step after
 * the last), as it stands in the version: a job that continues the report writes it no more.
 */
export type SectionWritten = DomainEvent<'SectionWritten', { sessionId: string; messageId: string; index: number; heading: string; text: string; at: string }>;
/**
 * The citations of a section checked against their sources before the section is recorded
 * (offsets in the version being written). A section checked again replaces its earlier checks.
 */
export type CitationsChecked = DomainEvent<'CitationsChecked', { sessionId: string; messageId: string; version: number; index: number; citations: CitationCheck[]; at: string }>;
/** The model service asked to wait: the reply goes on as job `jobId`, not before `until`. */
export type ReplyDeferred = DomainEvent<'ReplyDeferred', { sessionId: string; messageId: string; jobId: string; until: string; at: string }>;
export type WritingStarted = DomainEvent<'WritingStarted', { sessionId: string; messageId: string; agent: AgentName; artifactId: string; version: number; title: string; at: string }>;
export type WritingVersionSaved = DomainEvent<
  'WritingVersionSaved',
  /** `citations`: what checking the version's citations found, when they were checked. */
  { sessionId: string; messageId: string; agent: AgentName; artifactId: string; version: number; title: string; content: string; interrupted: boolean; citations?: CitationCheck[]; at: string }
>;
export type WritingVersionDiscarded = DomainEvent<
  'WritingVersionDiscarded',
  { sessionId: string; messageId: string; agent: AgentName; artifactId: string; version: number; at: string }
>;
export type FeedbackRequested = DomainEvent<'FeedbackRequested', { sessionId: string; messageId: string; artifactId: string; version: number; at: string }>;
export type FeedbackGiven = DomainEvent<'FeedbackGiven', { sessionId: string; messageId: string; option: FeedbackOption; text?: string; at: string }>;
/** The user asked for a targeted edit: the event the edit's job is queued from. */
export type TargetedEditRequested = DomainEvent<
  'TargetedEditRequested',
  { sessionId: string; requestId: string; userId: string; instruction: string; snippet: string; fromVersion: number; offset?: number; at: string }
>;
export type TargetedEditApplied = DomainEvent<
  'TargetedEditApplied',
  {
    sessionId: string;
    requestId: string;
    artifactId: string;
    fromVersion: number;
    version: number;
    title: string;
    instruction: string;
    originalSnippet: string;
    editedSnippet: string;
    fullContent: string;
    /** The version's citation checks: the sentences the edit changed checked again, the rest's kept and moved. */
    citations?: CitationCheck[];
    at: string;
  }
>;
/** The user edited the canvas by hand and saved it: a new version like any other. */
export type CanvasEdited = DomainEvent<
  'CanvasEdited',
  { sessionId: string; artifactId: string; fromVersion: number; version: number; title: string; content: string; at: string }
>;
/** The user's verdict on a report version (`report_feedback`), kept for the people improving the agents. */
export type ReportRated = DomainEvent<
  'ReportRated',
  { sessionId: string; userId: string; version: number; rating: 'helpful' | 'not_helpful'; comment?: string; at: string }
>;
export type FeedbackOption = 'continue' | 'satisfied' | 'manual_feedback';

export type ConversationEvent =
  | SessionCreated
  | SessionRenamed
  | SessionTitleChanged
  | CollaborationModeSet
  | SearchToggled
  | SessionLifecycleChanged
  | UserMessagePosted
  | AgentReplyStarted
  | MessageChunksAppended
  | AgentOutputRecorded
  | AgentReplyCompleted
  | AgentStatusChanged
  | TokensConsumed
  | ClarificationAsked
  | ClarificationAnswered
  | StageStarted
  | PlanProposed
  | PlanStepMarked
  | PlanReviewOpened
  | PlanEdited
  | PlanRevised
  | PlanStarted
  | SearchResultsRecorded
  | PageRead
  | SectionWritten
  | CitationsChecked
  | ReplyDeferred
  | WritingStarted
  | WritingVersionSaved
  | WritingVersionDiscarded
  | FeedbackRequested
  | FeedbackGiven
  | TargetedEditRequested
  | TargetedEditApplied
  | CanvasEdited
  | ReportRated;

export interface CanvasState {
  versions: number;
  current: { version: number; title: string; content: string } | null;
  /** `checked`: each checked section's citations, by the section's index. */
  writing: { version: number; title: string; messageId: string; agent: AgentName; checked: Record<number, CitationCheck[]> } | null;
}

export interface ActiveReply {
  messageId: string;
  agent: AgentName;
  jobId: string;
  replyTo: string;
  /** The interrupted reply whose text this one continues, when it was resumed. */
  continues?: string;
  /** The research stage its current job runs; absent for the first job. */
  stage?: ResearchStage;
  /** Set when the model service asked to wait: the current job does not start before it. */
  notBefore?: string;
}

export interface OpenSession {
  status: 'open';
  sessionId: string;
  ownerId: string;
  name: string;
  title: string | null;
  collaborationMode: CollaborationMode;
  searchEnabled: boolean;
  layoutPreset: LayoutPreset;
  lifecycle: Lifecycle;
  activity: Activity;
  activeReply: ActiveReply | null;
  /** The last reply that a pause, a crash or a failure cut short: what resume continues. */
  interruptedReply: ActiveReply | null;
  /** What the active reply waits for from the user, if anything. */
  awaiting: null | 'clarification' | 'feedback' | 'plan';
  pendingQuestions: ClarificationQuestion[];
  /** The active reply's research plan as it stands (proposed, then edited), what an edit starts from. */
  plan: { steps: string[]; queries: string[][]; headings: string[] } | null;
  /** While the plan waits (`awaiting` plan): when its countdown starts it; null once an edit stopped it, or with none. */
  planStartsAt: string | null;
  canvas: CanvasState;
  /** Targeted edits asked for, by request id: a request is recorded once however often it is sent. */
  editRequests: string[];
  userMessages: number;
  agentReplies: number;
}

export type Conversation = { status: 'none' } | OpenSession;

export const initialState = (): Conversation => ({ status: 'none' });

export function evolve(state: Conversation, event: ConversationEvent): Conversation {
  if (event.type === 'SessionCreated') {
    const { sessionId, ownerId, name, collaborationMode, searchEnabled, layoutPreset } = event.data;
    return {
      status: 'open',
      sessionId,
      ownerId,
      name,
      title: null,
      collaborationMode,
      searchEnabled,
      layoutPreset,
      lifecycle: 'active',
      activity: 'idle',
      activeReply: null,
      interruptedReply: null,
      awaiting: null,
      pendingQuestions: [],
      plan: null,
      planStartsAt: null,
      canvas: { versions: 0, current: null, writing: null },
      editRequests: [],
      userMessages: 0,
      agentReplies: 0,
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'SessionRenamed':
      return { ...state, name: event.data.name };
    case 'SessionTitleChanged':
      return { ...state, title: event.data.title };
    case 'CollaborationModeSet':
      return { ...state, collaborationMode: event.data.mode };
    case 'SearchToggled':
      return { ...state, searchEnabled: event.data.enabled };
    case 'SessionLifecycleChanged':
      return { ...state, lifecycle: event.data.lifecycle };
    case 'UserMessagePosted':
      return { ...state, userMessages: state.userMessages + 1 };
    case 'AgentReplyStarted':
      return {
        ...state,
        activity: 'processing',
        activeReply: {
          messageId: event.data.messageId,
          agent: event.data.agent,
          jobId: event.data.jobId,
          replyTo: event.data.replyTo,
          ...(event.data.continues !== undefined && { continues: event.data.continues }),
        },
        interruptedReply: null,
      };
    case 'AgentReplyCompleted': {
      const ended = state.activeReply?.messageId === event.data.messageId ? state.activeReply : null;
      return {
        ...state,
        activity: event.data.outcome === 'interrupted' ? 'paused' : 'idle',
        activeReply: ended ? null : state.activeReply,
        // A failed reply can be retried from where it failed, as a paused one is continued.
        interruptedReply: event.data.outcome === 'completed' ? null : ended,
        awaiting: ended ? null : state.awaiting,
        pendingQuestions: ended ? [] : state.pendingQuestions,
        plan: ended ? null : state.plan,
        planStartsAt: ended ? null : state.planStartsAt,
        canvas: ended ? { ...state.canvas, writing: null } : state.canvas,
        agentReplies: state.agentReplies + 1,
      };
    }
    case 'ClarificationAsked':
      return { ...state, activity: 'waiting', awaiting: 'clarification', pendingQuestions: event.data.questions };
    case 'ClarificationAnswered':
      return { ...state, awaiting: null, pendingQuestions: [] };
    case 'StageStarted': {
      const reply = state.activeReply && { ...state.activeReply, jobId: event.data.jobId, stage: event.data.stage };
      if (reply) delete reply.notBefore;
      return { ...state, activity: 'processing', activeReply: reply };
    }
    case 'PlanReviewOpened': {
      if (state.activeReply?.messageId !== event.data.messageId) return state;
      const { jobId, startsAt } = event.data;
      const reply: ActiveReply = { ...state.activeReply, jobId, stage: 'research', ...(startsAt !== undefined && { notBefore: startsAt }) };
      return { ...state, activity: 'waiting', awaiting: 'plan', activeReply: reply, planStartsAt: startsAt ?? null };
    }
    case 'PlanEdited': {
      const { steps, queries, headings } = event.data;
      return { ...state, plan: { steps, queries, headings }, planStartsAt: null };
    }
    case 'PlanRevised': {
      if (state.activeReply?.messageId !== event.data.messageId) return state;
      const { steps, queries, headings } = event.data;
      return { ...state, plan: { steps, queries, headings } };
    }
    case 'PlanStarted': {
      if (state.activeReply?.messageId !== event.data.messageId) return state;
      const reply = { ...state.activeReply, jobId: event.data.jobId };
      delete reply.notBefore;
      return { ...state, activity: 'processing', awaiting: null, activeReply: reply, planStartsAt: null };
    }
    case 'PlanProposed':
      return state.activeReply?.messageId === event.data.messageId
        ? { ...state, plan: { steps: event.data.steps, queries: event.data.queries ?? event.data.steps.map((step) => [step]), headings: event.data.headings ?? event.data.steps } }
        : state;
    case 'ReplyDeferred':
      return state.activeReply?.messageId === event.data.messageId ? { ...state, activeReply: { ...state.activeReply, jobId: event.data.jobId, notBefore: event.data.until } } : state;
    case 'WritingStarted':
      return { ...state, canvas: { ...state.canvas, writing: { version: event.data.version, title: event.data.title, messageId: event.data.messageId, agent: event.data.agent, checked: {} } } };
    case 'CitationsChecked': {
      const writing = state.canvas.writing;
      if (writing?.messageId !== event.data.messageId) return state;
      return { ...state, canvas: { ...state.canvas, writing: { ...writing, checked: { ...writing.checked, [event.data.index]: event.data.citations } } } };
    }
    case 'WritingVersionSaved':
      return {
        ...state,
        canvas: { versions: event.data.version, current: { version: event.data.version, title: event.data.title, content: event.data.content }, writing: null },
      };
    case 'WritingVersionDiscarded':
      return { ...state, canvas: { ...state.canvas, writing: null } };
    case 'TargetedEditRequested':
      return { ...state, editRequests: [...state.editRequests, event.data.requestId] };
    case 'TargetedEditApplied':
      return {
        ...state,
        canvas: { ...state.canvas, versions: event.data.version, current: { version: event.data.version, title: event.data.title, content: event.data.fullContent } },
      };
    case 'CanvasEdited':
      return {
        ...state,
        canvas: { ...state.canvas, versions: event.data.version, current: { version: event.data.version, title: event.data.title, content: event.data.content } },
      };
    case 'FeedbackRequested':
      return { ...state, activity: 'waiting', awaiting: 'feedback' };
    case 'FeedbackGiven':
      return { ...state, awaiting: null };
    case 'MessageChunksAppended':
    case 'AgentOutputRecorded':
    case 'AgentStatusChanged':
    case 'TokensConsumed':
    case 'ReportRated':
    case 'PlanStepMarked':
    case 'SearchResultsRecorded':
    case 'PageRead':
    case 'SectionWritten':
      return state;
    default:
      return assertNever(event);
  }
}

export const conversationStream = (sessionId: string): string => `conversation-${sessionId}`;
export const CONVERSATION_PREFIX = 'conversation-';

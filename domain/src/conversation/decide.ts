import { refuse } from '../refuse.ts';
import { assertNever, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import {
  evolve,
  initialState,
  agentForMode,
  type AgentName,
  type CollaborationMode,
  type Conversation,
  type ConversationEvent,
  type LayoutPreset,
  type Lifecycle,
  type OpenSession,
  type ReplyOutcome,
  type FeedbackOption,
  type MessageChunksAppended,
  type AgentOutputRecorded,
  type TokensConsumed,
  type SearchPlacement,
  type UserMessagePosted,
} from './conversation.ts';
import type { CitationCheck, ClarificationAnswer, ClarificationQuestion, ReportLength, WebResult } from '../protocol/research.ts';
import { CANVAS_ID } from '../protocol/research.ts';
import { MIN_WRITING_CHARS } from '../protocol/chunks.ts';

export const DEFAULT_SESSION_NAME = '未命名会话';
export const MAX_MESSAGE_LENGTH = 20_000;

type Owned<Data> = Data & { actorId: string };

export type CreateSession = Command<
  'CreateSession',
  { sessionId: string; ownerId: string; clientId: string; name?: string; collaborationMode?: CollaborationMode; searchEnabled?: boolean; layoutPreset?: LayoutPreset }
>;
export type RenameSession = Command<'RenameSession', Owned<{ name: string }>>;
export type SetTitle = Command<'SetTitle', Owned<{ title: string; source: 'user' | 'generated' }>>;
export type SetCollaborationMode = Command<'SetCollaborationMode', Owned<{ mode: CollaborationMode }>>;
export type SetSearchEnabled = Command<'SetSearchEnabled', Owned<{ enabled: boolean }>>;
export type SetLifecycle = Command<'SetLifecycle', Owned<{ lifecycle: Lifecycle }>>;
/** Posts the user's message and starts the agent's reply in one append, so no message is left unanswered by a crash in between. */
export type PostUserMessage = Command<
  'PostUserMessage',
  Owned<{ messageId: string; replyId: string; content: string; agent?: AgentName; clientId?: string }>
>;
export type CompleteReply = Command<'CompleteReply', { messageId: string; outcome: ReplyOutcome; error?: string }>;
export type ResumeReply = Command<'ResumeReply', Owned<{ replyId: string }>>;

/** Commands the research agent issues for its reply (`messageId`) while it runs. */
export type AskClarification = Command<'AskClarification', { messageId: string; questions: ClarificationQuestion[] }>;
export type ProposePlan = Command<'ProposePlan', { messageId: string; steps: string[]; queries?: string[][]; headings?: string[]; title?: string; length?: ReportLength }>;
/** The plan waits for the user: until `startsAt` (a countdown) or, without it, until the user starts it. */
export type OpenPlanReview = Command<'OpenPlanReview', { messageId: string; jobId: string; startsAt?: string }>;
/** The user's plan: each step's description and, when given, its searches. */
export type EditPlan = Command<'EditPlan', Owned<{ steps: Array<{ description: string; queries?: string[] }> }>>;
/** The user starts the waiting plan; it goes on as job `jobId`. */
export type StartPlan = Command<'StartPlan', Owned<{ jobId: string }>>;
/** The countdown's job starts the plan, unless an edit stopped the countdown. */
export type StartPlanOnTime = Command<'StartPlanOnTime', { messageId: string; jobId: string }>;
/** The agent replaces the plan's unfinished steps, as the user's instructions (their message ids) asked. */
export type RevisePlan = Command<'RevisePlan', { messageId: string; steps: string[]; queries: string[][]; headings: string[]; from: Array<number | null>; instructions: string[] }>;
export type MarkPlanStep = Command<'MarkPlanStep', { messageId: string; steps: string[]; index: number }>;
export type RecordSearchResults = Command<'RecordSearchResults', { messageId: string; queries: string[]; results: WebResult[] } & SearchPlacement>;
export type RecordPage = Command<'RecordPage', { messageId: string; url: string; title: string; text: string; summary: string }>;
export type RecordSection = Command<'RecordSection', { messageId: string; index: number; heading: string; text: string }>;
export type RecordCitationChecks = Command<'RecordCitationChecks', { messageId: string; index: number; citations: CitationCheck[] }>;
/** The model service asked to wait: the reply goes on as a new job once `until` has come. */
export type DeferReply = Command<'DeferReply', { messageId: string; jobId: string; until: string }>;
export type StartWriting = Command<'StartWriting', { messageId: string; title: string }>;
export type FinishWriting = Command<'FinishWriting', { messageId: string; content: string; interrupted: boolean }>;
export type RequestFeedback = Command<'RequestFeedback', { messageId: string }>;
/** Commands from the user that let a waiting reply go on. */
export type AnswerClarification = Command<'AnswerClarification', Owned<{ answers: ClarificationAnswer[]; jobId: string }>>;
export type GiveFeedback = Command<'GiveFeedback', Owned<{ option: FeedbackOption; text?: string; jobId: string }>>;
/** What an agent writes into its reply while it runs: streamed text, a structured item, or the tokens a call used. */
export type ReplyItem = MessageChunksAppended | AgentOutputRecorded | TokensConsumed;
export type RecordReplyItem = Command<'RecordReplyItem', { item: ReplyItem }>;
/** `offset` and `version`: where the selection was made, so only that occurrence is edited. */
export type RequestTargetedEdit = Command<'RequestTargetedEdit', Owned<{ requestId: string; instruction: string; snippet: string; offset?: number; version?: number }>>;
export type ApplyTargetedEdit = Command<
  'ApplyTargetedEdit',
  /** `citations`: the checks of the version the edit makes, offsets in it. */
  Owned<{ requestId: string; instruction: string; snippet: string; editedSnippet: string; fromVersion: number; offset?: number; citations?: CitationCheck[] }>
>;
export type RateReport = Command<'RateReport', Owned<{ version: number; rating: 'helpful' | 'not_helpful'; comment?: string }>>;
export type EditCanvas = Command<'EditCanvas', Owned<{ content: string; title?: string; fromVersion: number }>>;

export type ConversationCommand =
  | CreateSession
  | RenameSession
  | SetTitle
  | SetCollaborationMode
  | SetSearchEnabled
  | SetLifecycle
  | PostUserMessage
  | CompleteReply
  | ResumeReply
  | AskClarification
  | ProposePlan
  | OpenPlanReview
  | EditPlan
  | StartPlan
  | StartPlanOnTime
  | RevisePlan
  | MarkPlanStep
  | RecordSearchResults
  | RecordPage
  | RecordSection
  | RecordCitationChecks
  | DeferReply
  | StartWriting
  | FinishWriting
  | RequestFeedback
  | AnswerClarification
  | GiveFeedback
  | RecordReplyItem
  | RequestTargetedEdit
  | ApplyTargetedEdit
  | EditCanvas
  | RateReport;

/** Another user's session answers exactly like a missing one. */
function owned(state: Conversation, actorId: string): OpenSession {
  if (state.status === 'none' || state.ownerId !== actorId) throw refuse('not_found', 'conversation.not_found');
  return state;
}

const at = (command: Command) => command.metadata.now.toISOString();

export const createSession = (command: CreateSession, state: Conversation): ConversationEvent[] => {
  if (state.status !== 'none') {
    if (state.ownerId === command.data.ownerId) return [];
    throw refuse('conflict', 'conversation.exists');
  }
  const { sessionId, ownerId, clientId, name, collaborationMode = 1, searchEnabled = true, layoutPreset = 'home-welcome' } = command.data;
  return [
    {
      type: 'SessionCreated',
      data: { sessionId, ownerId, clientId, name: name?.trim() || DEFAULT_SESSION_NAME, collaborationMode, searchEnabled, layoutPreset, createdAt: at(command) },
    },
  ];
};

export const renameSession = (command: RenameSession, state: Conversation): ConversationEvent[] => {
  const session = owned(state, command.data.actorId);
  const name = command.data.name.trim();
  if (!name) throw refuse('invalid', 'conversation.name_empty', {}, 'name');
  if (name === session.name) return [];
  return [{ type: 'SessionRenamed', data: { sessionId: session.sessionId, name, at: at(command) } }];
};

export const setTitle = (command: SetTitle, state: Conversation): ConversationEvent[] => {
  const session = owned(state, command.data.actorId);
  const title = command.data.title.trim();
  if (!title) throw refuse('invalid', 'conversation.title_empty', {}, 'title');
  if (title === session.title) return [];
  return [{ type: 'SessionTitleChanged', data: { sessionId: session.sessionId, title, source: command.data.source, at: at(command) } }];
};

export const setCollaborationMode = (command: SetCollaborationMode, state: Conversation): ConversationEvent[] => {
  const session = owned(state, command.data.actorId);
  if (session.collaborationMode === command.data.mode) return [];
  return [{ type: 'CollaborationModeSet', data: { sessionId: session.sessionId, mode: command.data.mode, at: at(command) } }];
};

export const setSearchEnabled = (command: SetSearchEnabled, state: Conversation): ConversationEvent[] => {
  const session = owned(state, command.data.actorId);
  if (session.searchEnabled === command.data.enabled) return [];
  return [{ type: 'SearchToggled', data: { sessionId: session.sessionId, enabled: command.data.enabled, at: at(command) } }];
};

export const setLifecycle = (command: SetLifecycle, state: Conversation): ConversationEvent[] => {
  const session = owned(state, command.data.actorId);
  if (session.lifecycle === command.data.lifecycle) return [];
  return [{ type: 'SessionLifecycleChanged', data: { sessionId: session.sessionId, lifecycle: command.data.lifecycle, at: at(command) } }];
};

export const postUserMessage = (command: PostUserMessage, state: Conversation): ConversationEvent[] => {
  const session = owned(state, command.data.actorId);
  const content = command.data.content.trim();
  if (!content) throw refuse('invalid', 'conversation.message_empty', {}, 'message');
  if (content.length > MAX_MESSAGE_LENGTH) throw refuse('invalid', 'conversation.message_too_long', { max: MAX_MESSAGE_LENGTH }, 'message');
  const agent = command.data.agent ?? agentForMode(session.collaborationMode);
  const { sessionId } = session;
  const { messageId, replyId, clientId } = command.data;
  const now = at(command);
  const steering = (steers: string): UserMessagePosted => ({ type: 'UserMessagePosted', data: { sessionId, messageId, content, agent, ...(clientId !== undefined && { clientId }), steers, at: now } });
  if (session.activity === 'processing') {
    // A research at work takes the message as an instruction for what it has still to do; a chat reply cannot.
    if (session.activeReply?.agent === 'deep_cognition' && agent === 'deep_cognition') return [steering(session.activeReply.messageId)];
    throw refuse('conflict', 'conversation.busy');
  }
  if (session.awaiting === 'clarification') throw refuse('conflict', 'conversation.awaiting_clarification');
  if (session.awaiting === 'plan') throw refuse('conflict', 'conversation.awaiting_plan');
  const paused = session.activity === 'paused' ? session.interruptedReply : null;
  if (paused?.agent === 'deep_cognition' && agent === 'deep_cognition') {
    // After a pause, a message redirects the same research: it goes on from where it stood, on its question, as told.
    return [
      steering(replyId),
      { type: 'AgentReplyStarted', data: { sessionId, messageId: replyId, agent, replyTo: paused.replyTo, jobId: replyId, at: now, continues: paused.messageId } },
      { type: 'AgentStatusChanged', data: { sessionId, agent, status: 'processing', at: now } },
    ];
  }
  // Asking something new while a report waits for feedback means the user is done with it.
  const previous = session.awaiting === 'feedback' && session.activeReply ? session.activeReply : null;
  return [
    ...(previous
      ? [{ type: 'AgentReplyCompleted' as const, data: { sessionId, messageId: previous.messageId, agent: previous.agent, outcome: 'completed' as const, at: now } }]
      : []),
    { type: 'UserMessagePosted', data: { sessionId, messageId, content, agent, ...(clientId !== undefined && { clientId }), at: now } },
    { type: 'AgentReplyStarted', data: { sessionId, messageId: replyId, agent, replyTo: messageId, jobId: replyId, at: now } },
    { type: 'AgentStatusChanged', data: { sessionId, agent, status: 'processing', at: now } },
  ];
};

/** Ends the active reply; ending one that is already over records nothing (worker and api may both try). */
export const completeReply = (command: CompleteReply, state: Conversation): ConversationEvent[] => {
  if (state.status === 'none') throw refuse('not_found', 'conversation.not_found');
  const reply = state.activeReply;
  if (!reply || reply.messageId !== command.data.messageId) return [];
  const { sessionId } = state;
  const now = at(command);
  return [
    {
      type: 'AgentReplyCompleted',
      data: { sessionId, messageId: reply.messageId, agent: reply.agent, outcome: command.data.outcome, ...(command.data.error !== undefined && { error: command.data.error }), at: now },
    },
    { type: 'AgentStatusChanged', data: { sessionId, agent: reply.agent, status: 'paused', at: now } },
  ];
};

/** Continues the reply a pause, a crash or a failure cut short, as long as nothing has run since. */
export const resumeReply = (command: ResumeReply, state: Conversation): ConversationEvent[] => {
  const session = owned(state, command.data.actorId);
  const interrupted = session.interruptedReply;
  if (session.activeReply || !interrupted) throw refuse('conflict', 'conversation.nothing_to_resume');
  const { sessionId } = session;
  const now = at(command);
  return [
    { type: 'AgentReplyStarted', data: { sessionId, messageId: command.data.replyId, agent: interrupted.agent, replyTo: interrupted.replyTo, jobId: command.data.replyId, at: now, continues: interrupted.messageId } },
    { type: 'AgentStatusChanged', data: { sessionId, agent: interrupted.agent, status: 'processing', at: now } },
  ];
};

/** The session whose active reply is `messageId`: agent commands for a reply that ended are refused. */
function replying(state: Conversation, messageId: string): OpenSession {
  if (state.status === 'none') throw refuse('not_found', 'conversation.not_found');
  if (state.activeReply?.messageId !== messageId) throw refuse('conflict', 'conversation.reply_ended');
  return state;
}

export const askClarification = (command: AskClarification, state: Conversation): ConversationEvent[] => {
  const session = replying(state, command.data.messageId);
  if (command.data.questions.length === 0) throw refuse('invalid', 'conversation.questions_empty');
  const now = at(command);
  return [
    { type: 'ClarificationAsked', data: { sessionId: session.sessionId, messageId: command.data.messageId, questions: command.data.questions, at: now } },
    { type: 'AgentStatusChanged', data: { sessionId: session.sessionId, agent: session.activeReply!.agent, status: 'paused', at: now } },
  ];
};

export const answerClarification = (command: AnswerClarification, state: Conversation): ConversationEvent[] => {
  const session = owned(state, command.data.actorId);
  if (session.awaiting !== 'clarification' || !session.activeReply) throw refuse('conflict', 'conversation.no_pending_questions');
  const known = new Set(session.pendingQuestions.map((question) => question.id));
  const unknown = command.data.answers.find((answer) => !known.has(answer.id));
  if (unknown) throw refuse('invalid', 'conversation.unknown_question', { id: unknown.id }, 'answers');
  const { sessionId } = session;
  const { messageId, agent } = session.activeReply;
  const now = at(command);
  return [
    { type: 'ClarificationAnswered', data: { sessionId, messageId, answers: command.data.answers, at: now } },
    { type: 'StageStarted', data: { sessionId, messageId, stage: 'research', jobId: command.data.jobId, at: now } },
    { type: 'AgentStatusChanged', data: { sessionId, agent, status: 'processing', at: now } },
  ];
};

export const proposePlan = (command: ProposePlan, state: Conversation): ConversationEvent[] => {
  const session = replying(state, command.data.messageId);
  const { messageId, steps, queries, headings, title, length } = command.data;
  if (steps.length === 0) throw refuse('invalid', 'conversation.plan_empty');
  if ((queries && queries.length !== steps.length) || (headings && headings.length !== steps.length)) throw refuse('invalid', 'conversation.plan_step_not_found');
  return [{ type: 'PlanProposed', data: { sessionId: session.sessionId, messageId, steps, ...(queries && { queries }), ...(headings && { headings }), ...(title && { title }), ...(length && { length }), at: at(command) } }];
};

export const openPlanReview = (command: OpenPlanReview, state: Conversation): ConversationEvent[] => {
  const session = replying(state, command.data.messageId);
  if (!session.plan) throw refuse('conflict', 'conversation.no_plan');
  const { messageId, jobId, startsAt } = command.data;
  const now = at(command);
  return [
    { type: 'PlanReviewOpened', data: { sessionId: session.sessionId, messageId, jobId, queries: session.plan.queries, ...(startsAt !== undefined && { startsAt }), at: now } },
    { type: 'AgentStatusChanged', data: { sessionId: session.sessionId, agent: session.activeReply!.agent, status: 'paused', at: now } },
  ];
};

/** The plan waiting for review, of the user's session: editing or starting anything else is refused. */
function waitingPlan(state: Conversation, actorId: string): OpenSession & { activeReply: NonNullable<OpenSession['activeReply']>; plan: NonNullable<OpenSession['plan']> } {
  const session = owned(state, actorId);
  if (session.awaiting !== 'plan' || !session.activeReply || !session.plan) {
    throw refuse('conflict', session.activeReply && session.plan ? 'conversation.plan_running' : 'conversation.no_plan');
  }
  return session as ReturnType<typeof waitingPlan>;
}

/**
 * A step keeps the searches and the heading it was planned with while its description is the same
 * (wherever it moved); a new or reworded step searches its description unless given searches.
 */
export const editPlan = (command: EditPlan, state: Conversation): ConversationEvent[] => {
  const session = waitingPlan(state, command.data.actorId);
  const steps = command.data.steps.map((step) => ({ description: step.description.trim(), queries: step.queries?.map((query) => query.trim()).filter(Boolean) }));
  if (steps.length === 0) throw refuse('invalid', 'conversation.plan_empty', {}, 'steps');
  const blank = steps.findIndex((step) => !step.description);
  if (blank !== -1) throw refuse('invalid', 'conversation.plan_step_empty', { step: blank + 1 }, 'steps');
  const { plan } = session;
  const earlier = (description: string) => plan.steps.indexOf(description);
  const descriptions = steps.map((step) => step.description);
  const queries = steps.map((step) => (step.queries?.length ? step.queries : (plan.queries[earlier(step.description)] ?? [step.description])));
  const headings = steps.map((step) => plan.headings[earlier(step.description)] ?? step.description);
  const same = JSON.stringify([descriptions, queries]) === JSON.stringify([plan.steps, plan.queries]);
  if (same && session.planStartsAt === null) return [];
  return [{ type: 'PlanEdited', data: { sessionId: session.sessionId, messageId: session.activeReply.messageId, steps: descriptions, queries, headings, at: at(command) } }];
};

export const startPlan = (command: StartPlan, state: Conversation): ConversationEvent[] => {
  const session = waitingPlan(state, command.data.actorId);
  const { sessionId } = session;
  const { messageId, agent } = session.activeReply;
  const now = at(command);
  return [
    { type: 'PlanStarted', data: { sessionId, messageId, jobId: command.data.jobId, by: 'user', at: now } },
    { type: 'AgentStatusChanged', data: { sessionId, agent, status: 'processing', at: now } },
  ];
};

export const startPlanOnTime = (command: StartPlanOnTime, state: Conversation): ConversationEvent[] => {
  const session = replying(state, command.data.messageId);
  const { messageId, jobId } = command.data;
  if (session.awaiting !== 'plan' || session.planStartsAt === null || session.activeReply!.jobId !== jobId) throw refuse('conflict', 'conversation.plan_countdown_stopped');
  const now = at(command);
  return [
    { type: 'PlanStarted', data: { sessionId: session.sessionId, messageId, jobId, by: 'countdown', at: now } },
    { type: 'AgentStatusChanged', data: { sessionId: session.sessionId, agent: session.activeReply!.agent, status: 'processing', at: now } },
  ];
};

export const revisePlan = (command: RevisePlan, state: Conversation): ConversationEvent[] => {
  const session = replying(state, command.data.messageId);
  const { messageId, steps, queries, headings, from, instructions } = command.data;
  if (!session.plan) throw refuse('conflict', 'conversation.no_plan');
  if (steps.length === 0) throw refuse('invalid', 'conversation.plan_empty');
  const before = session.plan.steps.length;
  const misplaced = from.some((index) => index !== null && (index < 0 || index >= before));
  if (queries.length !== steps.length || headings.length !== steps.length || from.length !== steps.length || misplaced) throw refuse('invalid', 'conversation.plan_step_not_found');
  return [{ type: 'PlanRevised', data: { sessionId: session.sessionId, messageId, steps, queries, headings, from, instructions, at: at(command) } }];
};

export const markPlanStep = (command: MarkPlanStep, state: Conversation): ConversationEvent[] => {
  const session = replying(state, command.data.messageId);
  const { steps, index } = command.data;
  if (index < 0 || index > steps.length) throw refuse('invalid', 'conversation.plan_step_not_found');
  return [{ type: 'PlanStepMarked', data: { sessionId: session.sessionId, messageId: command.data.messageId, steps, index, at: at(command) } }];
};

export const recordSearchResults = (command: RecordSearchResults, state: Conversation): ConversationEvent[] => {
  const session = replying(state, command.data.messageId);
  const { messageId, queries, results, step, round, reason } = command.data;
  const placement = { ...(step !== undefined && { step }), ...(round !== undefined && { round }), ...(reason !== undefined && { reason }) };
  return [{ type: 'SearchResultsRecorded', data: { sessionId: session.sessionId, messageId, queries, results, ...placement, at: at(command) } }];
};

export const recordPage = (command: RecordPage, state: Conversation): ConversationEvent[] => {
  const session = replying(state, command.data.messageId);
  return [{ type: 'PageRead', data: { sessionId: session.sessionId, ...command.data, at: at(command) } }];
};

/** A section belongs to the version being written; recorded once the text it names is in that version. */
export const recordSection = (command: RecordSection, state: Conversation): ConversationEvent[] => {
  const session = replying(state, command.data.messageId);
  if (session.canvas.writing?.messageId !== command.data.messageId) throw refuse('conflict', 'conversation.reply_ended');
  if (!Number.isInteger(command.data.index) || command.data.index < 0) throw refuse('invalid', 'conversation.plan_step_not_found');
  return [{ type: 'SectionWritten', data: { sessionId: session.sessionId, ...command.data, at: at(command) } }];
};

/** A section's checks belong to the version being written, like the section; offsets point into it. */
export const recordCitationChecks = (command: RecordCitationChecks, state: Conversation): ConversationEvent[] => {
  const session = replying(state, command.data.messageId);
  const writing = session.canvas.writing;
  if (writing?.messageId !== command.data.messageId) throw refuse('conflict', 'conversation.reply_ended');
  if (!Number.isInteger(command.data.index) || command.data.index < 0) throw refuse('invalid', 'conversation.plan_step_not_found');
  return [{ type: 'CitationsChecked', data: { sessionId: session.sessionId, messageId: command.data.messageId, version: writing.version, index: command.data.index, citations: command.data.citations, at: at(command) } }];
};

export const deferReply = (command: DeferReply, state: Conversation): ConversationEvent[] => {
  const session = replying(state, command.data.messageId);
  if (session.activeReply!.jobId === command.data.jobId) return [];
  return [{ type: 'ReplyDeferred', data: { sessionId: session.sessionId, ...command.data, at: at(command) } }];
};

export const startWriting = (command: StartWriting, state: Conversation): ConversationEvent[] => {
  const session = replying(state, command.data.messageId);
  if (session.canvas.writing) {
    if (session.canvas.writing.messageId === command.data.messageId) return [];
    throw refuse('conflict', 'conversation.writing');
  }
  const version = session.canvas.versions + 1;
  return [
    { type: 'WritingStarted', data: { sessionId: session.sessionId, messageId: command.data.messageId, agent: session.activeReply!.agent, artifactId: CANVAS_ID, version, title: command.data.title.trim() || '研究报告', at: at(command) } },
  ];
};

/** Spec §4: an end keeps the version unless it is empty or under 50 characters and not interrupted. */
export const finishWriting = (command: FinishWriting, state: Conversation): ConversationEvent[] => {
  if (state.status === 'none') throw refuse('not_found', 'conversation.not_found');
  const writing = state.canvas.writing;
  if (!writing || writing.messageId !== command.data.messageId) return [];
  const base = { sessionId: state.sessionId, messageId: writing.messageId, agent: writing.agent, artifactId: CANVAS_ID, version: writing.version, at: at(command) };
  const content = command.data.content;
  if (!command.data.interrupted && content.trim().length < MIN_WRITING_CHARS) return [{ type: 'WritingVersionDiscarded', data: base }];
  if (command.data.interrupted && content.trim().length === 0) return [{ type: 'WritingVersionDiscarded', data: base }];
  const citations = Object.entries(writing.checked)
    .sort(([a], [b]) => Number(a) - Number(b))
    .flatMap(([, checks]) => checks)
    .filter((check) => check.offset < content.length);
  return [{ type: 'WritingVersionSaved', data: { ...base, title: writing.title, content, interrupted: command.data.interrupted, ...(citations.length > 0 && { citations }) } }];
};

export const requestFeedback = (command: RequestFeedback, state: Conversation): ConversationEvent[] => {
  const session = replying(state, command.data.messageId);
  if (!session.canvas.current) throw refuse('conflict', 'conversation.no_report_for_feedback');
  const now = at(command);
  return [
    { type: 'FeedbackRequested', data: { sessionId: session.sessionId, messageId: command.data.messageId, artifactId: CANVAS_ID, version: session.canvas.current.version, at: now } },
    { type: 'AgentStatusChanged', data: { sessionId: session.sessionId, agent: session.activeReply!.agent, status: 'paused', at: now } },
  ];
};

export const giveFeedback = (command: GiveFeedback, state: Conversation): ConversationEvent[] => {
  const session = owned(state, command.data.actorId);
  if (session.awaiting !== 'feedback' || !session.activeReply) throw refuse('conflict', 'conversation.no_pending_feedback');
  const text = command.data.text?.trim();
  if (command.data.option === 'manual_feedback' && !text) throw refuse('invalid', 'conversation.feedback_text_required', {}, 'text');
  const { sessionId } = session;
  const { messageId, agent } = session.activeReply;
  const now = at(command);
  const given: ConversationEvent = { type: 'FeedbackGiven', data: { sessionId, messageId, option: command.data.option, ...(text && { text }), at: now } };
  if (command.data.option === 'satisfied') {
    return [
      given,
      { type: 'AgentReplyCompleted', data: { sessionId, messageId, agent, outcome: 'completed', at: now } },
      { type: 'AgentStatusChanged', data: { sessionId, agent, status: 'paused', at: now } },
    ];
  }
  return [
    given,
    { type: 'StageStarted', data: { sessionId, messageId, stage: 'revise', jobId: command.data.jobId, at: now } },
    { type: 'AgentStatusChanged', data: { sessionId, agent, status: 'processing', at: now } },
  ];
};

/** Replaces the snippet in the current version and saves the result as a new version. */
/**
 * Text and items belong to a reply while it runs (or to a targeted edit that was asked for): what a
 * job still writes after its reply ended (a pause, a crash's second run) is dropped. Tokens a call
 * used are recorded whatever became of the reply, because they were spent.
 */
export const recordReplyItem = (command: RecordReplyItem, state: Conversation): ConversationEvent[] => {
  const { item } = command.data;
  if (item.type === 'TokensConsumed') return [item];
  if (state.status === 'none') return [];
  const replying = state.activeReply?.messageId === item.data.messageId || state.editRequests.includes(item.data.messageId);
  return replying ? [item] : [];
};

/** Checks a targeted edit against the current canvas, so a request that cannot be carried out is refused before any job runs. */
export const requestTargetedEdit = (command: RequestTargetedEdit, state: Conversation): ConversationEvent[] => {
  const session = owned(state, command.data.actorId);
  const { requestId, instruction, snippet, offset, version } = command.data;
  if (session.editRequests.includes(requestId)) return [];
  if (!instruction.trim() || !snippet.trim()) throw refuse('invalid', 'conversation.edit_needs_text');
  const current = session.canvas.current;
  if (!current) throw refuse('conflict', 'conversation.no_report');
  if (!current.content.includes(snippet)) throw refuse('invalid', 'conversation.snippet_not_found', {}, 'snippet');
  // A selection made on an older version, or no longer where it was, would change the wrong text.
  if (version !== undefined && version !== current.version) throw refuse('conflict', 'conversation.edit_stale_selection', {}, 'version');
  if (offset !== undefined && !current.content.startsWith(snippet, offset)) throw refuse('conflict', 'conversation.snippet_moved', {}, 'offset');
  return [
    {
      type: 'TargetedEditRequested',
      data: { sessionId: session.sessionId, requestId, userId: session.ownerId, instruction: instruction.trim(), snippet, fromVersion: current.version, ...(offset !== undefined && { offset }), at: at(command) },
    },
  ];
};

export const applyTargetedEdit = (command: ApplyTargetedEdit, state: Conversation): ConversationEvent[] => {
  const session = owned(state, command.data.actorId);
  const current = session.canvas.current;
  if (!current) throw refuse('conflict', 'conversation.no_report');
  const { requestId, instruction, snippet, editedSnippet, fromVersion, offset } = command.data;
  if (!instruction.trim() || !snippet.trim()) throw refuse('invalid', 'conversation.edit_needs_text');
  if (current.version !== fromVersion) throw refuse('conflict', 'conversation.edit_stale_selection');
  // With the selection's offset, that occurrence and no other equal text is the one replaced.
  const index = offset === undefined ? current.content.indexOf(snippet) : current.content.startsWith(snippet, offset) ? offset : -1;
  if (index === -1) throw offset === undefined ? refuse('invalid', 'conversation.snippet_not_found', {}, 'snippet') : refuse('conflict', 'conversation.snippet_moved', {}, 'offset');
  const fullContent = current.content.slice(0, index) + editedSnippet + current.content.slice(index + snippet.length);
  const citations = command.data.citations?.filter((check) => check.offset < fullContent.length);
  return [
    {
      type: 'TargetedEditApplied',
      data: {
        sessionId: session.sessionId,
        requestId,
        artifactId: CANVAS_ID,
        fromVersion,
        version: session.canvas.versions + 1,
        title: current.title,
        instruction,
        originalSnippet: snippet,
        editedSnippet,
        fullContent,
        ...(citations && citations.length > 0 && { citations }),
        at: at(command),
      },
    },
  ];
};

export const editCanvas = (command: EditCanvas, state: Conversation): ConversationEvent[] => {
  const session = owned(state, command.data.actorId);
  const current = session.canvas.current;
  if (!current) throw refuse('conflict', 'conversation.no_report');
  if (session.canvas.writing) throw refuse('conflict', 'conversation.writing_save_later');
  if (current.version !== command.data.fromVersion) throw refuse('conflict', 'conversation.edit_stale_version');
  const title = command.data.title?.trim() || current.title;
  if (command.data.content === current.content && title === current.title) return [];
  if (!command.data.content.trim()) throw refuse('invalid', 'conversation.report_empty', {}, 'content');
  return [
    {
      type: 'CanvasEdited',
      data: { sessionId: session.sessionId, artifactId: CANVAS_ID, fromVersion: current.version, version: session.canvas.versions + 1, title, content: command.data.content, at: at(command) },
    },
  ];
};

export const rateReport = (command: RateReport, state: Conversation): ConversationEvent[] => {
  const session = owned(state, command.data.actorId);
  const { version, rating, comment } = command.data;
  if (!Number.isInteger(version) || version < 1 || version > session.canvas.versions) throw refuse('invalid', 'conversation.version_not_found', {}, 'version');
  const text = comment?.trim();
  return [{ type: 'ReportRated', data: { sessionId: session.sessionId, userId: command.data.actorId, version, rating, ...(text && { comment: text }), at: at(command) } }];
};

export function decide(command: ConversationCommand, state: Conversation): ConversationEvent[] {
  switch (command.type) {
    case 'CreateSession':
      return createSession(command, state);
    case 'RenameSession':
      return renameSession(command, state);
    case 'SetTitle':
      return setTitle(command, state);
    case 'SetCollaborationMode':
      return setCollaborationMode(command, state);
    case 'SetSearchEnabled':
      return setSearchEnabled(command, state);
    case 'SetLifecycle':
      return setLifecycle(command, state);
    case 'PostUserMessage':
      return postUserMessage(command, state);
    case 'CompleteReply':
      return completeReply(command, state);
    case 'ResumeReply':
      return resumeReply(command, state);
    case 'AskClarification':
      return askClarification(command, state);
    case 'ProposePlan':
      return proposePlan(command, state);
    case 'OpenPlanReview':
      return openPlanReview(command, state);
    case 'EditPlan':
      return editPlan(command, state);
    case 'StartPlan':
      return startPlan(command, state);
    case 'StartPlanOnTime':
      return startPlanOnTime(command, state);
    case 'RevisePlan':
      return revisePlan(command, state);
    case 'MarkPlanStep':
      return markPlanStep(command, state);
    case 'RecordSearchResults':
      return recordSearchResults(command, state);
    case 'RecordPage':
      return recordPage(command, state);
    case 'RecordSection':
      return recordSection(command, state);
    case 'RecordCitationChecks':
      return recordCitationChecks(command, state);
    case 'DeferReply':
      return deferReply(command, state);
    case 'StartWriting':
      return startWriting(command, state);
    case 'FinishWriting':
      return finishWriting(command, state);
    case 'RequestFeedback':
      return requestFeedback(command, state);
    case 'AnswerClarification':
      return answerClarification(command, state);
    case 'GiveFeedback':
      return giveFeedback(command, state);
    case 'RecordReplyItem':
      return recordReplyItem(command, state);
    case 'RequestTargetedEdit':
      return requestTargetedEdit(command, state);
    case 'ApplyTargetedEdit':
      return applyTargetedEdit(command, state);
    case 'EditCanvas':
      return editCanvas(command, state);
    case 'RateReport':
      return rateReport(command, state);
    default:
      return assertNever(command);
  }
}

export const conversationDecider: Decider<Conversation, ConversationCommand, ConversationEvent> = { initialState, evolve, decide };

import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { ConversationEvent, FeedbackOption } from '@scriptorium/domain/conversation/conversation';
import type { CitationCheck, ClarificationAnswer, ReportLength, WebResult } from '@scriptorium/domain/protocol/research';

/** A page as the research read it: its text, and what was learnt from it. */
export interface StoredPage {
  title: string;
  text: string;
  summary: string;
}

/**
 * What the log holds of one stage of a research reply (the start, the research, a revision): what a
 * job that runs it — first, again after its worker died, after the model service asked it to wait,
 * or as the continuation of a reply a pause or failure cut short — goes on from.
 */
export interface StageTrace {
  /** Items and chunks this stage already wrote into this reply. */
  written: number;
  outputs: Set<string>;
  plan: string[] | null;
  /** The planned searches of each step, when the plan recorded them. */
  queries: string[][] | null;
  /** The section headings and the report title the model wrote with the plan, when it did. */
  headings: string[] | null;
  title: string | null;
  length: ReportLength | null;
  /** The planned search round of each plan step, by step (rounds recorded without a step came one per step, in order). */
  searches: Array<WebResult[] | undefined>;
  /** Follow-up rounds a reflection asked for, by `roundKey(step, round)`. */
  followUps: Map<string, { queries: string[]; results: WebResult[] }>;
  /** The plan's revisions by instructions mid-run, in order: each step's place in the plan before it (null: new). */
  revisions: Array<Array<number | null>>;
  /** Every step of the plan was researched to its end (the plan was marked done): no step is reflected on again. */
  researched: boolean;
  /** Pages whose reading the chat already showed (their `web_browsing_result`), by address. */
  announced: Set<string>;
  /** Pages read, by address, with their text. */
  pages: Map<string, StoredPage>;
  /** Sections written to their end, by plan index (the conclusion's is the number of steps). */
  sections: Map<number, { heading: string; text: string }>;
  /** Progress codes this reply already said in this stage (a re-run says each once). */
  said: Set<string>;
  /** Instructions the chat already said were applied, by message id. */
  applied: Set<string>;
  savedVersion: number | null;
  /** This reply's version still being written when its job stopped: its text so far. */
  writing: boolean;
  writingText: string;
  /** The text of the last version this stage wrote, saved or not: what an interrupted section continues. */
  lastText: string;
  /** Times the model service asked this stage to wait. */
  deferrals: number;
  /** Whether the last thing in this stage is a wait the model service asked for. */
  deferredLast: boolean;
}

/** A message the user sent to steer the research (`UserMessagePosted.steers`). */
export interface Instruction {
  id: string;
  content: string;
  /** The reply it steers: a redirect after a pause steers the reply it started. */
  steers: string;
}

/** What the log holds of the whole reply, across its jobs. */
export interface ReplyRecord {
  question: string;
  /** The user's instructions to this reply and to every reply it continues, oldest first. */
  instructions: Instruction[];
  answers: ClarificationAnswer[];
  /** The research plan: the reply's first. */
  plan: string[] | null;
  feedback: { option: FeedbackOption; text: string } | null;
  /** Everything the session learned about each address: snippets, summaries and the text of pages read. */
  notes: Map<string, { title: string; text: string[] }>;
}

const asEvent = (recorded: RecordedEvent) => ({ type: recorded.type, data: recorded.data }) as ConversationEvent;

const emptyTrace = (): StageTrace => ({
  written: 0,
  outputs: new Set(),
  plan: null,
  queries: null,
  headings: null,
  title: null,
  length: null,
  searches: [],
  followUps: new Map(),
  revisions: [],
  researched: false,
  announced: new Set(),
  pages: new Map(),
  sections: new Map(),
  said: new Set(),
  applied: new Set(),
  savedVersion: null,
  writing: false,
  writingText: '',
  lastText: '',
  deferrals: 0,
  deferredLast: false,
});

/**
 * The reply's events split by stage: a stage begins with the reply's start (job id = reply id) or a
 * `StageStarted`; a `ReplyDeferred` hands the same stage on to a new job id.
 */
function stagesOf(events: RecordedEvent[], replyId: string): { stages: ConversationEvent[][]; jobs: Map<string, number> } {
  const stages: ConversationEvent[][] = [];
  const jobs = new Map<string, number>();
  for (const recorded of events) {
    const event = asEvent(recorded);
    if (!('messageId' in event.data) || event.data.messageId !== replyId) continue;
    if (event.type === 'AgentReplyStarted' || event.type === 'StageStarted') {
      jobs.set(event.type === 'AgentReplyStarted' ? event.data.jobId : event.data.jobId, stages.length);
      stages.push([]);
      continue;
    }
    if (stages.length === 0) continue;
    // A wait and what ends it (the model service's, a plan's review) hand the same stage on to a new job.
    if (event.type === 'ReplyDeferred' || event.type === 'PlanReviewOpened' || event.type === 'PlanStarted') jobs.set(event.data.jobId, stages.length - 1);
    stages.at(-1)!.push(event);
  }
  return { stages, jobs };
}

function fold(stage: ConversationEvent[]): StageTrace {
  const trace = emptyTrace();
  for (const event of stage) {
    trace.deferredLast = false;
    switch (event.type) {
      case 'AgentOutputRecorded':
        trace.written++;
        trace.outputs.add(event.data.contentType);
        if (event.data.contentType === 'web_browsing_result') trace.announced.add(String(event.data.payload.url ?? ''));
        if (event.data.contentType === 'info') {
          const progress = (event.data.payload as { progress?: { code?: unknown; params?: { id?: unknown } } }).progress;
          if (typeof progress?.code === 'string') trace.said.add(progress.code);
          if ((progress?.code === 'research.instructionApplied' || progress?.code === 'research.instructionLate') && typeof progress.params?.id === 'string') trace.applied.add(progress.params.id);
          if (progress?.code === 'research.planRevised') for (const id of (progress.params as { ids?: unknown }).ids as string[]) trace.applied.add(id);
        }
        if (event.data.contentType === 'writing_rollback' && trace.writing) trace.writingText = trace.writingText.slice(0, Number(event.data.payload.length));
        break;
      case 'MessageChunksAppended':
        trace.written++;
        if (trace.writing && event.data.contentType === 'writing_content') trace.writingText += event.data.text;
        break;
      case 'PlanProposed':
        trace.plan = event.data.steps;
        trace.queries = event.data.queries ?? null;
        trace.headings = event.data.headings ?? null;
        trace.title = event.data.title ?? null;
        trace.length = event.data.length ?? null;
        break;
      case 'PlanEdited':
        trace.plan = event.data.steps;
        trace.queries = event.data.queries;
        trace.headings = event.data.headings;
        break;
      case 'PlanRevised':
        Object.assign(trace, revised(trace, event.data.from));
        trace.plan = event.data.steps;
        trace.queries = event.data.queries;
        trace.headings = event.data.headings;
        trace.revisions.push(event.data.from);
        break;
      case 'SearchResultsRecorded': {
        const step = event.data.step ?? trace.searches.length;
        if ((event.data.round ?? 0) === 0) trace.searches[step] = event.data.results;
        else trace.followUps.set(roundKey(step, event.data.round!), { queries: event.data.queries, results: event.data.results });
        break;
      }
      case 'PlanStepMarked':
        if (event.data.index === event.data.steps.length) trace.researched = true;
        break;
      case 'PageRead':
        trace.pages.set(event.data.url, { title: event.data.title, text: event.data.text, summary: event.data.summary });
        break;
      case 'SectionWritten':
        trace.sections.set(event.data.index, { heading: event.data.heading, text: event.data.text });
        break;
      case 'WritingStarted':
        trace.writing = true;
        trace.writingText = '';
        break;
      case 'WritingVersionSaved':
        trace.writing = false;
        trace.savedVersion = event.data.interrupted ? trace.savedVersion : event.data.version;
        trace.lastText = event.data.content;
        break;
      case 'WritingVersionDiscarded':
        trace.writing = false;
        break;
      case 'ReplyDeferred':
        trace.deferrals++;
        trace.deferredLast = true;
        break;
      default:
        break;
    }
  }
  if (trace.writing) trace.lastText = trace.writingText;
  return trace;
}

/** The stage job `jobId` runs: what it and the jobs before it in the same stage recorded. */
export function stageTrace(events: RecordedEvent[], replyId: string, jobId: string): StageTrace {
  const { stages, jobs } = stagesOf(events, replyId);
  const index = jobs.get(jobId);
  return index === undefined ? emptyTrace() : fold(stages[index]!);
}

/**
 * The research a resumed reply continues: the last stage of the reply it continues (and of the one
 * that one continued, and so on), with what was planned, searched, read and written there. A reply
 * cut short while revising continues nothing of its revision.
 */
export function continuedTrace(events: RecordedEvent[], continues: string | undefined): StageTrace | null {
  if (!continues) return null;
  const { stages } = stagesOf(events, continues);
  const last = stages.at(-1);
  if (!last) return null;
  const started = events.map(asEvent).find((event) => event.type === 'AgentReplyStarted' && event.data.messageId === continues);
  const stageStart = [...events].map(asEvent).filter((event) => event.type === 'StageStarted' && event.data.messageId === continues).at(-1);
  if (stageStart?.type === 'StageStarted' && stageStart.data.stage === 'revise') return null;
  const own = fold(last);
  const earlier = started?.type === 'AgentReplyStarted' ? continuedTrace(events, started.data.continues) : null;
  return earlier ? merge(earlier, own) : own;
}

/**
 * What a redirected research keeps of the one it redirects: the pages it read (not read again, not
 * shown again) and the instructions already applied; the plan, searches and sections are made anew
 * for the new direction.
 */
export function readingOnly(trace: StageTrace): StageTrace {
  return { ...emptyTrace(), pages: trace.pages, announced: trace.announced, applied: trace.applied };
}

/** Where a follow-up search round is kept: its plan step and its round within the step. */
export const roundKey = (step: number, round: number) => `${step}:${round}`;

/** The search rounds of a plan revised with `from` (each step's place before, null for a new one), by the steps' new places. */
export function revised(trace: Pick<StageTrace, 'searches' | 'followUps'>, from: ReadonlyArray<number | null>): Pick<StageTrace, 'searches' | 'followUps'> {
  const followUps = new Map<string, { queries: string[]; results: WebResult[] }>();
  for (const [key, round] of trace.followUps) {
    const [step, number] = key.split(':').map(Number);
    const to = from.indexOf(step!);
    if (to !== -1) followUps.set(roundKey(to, number!), round);
  }
  return { searches: from.map((index) => (index === null ? undefined : trace.searches[index])), followUps };
}

/** What an earlier reply did, with what a later one added on top (the later one's plan revisions applied to the earlier rounds). */
export function merge(earlierTrace: StageTrace, later: StageTrace): StageTrace {
  const earlier = later.revisions.reduce((trace, from) => ({ ...trace, ...revised(trace, from) }), earlierTrace);
  const searches = Array.from({ length: Math.max(earlier.searches.length, later.searches.length) }, (_, step) => later.searches[step] ?? earlier.searches[step]);
  const sections = new Map(earlier.sections);
  for (const [index, section] of later.sections) sections.set(index, section);
  return {
    ...later,
    plan: later.plan ?? earlier.plan,
    queries: later.queries ?? earlier.queries,
    headings: later.plan ? later.headings : earlier.headings,
    title: later.plan ? later.title : earlier.title,
    length: later.plan ? later.length : earlier.length,
    searches,
    followUps: new Map([...earlier.followUps, ...later.followUps]),
    revisions: [...earlier.revisions, ...later.revisions],
    researched: earlier.researched || later.researched,
    announced: new Set([...earlier.announced, ...later.announced]),
    applied: new Set([...earlier.applied, ...later.applied]),
    pages: new Map([...earlier.pages, ...later.pages]),
    sections,
    lastText: later.lastText || earlier.lastText,
  };
}

/**
 * The tokens the reply's current run used: its last stage when that is a revision (each revision is
 * a run of its own), else the whole reply with every reply it continues.
 */
export function runTokens(events: RecordedEvent[], replyId: string): number {
  const { stages } = stagesOf(events, replyId);
  const own = (stage: readonly ConversationEvent[]) => stage.reduce((sum, event) => sum + (event.type === 'TokensConsumed' ? event.data.prompt + event.data.completion : 0), 0);
  const stageStarts = events.map(asEvent).filter((event) => event.type === 'StageStarted' && event.data.messageId === replyId);
  const last = stageStarts.at(-1);
  if (last?.type === 'StageStarted' && last.data.stage === 'revise') return own(stages.at(-1) ?? []);
  return chainOf(events, replyId).reduce((sum, id) => sum + stagesOf(events, id).stages.reduce((total, stage) => total + own(stage), 0), 0);
}

/** The replies `replyId` continues, itself first: what a resumed or redirected research goes on from. */
function chainOf(events: RecordedEvent[], replyId: string): string[] {
  const chain = [replyId];
  for (;;) {
    const started = events.map(asEvent).find((event) => event.type === 'AgentReplyStarted' && event.data.messageId === chain.at(-1));
    const continues = started?.type === 'AgentReplyStarted' ? started.data.continues : undefined;
    if (!continues || chain.includes(continues)) return chain;
    chain.push(continues);
  }
}

/** The user's instructions to the reply and to the replies it continues, oldest first. */
export function instructionsFor(events: RecordedEvent[], replyId: string): Instruction[] {
  const chain = new Set(chainOf(events, replyId));
  return events.map(asEvent).flatMap((event) => (event.type === 'UserMessagePosted' && event.data.steers !== undefined && chain.has(event.data.steers) ? [{ id: event.data.messageId, content: event.data.content, steers: event.data.steers }] : []));
}

/** The user's instructions to the reply sent since its last stage began: what a revision at work is told. */
export function stageInstructions(events: RecordedEvent[], replyId: string): Instruction[] {
  const begun = events.findLastIndex((recorded) => recorded.type === 'StageStarted' && (recorded.data as { messageId?: string }).messageId === replyId);
  return events
    .slice(begun + 1)
    .map(asEvent)
    .flatMap((event) => (event.type === 'UserMessagePosted' && event.data.steers === replyId ? [{ id: event.data.messageId, content: event.data.content, steers: replyId }] : []));
}

export function replyRecord(events: RecordedEvent[], replyId: string, replyTo: string): ReplyRecord {
  const record: ReplyRecord = { question: '', instructions: instructionsFor(events, replyId), answers: [], plan: null, feedback: null, notes: notesOf(events, replyId) };
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
      default:
        break;
    }
  }
  return record;
}

/**
 * What the session learned about each address: the text of every page read, whichever reply read
 * it, and the snippets and summaries of `replyId`'s searches (of every reply's when none is given).
 */
export function notesOf(events: RecordedEvent[], replyId?: string): ReplyRecord['notes'] {
  const notes: ReplyRecord['notes'] = new Map();
  const note = (url: string, title: string, text: string) => {
    if (!url || !text.trim()) return;
    const known = notes.get(url) ?? { title, text: [] };
    if (!known.text.includes(text)) known.text.push(text);
    notes.set(url, known);
  };
  for (const recorded of events) {
    const event = asEvent(recorded);
    // A page's text is the page's whichever reply read it: a revision works from it, not from a summary.
    if (event.type === 'PageRead') note(event.data.url, event.data.title, event.data.text);
    if (!('messageId' in event.data) || (replyId !== undefined && event.data.messageId !== replyId)) continue;
    if (event.type === 'SearchResultsRecorded') {
      for (const result of event.data.results) note(result.url, result.title, [result.snippet, result.useful_info_summary].filter(Boolean).join(' '));
    }
    if (event.type === 'AgentOutputRecorded' && event.data.contentType === 'web_browsing_result' && event.data.payload.ok === true) {
      note(String(event.data.payload.url ?? ''), String(event.data.payload.title ?? ''), String(event.data.payload.summary ?? ''));
    }
  }
  return notes;
}

/** The citation checks a version was saved with (by the research or a targeted edit); none for a hand-edited or older one. */
export function versionChecks(events: RecordedEvent[], version: number): CitationCheck[] {
  for (const recorded of events) {
    const event = asEvent(recorded);
    if ((event.type === 'WritingVersionSaved' || event.type === 'TargetedEditApplied') && event.data.version === version) return event.data.citations ?? [];
  }
  return [];
}

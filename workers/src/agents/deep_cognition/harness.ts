/**
 * For the research agents' tests: a real SQLite event store and command handler, jobs run by
 * calling the agent directly (no queue, so a test decides when a job runs, runs again or dies),
 * an in-memory corpus that answers searches and serves pages.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import { SqliteEventStore } from '@scriptorium/infra/eventstore/sqlite';
import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import { createLogger } from '@scriptorium/infra/log';
import type { JobContext } from '@scriptorium/infra/queue/port';
import type { BudgetGuard } from '@scriptorium/domain/budget/guard';
import { conversationStream, type AgentName, type Conversation, type ConversationEvent } from '@scriptorium/domain/conversation/conversation';
import { conversationDecider, type ConversationCommand } from '@scriptorium/domain/conversation/decide';
import type { AgentJobData } from '@scriptorium/domain/conversation/jobs';
import type { ClarificationAnswer } from '@scriptorium/domain/protocol/research';
import { OfflineProvider } from '@scriptorium/infra/model/offline';
import { ModelError, type ModelDelta, type ModelProvider, type ModelRequest } from '@scriptorium/infra/model/port';
import { DEFAULT_PROFILE } from '@scriptorium/infra/model/profile';
import type { AgentDeps } from '../deps.ts';
import type { MaterialPort } from '../material.ts';
import type { FetchedPage, PageFetcherPort } from '@scriptorium/infra/fetch/port';
import type { HitSource, SearchHit, SearchPort } from '@scriptorium/infra/search/port';
import { ANALYSE_PROMPT, CITATIONS_PROMPT, CLARIFY_PROMPT, JUDGE_PROMPT, PLAN_PROMPT, QUERIES_PROMPT, REFLECT_PROMPT, REPLAN_PROMPT } from './prompts.ts';

const RESEARCH_PROMPTS = new Set([ANALYSE_PROMPT, CLARIFY_PROMPT, JUDGE_PROMPT, PLAN_PROMPT, QUERIES_PROMPT, REFLECT_PROMPT, REPLAN_PROMPT]);
import { coverage, termsOf } from './text.ts';

export interface CorpusPage {
  title: string;
  url: string;
  text: string;
  source?: HitSource;
}

/** Searches by term overlap and serves the same pages, like a tiny web. */
export class Corpus implements SearchPort, PageFetcherPort {
  readonly queries: string[] = [];
  readonly fetched: string[] = [];

  constructor(private readonly pages: CorpusPage[]) {}

  /** Material that turns up later (a new upload, a page published since). */
  add(page: CorpusPage): void {
    this.pages.push(page);
  }

  async search(query: string, options: { limit: number }): Promise<SearchHit[]> {
    this.queries.push(query);
    const terms = termsOf(query);
    return this.pages
      .map((page) => ({ page, score: coverage(terms, `${page.title} ${page.text}`) }))
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, options.limit)
      .map(({ page }) => ({ title: page.title, url: page.url, snippet: page.text.slice(0, 160), source: page.source ?? 'web' }));
  }

  async fetch(url: string): Promise<FetchedPage> {
    this.fetched.push(url);
    const page = this.pages.find((candidate) => candidate.url === url);
    if (!page) throw new Error(`404 ${url}`);
    return { url, title: page.title, text: page.text, excerpt: page.text.slice(0, 200) };
  }
}

/**
 * A note exactly as the notes editor saved it before it understood typed Markdown: the user's `**`,
 * `- `, `# `, `1. ` and link were escaped as literal text (serializeCanvas of those paragraphs).
 */
export const EDITOR_NOTE =
  '# 钠离子电池走访\n\n\\*\\*重点\\*\\*：钠离子电池在零下二十度仍能正常放电，低温性能好。\n\n\\- 钠离子电池的成本比磷酸铁锂低两到三成，储能电站更看重成本。\n\n' +
  '\\# 储能电站的招标开始要求钠离子电池的低温性能指标。\n\n1\\. 钠离子电池有望在储能电站率先规模应用，见\\[报告\\](https://example.com/r)。';

/** What a reader must never see in text drawn from Markdown: escapes, bold markers, a list marker left before an item. */
export const MARKDOWN_DEBRIS = /\\[*#[\]_`\-.]|\*\*|^\s*(?:[-*+]|\d+\.)\s+(?:[-*+]|\d+\.)\s/m;

export const SOLID_STATE: CorpusPage[] = [
  {
    title: '固态电池技术原理概述',
    url: 'https://example.test/solid-state-basics',
    text: '固态电池使用固态电解质取代液态电解液。固态电池的能量密度更高，安全性也更好。硫化物、氧化物和聚合物是固态电池电解质的三条主要技术路线。',
  },
  {
    title: '固态电池产业化进展',
    url: 'https://example.test/solid-state-industry',
    text: '多家企业计划在2027年前后实现固态电池的小批量量产。固态电池产业化的主要挑战是界面阻抗和制造成本。半固态电池已经率先装车。',
  },
  {
    title: '固态电池面临的挑战',
    url: 'https://example.test/solid-state-challenges',
    text: '固态电池的界面稳定性仍是关键问题。固态电解质的离子电导率偏低限制了固态电池的快充性能。固态电池的成本目前明显高于液态锂电池。',
  },
];

export type Reply = Pick<AgentJobData, 'sessionId' | 'userId' | 'agent' | 'replyId' | 'replyTo'>;

export interface Harness {
  deps: AgentDeps;
  corpus: Corpus;
  userId: string;
  createSession(options?: { searchEnabled?: boolean }): Promise<string>;
  /** Posts a message; the reply's first job has the reply's id. */
  post(sessionId: string, content: string, agent?: AgentName): Promise<Reply>;
  /** Answers the pending questions with their first option; returns the research job's id. */
  answerAll(sessionId: string): Promise<string>;
  feedback(sessionId: string, option: 'continue' | 'satisfied' | 'manual_feedback', text?: string): Promise<string>;
  /** Resumes the reply a pause or failure cut short, as the api does; the new reply's first job has its id. */
  resume(sessionId: string, earlier: Reply): Promise<Reply & { continues: string }>;
  /** Records a targeted edit request, as the api does before its job is queued. */
  requestEdit(sessionId: string, requestId: string, instruction: string, snippet: string): Promise<void>;
  run(handler: (deps: AgentDeps, job: JobContext<unknown>) => Promise<void>, name: string, jobId: string, data: unknown, signal?: AbortSignal): Promise<void>;
  log(sessionId: string): Promise<RecordedEvent[]>;
  state(sessionId: string): Promise<{ state: Conversation; revision: number }>;
  close(): Promise<void>;
}

export async function harness(options: { model?: ModelProvider; remainingTokens?: () => number; web?: boolean; material?: MaterialPort; userId?: string } = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-agents-'));
  const events = new SqliteEventStore(join(dir, 'events.sqlite3'));
  const commands = new CommandHandler(events);
  const corpus = new Corpus([...SOLID_STATE]);
  const remaining = options.remainingTokens ?? (() => 1_000_000);
  const deps: AgentDeps = {
    events,
    commands,
    model: options.model ?? new OfflineProvider(),
    // The agents read the remaining budget and hold some of it per reply; the budget's own rules are tested with it.
    budget: { remainingTokens: async () => remaining(), hold: async () => (remaining() > 0 ? 'held' : 'exhausted') } as unknown as BudgetGuard,
    log: createLogger('silent', 'test'),
    clock: () => new Date(),
    localSearch: corpus,
    fetcher: corpus,
    ...(options.web !== false && { webSearch: corpus }),
    ...(options.material && { material: options.material }),
  };
  const userId = options.userId ?? 'user-1';
  const handle = (sessionId: string, command: Omit<ConversationCommand, 'metadata'>) =>
    commands.handle(conversationDecider, conversationStream(sessionId), { ...command, metadata: { now: new Date(), userId } } as ConversationCommand);
  return {
    deps,
    corpus,
    userId,
    async createSession(session = {}) {
      const sessionId = crypto.randomUUID();
      await handle(sessionId, { type: 'CreateSession', data: { sessionId, ownerId: userId, clientId: 'test', ...session } });
      return sessionId;
    },
    async post(sessionId, content, agent = 'deep_cognition') {
      const reply: Reply = { sessionId, userId, agent, replyId: crypto.randomUUID(), replyTo: crypto.randomUUID() };
      await handle(sessionId, { type: 'PostUserMessage', data: { actorId: userId, messageId: reply.replyTo, replyId: reply.replyId, content, agent } });
      return reply;
    },
    async answerAll(sessionId) {
      const { state } = await commands.load(conversationDecider, conversationStream(sessionId));
      if (state.status === 'none') throw new Error('no session');
      const answers: ClarificationAnswer[] = state.pendingQuestions.map((question) => ({
        id: question.id,
        question: question.question_content,
        selectedOptions: question.question_options.slice(1, 2),
        textInput: '',
        question_type: question.question_type,
      }));
      const jobId = crypto.randomUUID();
      await handle(sessionId, { type: 'AnswerClarification', data: { actorId: userId, answers, jobId } });
      return jobId;
    },
    async feedback(sessionId, option, text) {
      const jobId = crypto.randomUUID();
      await handle(sessionId, { type: 'GiveFeedback', data: { actorId: userId, option, ...(text !== undefined && { text }), jobId } });
      return jobId;
    },
    async resume(sessionId, earlier) {
      const replyId = crypto.randomUUID();
      await handle(sessionId, { type: 'ResumeReply', data: { actorId: userId, replyId } });
      return { ...earlier, replyId, continues: earlier.replyId };
    },
    async requestEdit(sessionId, requestId, instruction, snippet) {
      await handle(sessionId, { type: 'RequestTargetedEdit', data: { actorId: userId, requestId, instruction, snippet } });
    },
    async run(handler, name, jobId, data, signal = new AbortController().signal) {
      await handler(deps, { id: jobId, name, data, attempt: 1, signal, progress: async () => {} });
    },
    log: (sessionId) => events.readStream(conversationStream(sessionId)),
    state: (sessionId) => commands.load(conversationDecider, conversationStream(sessionId)),
    async close() {
      await events.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const asEvents = (log: RecordedEvent[]) => log.map((recorded) => ({ type: recorded.type, data: recorded.data }) as ConversationEvent);

/** The content types of a reply's items and text, in log order, with runs of text collapsed. */
export function itemTypes(log: RecordedEvent[], replyId: string): string[] {
  const types: string[] = [];
  for (const event of asEvents(log)) {
    if (!('messageId' in event.data) || event.data.messageId !== replyId) continue;
    const type = event.type === 'AgentOutputRecorded' || event.type === 'MessageChunksAppended' ? event.data.contentType : event.type;
    if (types.at(-1) !== type || event.type !== 'MessageChunksAppended') types.push(type);
  }
  return types;
}

export const SECTION_PROSE = '固态电池用固态电解质取代了液态电解液，能量密度和安全性更高[1]。产业化的主要障碍是界面阻抗和制造成本[2]。';

/**
 * What a real provider does wrong, one per call, in order: a JSON answer cut, invalid, empty or
 * runaway; a section stream cut after a few pieces, empty, or stopped by its output cap; a 429 with
 * a `Retry-After` too long to wait in the call.
 */
export type JsonFault = 'ok' | 'cut' | 'invalid' | 'empty' | 'runaway' | 'wait';
export type StreamFault = 'ok' | 'cut' | 'empty' | 'capped' | 'wait';

const PARTIAL_USAGE = { promptTokens: 150, completionTokens: 7, model: 'scripted', estimated: true };
const waitError = () => new ModelError('rate_limited', 'the model service asked to wait', { status: 429, retryAfterMs: 120_000 });
const cutError = () => Object.assign(new ModelError('network', 'the stream was cut', { textEmitted: true }), { partialUsage: PARTIAL_USAGE });

/**
 * A model that answers the research agent's JSON prompts with fixed, valid JSON and streams
 * `SECTION_PROSE` for everything it writes. `stall` makes a stream stop after a number of pieces
 * and wait until it is aborted (a pause) or for ever (a dead worker).
 */
export class ScriptedModel implements ModelProvider {
  readonly name = 'scripted';
  readonly offline = false;
  readonly profile = DEFAULT_PROFILE;
  readonly requests: ModelRequest[] = [];
  private streamed = 0;
  private stall: { after: number; reached: () => void } | undefined;
  /** Faults still to make, consumed one per call of their kind (JSON: the research's own prompts). */
  readonly faults: { json: JsonFault[]; stream: StreamFault[] } = { json: [], stream: [] };

  constructor(private readonly answers: Partial<Record<'analyse' | 'clarify' | 'plan' | 'reflect' | 'replan', unknown>> = {}) {}

  /** Resolves once `after` pieces have been streamed (over all calls); that stream then stalls, later ones do not. */
  stallAfter(after: number): Promise<void> {
    return new Promise((resolve) => (this.stall = { after, reached: resolve }));
  }

  async complete(request: ModelRequest) {
    this.requests.push(request);
    // Faults go to the research's own JSON calls, in order; a session title is asked for too.
    const fault = RESEARCH_PROMPTS.has(request.messages[0]?.content ?? '') ? this.faults.json.shift() : undefined;
    if (fault === 'cut') throw cutError();
    if (fault === 'wait') throw waitError();
    if (fault === 'invalid' || fault === 'empty' || fault === 'runaway') {
      const text = fault === 'invalid' ? '{"steps": [{"description": "梳理' : fault === 'empty' ? '' : '固态电池'.repeat(30_000);
      return { text, usage: { promptTokens: 100, completionTokens: fault === 'runaway' ? (request.maxTokens ?? 1200) : 10, model: 'scripted', estimated: false } };
    }
    const system = request.messages[0]?.content ?? '';
    const reply =
      system === ANALYSE_PROMPT
        ? (this.answers.analyse ?? { analysis: '问题涉及固态电池，范围未限定。', status: '需要澄清', goal: '撰写固态电池研究报告', needs_clarification: true })
        : system === CLARIFY_PROMPT
          ? (this.answers.clarify ?? { questions: [{ question_content: '更关注哪个方面？', question_options: ['技术', '产业'], question_type: 'single', section_id: 'focus' }] })
          : system === PLAN_PROMPT
            ? (this.answers.plan ?? { steps: [{ description: '梳理技术路线', queries: ['固态电池 技术路线'] }, { description: '调研产业化进展', queries: ['固态电池 产业化'] }] })
            : system === JUDGE_PROMPT
              ? { useful: [1, 2, 3] }
              : system === REFLECT_PROMPT
                  ? (this.answers.reflect ?? { answered: true, reason: '', follow_up_queries: [] })
                  : system === REPLAN_PROMPT
                    ? (this.answers.replan ?? { changes_scope: false, steps: [] })
                    : system === CITATIONS_PROMPT
                    ? { citation_checks: [...(request.messages[1]?.content ?? '').matchAll(/^\[(\d+)\] /gm)].map((match) => ({ id: Number(match[1]), supported: true })) }
                    : { queries: ['固态电池 成本'] };
    const text = `好的：\n\`\`\`json\n${JSON.stringify(reply)}\n\`\`\``;
    return { text, usage: { promptTokens: 100, completionTokens: 20, model: 'scripted', estimated: false } };
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelDelta> {
    this.requests.push(request);
    const fault = this.faults.stream.shift();
    if (fault === 'wait') throw waitError();
    if (fault === 'empty') {
      yield { type: 'usage', promptTokens: 200, completionTokens: 0, model: 'scripted', estimated: false };
      return;
    }
    for (const [index, piece] of (SECTION_PROSE.match(/.{1,6}/gsu) ?? []).entries()) {
      if (fault === 'cut' && index === 3) throw cutError();
      if (this.stall && this.streamed === this.stall.after) {
        const { reached } = this.stall;
        this.stall = undefined;
        reached();
        await new Promise((_, reject) => {
          const aborted = () => reject(new ModelError('aborted', 'the request was aborted'));
          if (request.signal?.aborted) aborted();
          request.signal?.addEventListener('abort', aborted);
        });
      }
      this.streamed++;
      yield { type: 'text', text: piece };
    }
    yield { type: 'usage', promptTokens: 200, completionTokens: fault === 'capped' ? (request.maxTokens ?? 40) : 40, model: 'scripted', estimated: false };
  }
}

/**
 * `model` with a careful citation judge: a claim that matches `rejected` is not supported (and not
 * rewritten, so it stays marked); every other claim is. The rest of its answers are `model`'s.
 */
export function rejecting(model: ScriptedModel, rejected: RegExp): ScriptedModel {
  return Object.assign(Object.create(model) as ScriptedModel, {
    async complete(request: ModelRequest) {
      if (request.messages[0]?.content !== CITATIONS_PROMPT) return model.complete(request);
      model.requests.push(request);
      const claims = [...(request.messages[1]?.content ?? '').matchAll(/^\[(\d+)\] (.*)$/gm)];
      const citation_checks = claims.map((claim) => ({ id: Number(claim[1]), supported: !rejected.test(claim[2]!) }));
      return { text: JSON.stringify({ citation_checks }), usage: { promptTokens: 100, completionTokens: 20, model: 'scripted', estimated: false } };
    },
  });
}

/** Waits until the log satisfies `ready`, re-reading it as the agent appends. */
export async function until(read: () => Promise<RecordedEvent[]>, ready: (log: RecordedEvent[]) => boolean): Promise<RecordedEvent[]> {
  for (;;) {
    const log = await read();
    if (ready(log)) return log;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

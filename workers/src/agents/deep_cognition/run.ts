import type { z } from 'zod';
import pLimit from 'p-limit';
import { conversationStream } from '@scriptorium/domain/conversation/conversation';
import { conversationDecider, type ConversationCommand } from '@scriptorium/domain/conversation/decide';
import type { AgentJobData } from '@scriptorium/domain/conversation/jobs';
import type { JobContext } from '@scriptorium/infra/queue/port';
import { estimateTokens } from '@scriptorium/infra/model/tokens';
import { ModelError, partialUsageOf, type ChatMessage, type ModelRequest, type Usage } from '@scriptorium/infra/model/port';
import type { ModelRole } from '@scriptorium/infra/model/profile';
import type { Allowance } from '@scriptorium/domain/budget/allowance';
import type { InternalCall } from '@scriptorium/domain/protocol/progress';
import { DEFAULT_RESEARCH_LIMITS, modelFor, type AgentDeps, type ResearchLimits } from '../deps.ts';
import type { ReplyWriter } from '../replyWriter.ts';
import { CANVAS_ID } from '@scriptorium/domain/protocol/research';
import { CitationLinker, type Language } from './text.ts';

/** One job of a research reply, with what every step needs. */
export interface Run {
  deps: AgentDeps;
  job: JobContext<unknown>;
  data: AgentJobData;
  writer: ReplyWriter;
  allowance: Allowance;
  language: Language;
  /** The version being written, so a job that stops can save what it has. */
  draft: Draft | null;
  /** What went less well than asked (a rule in place of the model, a section empty or cut), for the report's note. */
  notes: string[];
  pools: RunPools;
  /** Sections asked for ahead of their turn, by their messages: `streamModel` replays one when its turn comes. */
  ahead?: Map<ChatMessage[], Ahead>;
  /** Lets the sections asked for ahead go: once the section in turn streams (or ends), so it is asked first. */
  releaseAhead?: () => void;
}

/**
 * What one job may have open at once: its model calls, its searches and page reads, and one burst
 * of chat items at a time, so the items of a round of reading stay together while steps run side by
 * side. `used` counts the job's tokens, for the allowance of follow-up searches.
 */
export interface RunPools {
  limits: ResearchLimits;
  model: Pool;
  fetch: Pool;
  chat: Pool;
  used: number;
}

export type Pool = <T>(task: () => Promise<T>) => Promise<T>;

/**
 * The job's pools for its owner: a call waits first for a slot of its own run, then for one of the
 * worker's (shared by every run it takes, fairly between users), so a run queues at most its own
 * bound at the worker.
 */
export function runPools(deps: Pick<AgentDeps, 'researchLimits' | 'researchSlots'>, owner: string): RunPools {
  const limits = deps.researchLimits ?? DEFAULT_RESEARCH_LIMITS;
  const model = pLimit(limits.modelConcurrency);
  const fetch = pLimit(limits.fetchConcurrency);
  const slots = deps.researchSlots;
  return {
    limits,
    model: slots ? (task) => model(() => slots.model.run(owner, task)) : model,
    fetch: slots ? (task) => fetch(() => slots.fetch.run(owner, task)) : fetch,
    chat: pLimit(1),
    used: 0,
  };
}

/** Usage of a call: against the budget, into the log, and into the job's own count. */
async function charge(run: Run, usage: Usage): Promise<void> {
  run.allowance.record(usage);
  run.pools.used += usage.promptTokens + usage.completionTokens;
  await run.writer.tokens(usage);
}

/** Tries of an internal (JSON) call, and of a section whose stream was cut, before giving up. */
export const JSON_TRIES = 3;
export const SECTION_TRIES = 3;

/**
 * The model service asked to wait longer than a call may wait: the job is given back to the queue
 * for later instead of failing.
 */
export const mustWait = (error: unknown): error is ModelError & { retryAfterMs: number } =>
  error instanceof ModelError && error.retryAfterMs !== undefined && (error.kind === 'rate_limited' || error.kind === 'server');

/** A failure another try of the same call may not meet: a cut stream, a timeout, a server error. */
export const worthRetrying = (error: unknown): error is ModelError => error instanceof ModelError && !mustWait(error) && ['network', 'timeout', 'server', 'bad_response', 'rate_limited'].includes(error.kind);

/** What a call cut midway used, as the provider reported it or as estimated from what streamed. */
async function chargeCut(run: Run, error: unknown): Promise<void> {
  const partial = partialUsageOf(error);
  if (partial) await charge(run, partial);
}

export class StoppedError extends Error {
  override readonly name = 'StoppedError';
  constructor() {
    super('the job was stopped');
  }
}

/** Between steps: a paused or shut-down job goes no further. */
export function checkpoint(run: Run): void {
  if (run.job.signal.aborted) throw new StoppedError();
}

type WithoutMetadata<C> = C extends unknown ? Omit<C, 'metadata'> : never;

/**
 * A command of this job. Its id is fixed by the job and the step, so a job that runs again appends
 * nothing twice; text still being batched goes to the log first, so the order is what happened.
 */
export async function command(run: Run, step: string, issued: WithoutMetadata<ConversationCommand>) {
  await run.writer.flush();
  return run.deps.commands.handle(
    conversationDecider,
    conversationStream(run.data.sessionId),
    { ...issued, metadata: { now: run.deps.clock(), userId: run.data.userId, correlationId: run.data.replyId } } as ConversationCommand,
    { commandId: `${run.data.replyId}:${run.job.id}:${step}` },
  );
}

/** Pulls the JSON object out of a model's answer, fenced or surrounded by prose as models do. */
export function extractJson(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1] ?? text;
  const start = fenced.indexOf('{');
  const end = fenced.lastIndexOf('}');
  if (start === -1 || end <= start) return undefined;
  try {
    return JSON.parse(fenced.slice(start, end + 1));
  } catch {
    return undefined;
  }
}

/**
 * Asks the model for JSON and validates it, up to `JSON_TRIES` times: a cut stream, an empty,
 * truncated, runaway or invalid answer is asked for again. Null when it still does not fit, and the
 * caller falls back to its rules — said in the chat, and noted for the report where it shapes it: a
 * model that answers badly slows the research down, it does not stop it, nor changes it unseen.
 */
export async function completeJson<T>(run: Run, role: ModelRole, call: InternalCall, schema: z.ZodType<T>, messages: ChatMessage[], maxTokens = 1200): Promise<T | null> {
  for (let attempt = 1; attempt <= JSON_TRIES; attempt++) {
    checkpoint(run);
    const model = modelFor(run.deps, role);
    const request = await run.allowance.ensure({ messages, temperature: 0.2, maxTokens }, model.profile);
    let text: string;
    try {
      const completion = await run.pools.model(() => model.complete({ ...request, signal: run.job.signal }));
      await charge(run, completion.usage);
      text = completion.text;
    } catch (error) {
      checkpoint(run);
      await chargeCut(run, error);
      if (!worthRetrying(error)) throw error;
      run.deps.log.warn({ err: error, replyId: run.data.replyId, call, attempt }, 'an internal model call failed');
      continue;
    }
    const parsed = schema.safeParse(extractJson(text));
    if (parsed.success) return parsed.data;
    run.deps.log.warn({ replyId: run.data.replyId, call, attempt, chars: text.length, issues: parsed.error.issues.slice(0, 3) }, 'the model answered JSON that does not fit');
  }
  await run.writer.progress({ code: 'research.rulesFallback', params: { call } });
  if (call === 'plan' || call === 'judge') run.notes.push(FALLBACK_NOTE[call][run.language]);
  return null;
}

const FALLBACK_NOTE = {
  plan: { zh: '研究计划由规则生成：模型多次未给出可用的计划。', en: 'The research plan was made by rules: the model gave no usable plan after retries.' },
  judge: { zh: '部分搜索结果的取舍由规则判断：模型多次未给出可用的判断。', en: 'Some search results were judged by rules: the model gave no usable judgement after retries.' },
} as const;

/** What a streamed answer used against what it was allowed: an answer that reached its cap may be cut. */
export interface Streamed {
  completionTokens: number;
  maxTokens: number;
}

/**
 * Streams the model's text to `onText`, checking the budget first and recording the usage. A
 * call cut midway is charged what it used before the error goes on to the caller.
 */
export async function streamModel(run: Run, role: ModelRole, request: Omit<ModelRequest, 'signal'>, onText: (text: string) => void): Promise<Streamed> {
  checkpoint(run);
  const ahead = run.ahead?.get(request.messages);
  if (ahead) {
    // Used once: a try after a cut asks the model again.
    run.ahead!.delete(request.messages);
    run.releaseAhead?.();
    return ahead.replay(onText);
  }
  const model = modelFor(run.deps, role);
  const capped = await run.allowance.ensure(request, model.profile);
  return run.pools.model(async () => {
    let completionTokens = 0;
    try {
      for await (const delta of model.stream({ ...capped, signal: run.job.signal })) {
        run.releaseAhead?.();
        if (delta.type === 'text') onText(delta.text);
        else {
          completionTokens = delta.completionTokens;
          await charge(run, delta);
        }
      }
    } catch (error) {
      await chargeCut(run, error);
      throw error;
    } finally {
      run.releaseAhead?.();
    }
    return { completionTokens, maxTokens: capped.maxTokens };
  });
}

/**
 * A streamed call started before its turn (a later section while an earlier one streams), through
 * the job's model pool: its text is kept and handed on in order when its turn comes, so sections
 * are written side by side and still appear one after another. Its usage is charged as it comes,
 * whether or not its turn ever comes; a failure is kept for its turn, where it is met as the
 * call's own.
 */
export class Ahead {
  private readonly texts: string[] = [];
  private readonly cancelled = new AbortController();
  private readonly started: Promise<void>;
  private finished = false;
  private failure: unknown;
  private completionTokens = 0;
  private maxTokens = 0;
  private wake: (() => void) | null = null;

  /** Starts once `released` settles. */
  constructor(run: Run, role: ModelRole, request: Omit<ModelRequest, 'signal'>, released: Promise<void>) {
    this.started = this.start(run, role, request, released);
  }

  /** Stops the call if its turn will not come (the job ends early), once what it used is charged. */
  cancel(): Promise<void> {
    this.cancelled.abort();
    this.notify();
    return this.started;
  }

  private async start(run: Run, role: ModelRole, request: Omit<ModelRequest, 'signal'>, released: Promise<void>): Promise<void> {
    try {
      await Promise.race([released, new Promise((resolve) => this.cancelled.signal.addEventListener('abort', resolve))]);
      if (this.cancelled.signal.aborted) throw new StoppedError();
      const model = modelFor(run.deps, role);
      const capped = await run.allowance.ensure(request, model.profile);
      this.maxTokens = capped.maxTokens;
      await run.pools.model(async () => {
        checkpoint(run);
        if (this.cancelled.signal.aborted) throw new StoppedError();
        try {
          for await (const delta of model.stream({ ...capped, signal: AbortSignal.any([run.job.signal, this.cancelled.signal]) })) {
            if (delta.type === 'text') this.texts.push(delta.text);
            else {
              this.completionTokens = delta.completionTokens;
              await charge(run, delta);
            }
            this.notify();
          }
        } catch (error) {
          await chargeCut(run, error);
          throw error;
        }
      });
    } catch (error) {
      this.failure = error;
    }
    this.finished = true;
    this.notify();
  }

  private notify(): void {
    this.wake?.();
    this.wake = null;
  }

  async replay(onText: (text: string) => void): Promise<Streamed> {
    let at = 0;
    for (;;) {
      while (at < this.texts.length) onText(this.texts[at++]!);
      if (this.finished) break;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    if (this.failure !== undefined) throw this.failure;
    return { completionTokens: this.completionTokens, maxTokens: this.maxTokens };
  }
}

/** Cancels the sections asked for ahead whose turn has not come, and waits until what they used is charged. */
export async function cancelAhead(run: Run): Promise<void> {
  const pending = [...(run.ahead?.values() ?? [])];
  run.ahead?.clear();
  run.releaseAhead?.();
  await Promise.all(pending.map((ahead) => ahead.cancel()));
}

/**
 * Work the offline engine does in place of a model call is counted the way the offline provider
 * counts its own (estimated, model `offline`), so budgets mean the same with or without a model.
 */
export async function offlineWork<T>(run: Run, input: string, produce: () => T & { text: string }): Promise<T & { text: string }> {
  checkpoint(run);
  await run.allowance.check();
  const result = produce();
  await charge(run, { promptTokens: estimateTokens(input), completionTokens: estimateTokens(result.text), model: 'offline', estimated: true });
  return result;
}

/**
 * The version being written: text streams to the canvas as writing_content and is kept here, so an
 * interrupted job can save exactly what the user saw. Cited text goes through the linker.
 */
export class Draft {
  content = '';
  private readonly linker: CitationLinker;

  constructor(
    private readonly run: Run,
    urlOf: (n: number) => string | undefined,
    /** What the log already holds of this version. */
    shown = '',
  ) {
    this.linker = new CitationLinker(urlOf);
    this.content = shown;
  }

  /** Text written by the agent itself (headings, the source list): no citations to link. */
  plain(text: string): void {
    this.emit(this.linker.end());
    this.emit(text);
  }

  cited(text: string): void {
    this.emit(this.linker.push(text));
  }

  /**
   * Brings the version to `text`: what it already shows and `text` share is kept, anything after
   * that is rolled back, and the rest of `text` is written. A version the log already holds (a job
   * that goes on after its worker died) starts from that text.
   */
  async restore(text: string): Promise<void> {
    let common = 0;
    while (common < this.content.length && common < text.length && this.content[common] === text[common]) common++;
    if (common < this.content.length) await this.rollback(common);
    this.emit(text.slice(common));
  }

  /** Takes the version back to its first `length` characters, in the canvas too. */
  async rollback(length: number): Promise<void> {
    this.linker.end();
    this.content = this.content.slice(0, length);
    await this.run.writer.output('writing_rollback', { artifact_id: CANVAS_ID, length });
  }

  endCited(): void {
    this.emit(this.linker.end());
  }

  private emit(text: string): void {
    if (!text) return;
    this.content += text;
    this.run.writer.text('writing_content', text);
  }
}

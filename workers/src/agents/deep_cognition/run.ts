import type { z } from 'zod';
import { conversationStream } from '@scriptorium/domain/conversation/conversation';
import { conversationDecider, type ConversationCommand } from '@scriptorium/domain/conversation/decide';
import type { AgentJobData } from '@scriptorium/domain/conversation/jobs';
import type { JobContext } from '@scriptorium/infra/queue/port';
import { estimateTokens } from '@scriptorium/infra/model/tokens';
import type { ChatMessage, ModelRequest } from '@scriptorium/infra/model/port';
import type { Allowance } from '@scriptorium/domain/budget/allowance';
import type { AgentDeps } from '../deps.ts';
import type { ReplyWriter } from '../replyWriter.ts';
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
 * Asks the model for JSON and validates it. Null when the answer does not fit, and the caller falls
 * back to its rules: a model that answers badly slows the research down, it does not stop it.
 */
export async function completeJson<T>(run: Run, schema: z.ZodType<T>, messages: ChatMessage[], maxTokens = 1200): Promise<T | null> {
  checkpoint(run);
  const request = await run.allowance.ensure({ messages, temperature: 0.2, maxTokens });
  const completion = await run.deps.model.complete({ ...request, signal: run.job.signal });
  run.allowance.record(completion.usage);
  await run.writer.tokens(completion.usage);
  const parsed = schema.safeParse(extractJson(completion.text));
  if (parsed.success) return parsed.data;
  run.deps.log.warn({ replyId: run.data.replyId, issues: parsed.error.issues.slice(0, 3) }, 'the model answered JSON that does not fit; using the rules instead');
  return null;
}

/** Streams the model's text to `onText`, checking the budget first and recording the usage. */
export async function streamModel(run: Run, request: Omit<ModelRequest, 'signal'>, onText: (text: string) => void): Promise<void> {
  checkpoint(run);
  const capped = await run.allowance.ensure(request);
  for await (const delta of run.deps.model.stream({ ...capped, signal: run.job.signal })) {
    if (delta.type === 'text') onText(delta.text);
    else {
      run.allowance.record(delta);
      await run.writer.tokens(delta);
    }
  }
}

/**
 * Work the offline engine does in place of a model call is counted the way the offline provider
 * counts its own (estimated, model `offline`), so budgets mean the same with or without a model.
 */
export async function offlineWork<T>(run: Run, input: string, produce: () => T & { text: string }): Promise<T & { text: string }> {
  checkpoint(run);
  await run.allowance.check();
  const result = produce();
  const usage = { promptTokens: estimateTokens(input), completionTokens: estimateTokens(result.text), model: 'offline', estimated: true };
  run.allowance.record(usage);
  await run.writer.tokens(usage);
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
  ) {
    this.linker = new CitationLinker(urlOf);
  }

  /** Text written by the agent itself (headings, the source list): no citations to link. */
  plain(text: string): void {
    this.emit(this.linker.end());
    this.emit(text);
  }

  cited(text: string): void {
    this.emit(this.linker.push(text));
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

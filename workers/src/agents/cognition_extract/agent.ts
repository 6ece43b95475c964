import { z } from 'zod';
import { cognitionStream, readableBy, type CognitionBody, type CognitionSource } from '@scriptorium/domain/cognition/cognition';
import { cognitionDecider } from '@scriptorium/domain/cognition/decide';
import { extractionStream, type Extraction } from '@scriptorium/domain/cognition/extraction';
import { extractionDecider, type CognitionJobData, type ExtractionCommand } from '@scriptorium/domain/cognition/extractionDecide';
import { currentContent, noteContentStream } from '@scriptorium/domain/notes/content';
import { noteContentDecider } from '@scriptorium/domain/notes/contentDecide';
import { notebookDecider } from '@scriptorium/domain/notes/decide';
import { notebookStream } from '@scriptorium/domain/notes/notes';
import { deterministicId } from '@scriptorium/infra/eventsourcing/ids';
import type { JobContext } from '@scriptorium/infra/queue/port';
import { FetchError } from '@scriptorium/infra/fetch/errors';
import { partialUsageOf, type Completion, type ContextDocument, type Usage } from '@scriptorium/infra/model/port';
import { estimateTokens } from '@scriptorium/infra/model/tokens';
import { Allowance, BudgetExhaustedError } from '@scriptorium/domain/budget/allowance';
import type { AgentDeps } from '../deps.ts';
import { extractJson } from '../deep_cognition/run.ts';
import { languageOf } from '../deep_cognition/text.ts';
import { failureText } from '@scriptorium/domain/conversation/failures';
import { anyErrorText, CatalogueError, coded, refusal, type CodedError } from '@scriptorium/domain/protocol/errors';
import { offlineCognition, TooLittleMaterial, type Material } from './offline.ts';

const jobData = z.object({ extractionId: z.string().min(1), userId: z.string().min(1) });

type Requested = Exclude<Extraction, { status: 'none' }>;

/** Material as the cognition will cite it: numbered, with where each piece came from. */
interface Gathered {
  material: Material[];
  sources: CognitionSource[];
  title: string;
}

const EXTRACT_PROMPT =
  '你是知识提炼助手。从给出的资料中提炼“认知”：资料反复说明的事实、规律、判断和可以行动的结论，而不是复述目录。' +
  '资料按 [1]、[2]… 编号，正文中每条认知后用这些编号引用依据。使用与资料相同的语言。只输出一个 JSON 对象，不要任何其他文字：' +
  '{"title": "不超过 30 字的标题", "summary": "一两句话的摘要", "insights": ["3 到 8 条核心认知，每条一两句话"], ' +
  '"tags": ["1 到 5 个标签"], "content": "Markdown 正文：逐条展开核心认知并用 [n] 引用依据"}';

const cognitionSchema = z.object({
  title: z.string().trim().min(1).max(120),
  summary: z.string().trim().min(1).max(500),
  insights: z.array(z.string().trim().min(1).max(400)).min(1).max(8),
  tags: z.array(z.string().trim().min(1).max(20)).max(8).default([]),
  content: z.string().trim().min(1).max(20_000),
});

async function gather(deps: AgentDeps, request: Requested, signal: AbortSignal): Promise<Gathered> {
  switch (request.kind) {
    case 'notes': {
      const { state: notebook } = await deps.commands.load(notebookDecider, notebookStream(request.userId));
      const material: Material[] = [];
      const sources: CognitionSource[] = [];
      for (const noteId of request.noteIds) {
        const note = notebook.status === 'open' ? notebook.notes[noteId] : undefined;
        if (!note) continue;
        const { state: saved } = await deps.commands.load(noteContentDecider, noteContentStream(noteId));
        const { content } = currentContent(saved, note.initialContent);
        if (!content.trim()) continue;
        const n = material.length + 1;
        material.push({ n, title: note.name, text: content });
        sources.push({ n, title: note.name, url: null, kind: 'note', refId: noteId });
      }
      const zh = languageOf(material.map((doc) => doc.text).join('\n').slice(0, 2000)) === 'zh';
      const title = material.length <= 1 ? (material[0]?.title ?? '') : zh ? `${material[0]!.title} 等 ${material.length} 篇笔记的认知` : `Insights from ${material[0]!.title} and ${material.length - 1} more`;
      return { material, sources, title };
    }
    case 'url': {
      if (!deps.fetcher || !request.url) throw new CatalogueError(refusal('extraction.web_unavailable'));
      const page = await deps.fetcher.fetch(request.url, { signal });
      return { material: [{ n: 1, title: page.title || page.url, text: page.text }], sources: [{ n: 1, title: page.title || page.url, url: page.url, kind: 'url', refId: null }], title: page.title || page.url };
    }
    case 'synthesis': {
      const material: Material[] = [];
      const sources: CognitionSource[] = [];
      for (const cognitionId of request.cognitionIds) {
        const { state } = await deps.commands.load(cognitionDecider, cognitionStream(cognitionId));
        if (state.status !== 'active' || !readableBy(state, request.userId)) continue;
        const n = material.length + 1;
        material.push({ n, title: state.body.title, text: [state.body.summary, ...state.body.insights].join('\n') });
        sources.push({ n, title: state.body.title, url: null, kind: 'cognition', refId: cognitionId });
      }
      const zh = languageOf(material.map((doc) => doc.text).join('\n').slice(0, 2000)) === 'zh';
      return { material, sources, title: zh ? `综合认知：${material.map((doc) => doc.title).slice(0, 3).join('、')}` : `Synthesis: ${material.map((doc) => doc.title).slice(0, 3).join(', ')}` };
    }
    default: {
      const never: never = request.kind;
      throw new Error(`unknown extraction kind ${String(never)}`);
    }
  }
}

/**
 * Draws a cognition from the requested notes, page or cognitions: through the model when one is
 * configured (budget checked and charged like every other call), else the offline extractive
 * engine. The cognition's id comes from the extraction's, so a retried job creates it once.
 */
export async function runCognitionExtraction(deps: AgentDeps, job: JobContext<unknown>): Promise<void> {
  const data = jobData.parse(job.data) as CognitionJobData;
  const stream = extractionStream(data.extractionId);
  const run = (command: Omit<ExtractionCommand, 'metadata'>) =>
    deps.commands.handle(extractionDecider, stream, { ...command, metadata: { now: deps.clock(), userId: data.userId, correlationId: data.extractionId } } as ExtractionCommand);
  const { state } = await deps.commands.load(extractionDecider, stream);
  if (state.status !== 'pending' && state.status !== 'running') return;
  await run({ type: 'StartExtraction', data: { userId: data.userId } });

  const cognitionId = deterministicId('cognition', data.extractionId);
  try {
    const gathered = await gather(deps, state, job.signal);
    if (gathered.material.length === 0) throw new CatalogueError(refusal('extraction.nothing_to_read'));
    const body = deps.model.offline ? await offlineWork(deps, data, gathered, run) : await modelCognition(deps, data, gathered, job.signal, run);
    await deps.commands.handle(
      cognitionDecider,
      cognitionStream(cognitionId),
      {
        type: 'CreateCognition',
        data: { ...body, cognitionId, ownerId: data.userId, ownerName: state.ownerName, extractionId: data.extractionId, sourceKind: state.kind, sources: gathered.sources },
        metadata: { now: deps.clock(), userId: data.userId, correlationId: data.extractionId },
      },
    );
    await run({ type: 'FinishExtraction', data: { userId: data.userId, cognitionId, error: null } });
  } catch (error) {
    if (job.signal.aborted) throw error;
    deps.log.warn({ err: error, extractionId: data.extractionId }, 'cognition extraction failed');
    await run({ type: 'FinishExtraction', data: { userId: data.userId, cognitionId: null, ...failureOf(error) } });
  }
}

/** What a failed extraction records: its Chinese text, and the catalogue's code and params when it has them. */
function failureOf(error: unknown): { error: string; refusal?: CodedError } {
  if (error instanceof BudgetExhaustedError) return { error: error.detail, refusal: coded(error.code) };
  if (error instanceof CatalogueError) return { error: error.message, refusal: error.refusal };
  if (error instanceof FetchError) return { error: anyErrorText(error.code, error.params), refusal: coded(error.code, error.params) };
  // Worded in the material's own language already.
  if (error instanceof TooLittleMaterial) return { error: error.message };
  return { error: failureText(error) };
}

/** Counted the way the offline provider counts its own work, so budgets mean the same with or without a model. */
async function offlineWork(deps: AgentDeps, data: CognitionJobData, gathered: Gathered, run: (command: Omit<ExtractionCommand, 'metadata'>) => Promise<unknown>): Promise<CognitionBody> {
  await new Allowance(deps, data.userId, { sessionId: null, messageId: data.extractionId }).check();
  const body = offlineCognition(gathered.material, gathered.title);
  const prompt = gathered.material.reduce((sum, doc) => sum + estimateTokens(doc.text), 0);
  await run({ type: 'RecordExtractionUsage', data: { userId: data.userId, prompt, completion: estimateTokens(body.content), model: 'offline' } });
  return body;
}

async function modelCognition(
  deps: AgentDeps,
  data: CognitionJobData,
  gathered: Gathered,
  signal: AbortSignal,
  run: (command: Omit<ExtractionCommand, 'metadata'>) => Promise<unknown>,
): Promise<CognitionBody> {
  const context: ContextDocument[] = gathered.material.map((doc) => ({ title: doc.title, text: doc.text.slice(0, 12_000) }));
  const zh = languageOf(context.map((doc) => doc.text).join('\n').slice(0, 2000)) === 'zh';
  const request = await new Allowance(deps, data.userId, { sessionId: null, messageId: data.extractionId }).ensure({
    messages: [
      { role: 'system', content: EXTRACT_PROMPT },
      { role: 'user', content: zh ? `从这 ${context.length} 份资料中提炼认知。` : `Draw the insights from these ${context.length} source(s).` },
    ],
    context,
    temperature: 0.2,
    maxTokens: 2000,
  }, deps.model.profile);
  const record = (usage: Usage) => run({ type: 'RecordExtractionUsage', data: { userId: data.userId, prompt: usage.promptTokens, completion: usage.completionTokens, model: usage.model } });
  let completion: Completion;
  try {
    completion = await deps.model.complete({ ...request, signal });
  } catch (error) {
    // Cut midway, the call still cost what the model wrote.
    const spent = partialUsageOf(error);
    if (spent) await record(spent);
    throw error;
  }
  await record(completion.usage);
  const parsed = cognitionSchema.safeParse(extractJson(completion.text));
  if (!parsed.success) {
    deps.log.warn({ extractionId: data.extractionId, issues: parsed.error.issues.slice(0, 3) }, 'the model answered JSON that does not fit; extracting offline instead');
    return offlineCognition(gathered.material, gathered.title);
  }
  return { ...parsed.data, tags: [...new Set(parsed.data.tags)] };
}

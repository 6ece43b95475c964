/**
 * Researching the plan's steps side by side, each step in rounds: its planned search, then, while a
 * reflection finds the step's question not yet answered (a gap, or sources that disagree), a
 * follow-up search with its reason shown in the chat. Rounds per step and the run's tokens bound it.
 */
import pLimit from 'p-limit';
import type { OpenSession } from '@scriptorium/domain/conversation/conversation';
import type { WebResult } from '@scriptorium/domain/protocol/research';
import { ChunkIndex, worthShowing } from './chunks.ts';
import type { PlannedStep } from './heuristics.ts';
import { REFLECT_PROMPT, reflectSchema } from './prompts.ts';
import { checkpoint, command, completeJson, type Run } from './run.ts';
import { chooseSearch, PageReader, searchRound, type Learnt, type Searcher } from './steps.ts';
import { roundKey, type StageTrace } from './trace.ts';
import { Replanned, type Revision, type Steering } from './replan.ts';
import { clip } from './text.ts';

/** Chunks a reflection is shown over all the step's sources, one of a source at most. */
const NOTE_CHUNKS = 3;

export interface FollowUp {
  reason: string;
  queries: string[];
}

/**
 * What each plan step learnt, in plan order. Steps run at once, bounded by the job's pools; the
 * plan shown stays true: the lowest unfinished step is marked in progress, those before it done.
 * `known`: what finished steps learnt, by description, which each step adds to as it finishes: a
 * step finished under an earlier version of the plan is not researched again. With `steering`, an instruction that changes the scope stops the steps at
 * their next checkpoint, and the revision is returned instead.
 */
export async function researchSteps(
  run: Run,
  session: OpenSession,
  question: string,
  planned: readonly PlannedStep[],
  trace: StageTrace,
  steering: Steering | null = null,
  known: Map<string, Learnt[]> = new Map(),
): Promise<Learnt[][] | Revision> {
  const steps = planned.map((step) => step.description);
  // Commands of a revised plan are keyed apart from those of the plan before it in the same job.
  const prefix = trace.revisions.length > 0 ? `r${trace.revisions.length}:` : '';
  const reader = new PageReader(run, trace.pages, trace.announced);
  let searcher: Promise<Searcher | null> | undefined;
  // Which search it uses is said when it first searches: a job that goes on after the searches searches nothing.
  const search = () => (searcher ??= chooseSearch(run, session, trace.said));
  // A query any step searched is not searched again as a follow-up: steps that meet the same gap ask once.
  const asked = new Set(planned.flatMap((step) => step.queries));
  const marking = pLimit(1);
  const finished = planned.map((step) => known.has(step.description));
  let current = finished.indexOf(false) === -1 ? steps.length : finished.indexOf(false);
  const mark = (index: number) => command(run, `${prefix}${index === steps.length ? 'step:done' : `step:${index}`}`, { type: 'MarkPlanStep', data: { messageId: run.data.replyId, steps, index } });
  await mark(current);
  const halt = steering && (() => steering.check(planned, finished));
  const settled = await Promise.allSettled(
    planned.map(async (step, index) => {
      const done = known.get(step.description);
      if (done) return done;
      const learnt = await researchStep(run, { question, step, index, trace, reader, search, asked, prefix, halt });
      finished[index] = true;
      known.set(step.description, learnt);
      await marking(async () => {
        while (current < steps.length && finished[current]) await mark(++current);
      });
      return learnt;
    }),
  );
  const failure = settled.find((outcome) => outcome.status === 'rejected' && !(outcome.reason instanceof Replanned));
  if (failure?.status === 'rejected') throw failure.reason;
  if (steering?.revision) return steering.revision;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<Learnt[]>).value);
}

interface StepContext {
  question: string;
  step: PlannedStep;
  index: number;
  trace: StageTrace;
  reader: PageReader;
  search: () => Promise<Searcher | null>;
  asked: Set<string>;
  prefix: string;
  /** The step's checkpoint for instructions: throws `Replanned` once the plan is being revised. */
  halt: (() => Promise<void>) | null;
}

async function researchStep(run: Run, { question, step, index, trace, reader, search, asked, prefix, halt }: StepContext): Promise<Learnt[]> {
  const about = `${question} ${step.description}`;
  if (!trace.searches[index]) await halt?.();
  const results = trace.searches[index] ?? (await searchRound(run, await search(), step.queries, about, `${prefix}search:${index}`, { step: index, round: 0 }, [], reader));
  const learnt = await reader.round(results, about);
  const judged = [...results];
  for (let round = 1; round < run.pools.limits.maxRounds; round++) {
    checkpoint(run);
    let recorded: WebResult[] | undefined = trace.followUps.get(roundKey(index, round))?.results;
    if (!recorded) {
      if (trace.researched || run.pools.used >= run.pools.limits.followUpTokens) break;
      await halt?.();
      const followUp = await reflect(run, question, step, learnt, asked);
      if (!followUp) break;
      await run.writer.progress({ code: 'research.followUp', params: { section: step.heading, reason: followUp.reason, queries: followUp.queries } });
      recorded = await searchRound(run, await search(), followUp.queries, about, `${prefix}search:${index}:${round}`, { step: index, round, reason: followUp.reason }, judged, reader);
    }
    judged.push(...recorded);
    for (const entry of await reader.round(recorded, about)) {
      if (!learnt.some((known) => known.url === entry.url && (known.read || !entry.read))) learnt.push(entry);
    }
  }
  return learnt;
}

/**
 * Whether the step's question is answered by what it learnt, as the model judges (the think step of
 * LangChain's Open Deep Research): null when it is, else why not and what to search. Offline, the
 * rules see a gap only when the step learnt nothing at all. `asked` holds the run's searches so far and
 * takes the follow-up's.
 */
export async function reflect(run: Run, question: string, step: PlannedStep, learnt: readonly Learnt[], asked: Set<string>): Promise<FollowUp | null> {
  const zh = run.language === 'zh';
  if (run.deps.model.offline) {
    const query = step.description;
    if (learnt.length > 0 || asked.has(query)) return null;
    asked.add(query);
    return { reason: zh ? '这一步还没有找到资料' : 'nothing was found for this step yet', queries: [query] };
  }
  const reflected = await completeJson(run, 'judging', 'reflect', reflectSchema, [
    { role: 'system', content: REFLECT_PROMPT },
    { role: 'user', content: `研究问题：${question}\n当前步骤：${step.description}\n\n已读资料：\n${notesOf(learnt, `${question} ${step.description}`)}` },
  ]);
  if (!reflected || reflected.answered) return null;
  const queries = reflected.follow_up_queries.filter((query) => !asked.has(query));
  if (queries.length === 0) return null;
  // Taken at once, before any other step's reflection goes on: two steps never follow up with the same search.
  for (const query of queries) asked.add(query);
  return { reason: clip(reflected.reason.trim() || (zh ? '资料还不足以回答这一步' : 'the sources do not answer this step yet'), 160), queries };
}

/**
 * A step's notes as a reflection reads them: a source's chunk on the step, or its summary when no
 * chunk of it is among the best (the summary is drawn from the same page, so both would say it
 * twice), with no sentence repeated.
 */
export function notesOf(learnt: readonly Learnt[], about: string): string {
  if (learnt.length === 0) return '（无）';
  const best = new ChunkIndex(learnt.map((entry, position) => ({ n: position, text: entry.text }))).best(about, NOTE_CHUNKS, 1);
  const chunks = worthShowing([...best].sort((a, b) => a.n - b.n));
  return learnt
    .map((entry, position) => {
      const excerpt = chunks.find((chunk) => chunk.n === position)?.text ?? entry.summary;
      return [`[${position + 1}] ${entry.title}${entry.read ? '' : '（仅搜索摘要）'}`, excerpt].filter(Boolean).join('\n');
    })
    .join('\n\n');
}

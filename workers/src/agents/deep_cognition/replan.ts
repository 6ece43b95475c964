/**
 * Instructions that arrive while the plan's steps are researched. At each step's checkpoint (before
 * each of its search rounds) the log is read for instructions not yet judged; one model call, the
 * re-plan, says whether they change the research's scope and, if so, what the steps not yet done
 * become. An instruction that does not change the scope is left to the sections still to write.
 */
import { conversationStream } from '@scriptorium/domain/conversation/conversation';
import type { ConversationEvent } from '@scriptorium/domain/conversation/conversation';
import type { PlannedStep } from './heuristics.ts';
import { sectionHeading } from './outline.ts';
import { REPLAN_PROMPT, replanSchema } from './prompts.ts';
import { command, completeJson, type Run } from './run.ts';
import { revised, type Instruction, type StageTrace } from './trace.ts';
import { clip } from './text.ts';

/** A re-plan answers with a short list of steps, never a report. */
const REPLAN_TOKENS = 600;

/** The plan the instructions asked for: the finished steps first (as they were), then the re-planned ones. */
export interface Revision {
  steps: PlannedStep[];
  /** Each step's place in the plan before, null for a new one. */
  from: Array<number | null>;
  instructions: Instruction[];
}

/** Thrown at a step's checkpoint once a revision is decided: the step stops there, its searches kept. */
export class Replanned extends Error {}

export class Steering {
  /** The stream revision read up to. */
  private seen: number;
  /** Instructions already judged in this job (applied by the plan, a revision, or left to the writing). */
  private readonly judged: Set<string>;
  /** Instructions found and not yet judged. */
  private pending: Instruction[];
  private checking: Promise<void> | null = null;
  revision: Revision | null = null;

  constructor(
    private readonly run: Run,
    private readonly question: string,
    lastRevision: number,
    waiting: readonly Instruction[],
    trace: StageTrace,
  ) {
    this.seen = lastRevision;
    this.judged = new Set(trace.applied);
    this.pending = waiting.filter((instruction) => !this.judged.has(instruction.id));
  }

  /**
   * A step's checkpoint: judges the instructions sent since the last one (one check at a time: steps
   * reaching theirs meanwhile wait for it), and stops the step when the plan is being revised.
   */
  async check(plan: readonly PlannedStep[], finished: readonly boolean[]): Promise<void> {
    if (!this.revision) await (this.checking ??= this.judge(plan, finished).finally(() => (this.checking = null)));
    if (this.revision) throw new Replanned();
  }

  private async judge(plan: readonly PlannedStep[], finished: readonly boolean[]): Promise<void> {
    const { deps, data } = this.run;
    const recorded = await deps.events.readStream(conversationStream(data.sessionId), { fromRevision: this.seen + 1 });
    if (recorded.length > 0) this.seen = recorded.at(-1)!.revision;
    for (const event of recorded.map((entry) => ({ type: entry.type, data: entry.data }) as ConversationEvent)) {
      if (event.type === 'UserMessagePosted' && event.data.steers === data.replyId && !this.judged.has(event.data.messageId)) {
        this.pending.push({ id: event.data.messageId, content: event.data.content, steers: event.data.steers });
      }
    }
    if (this.pending.length === 0) return;
    const instructions = this.pending;
    this.pending = [];
    for (const instruction of instructions) this.judged.add(instruction.id);
    this.revision = await replan(this.run, this.question, plan, finished, instructions);
  }
}

/** The re-plan call: null when the instructions do not change the scope (or the answer keeps every step as it was). */
async function replan(run: Run, question: string, plan: readonly PlannedStep[], finished: readonly boolean[], instructions: Instruction[]): Promise<Revision | null> {
  const zh = run.language === 'zh';
  const status = (index: number) => (finished[index] ? (zh ? '已完成' : 'done') : zh ? '未完成' : 'not done');
  const lines = plan.map((step, index) => `${index + 1}. [${status(index)}] ${step.description}`).join('\n');
  const asked = instructions.map((instruction) => `- ${instruction.content}`).join('\n');
  const answer = await completeJson(
    run,
    'planning',
    'replan',
    replanSchema,
    [
      { role: 'system', content: REPLAN_PROMPT },
      { role: 'user', content: zh ? `研究问题：${question}\n\n研究计划：\n${lines}\n\n用户的新要求：\n${asked}` : `Research question: ${question}\n\nPlan:\n${lines}\n\nThe user's new instructions:\n${asked}` },
    ],
    REPLAN_TOKENS,
  );
  if (!answer?.changes_scope) return null;
  const kept = plan.flatMap((step, index) => (finished[index] ? [{ step, from: index as number | null }] : []));
  const done = new Set(kept.map(({ step }) => step.description));
  const next = answer.steps
    .filter((step) => !done.has(step.description.trim()))
    .map((step) => {
      const description = step.description.trim();
      const before = plan.findIndex((planned) => planned.description === description);
      // A step kept as it was keeps its heading and searches; its rounds so far stay its own.
      const known = before === -1 ? null : plan[before]!;
      return { step: known ?? { description, heading: sectionHeading(step.heading, description), queries: step.queries }, from: before === -1 ? null : before };
    });
  const steps = [...kept, ...next];
  if (next.length === 0 && kept.length === 0) return null;
  const unchanged = steps.length === plan.length && steps.every(({ from }, index) => from === index);
  return unchanged ? null : { steps: steps.map(({ step }) => step), from: steps.map(({ from }) => from), instructions };
}

/**
 * Records the revision (`PlanRevised`), folds it into the trace as a later job would, and says in
 * the chat what changed. `key` keeps the command's id apart from earlier revisions of this job.
 */
export async function recordRevision(run: Run, trace: StageTrace, plan: readonly PlannedStep[], revision: Revision): Promise<void> {
  const { steps, from, instructions } = revision;
  await command(run, `revise:${trace.revisions.length}`, {
    type: 'RevisePlan',
    data: {
      messageId: run.data.replyId,
      steps: steps.map((step) => step.description),
      queries: steps.map((step) => step.queries),
      headings: steps.map((step) => step.heading),
      from,
      instructions: instructions.map((instruction) => instruction.id),
    },
  });
  Object.assign(trace, revised(trace, from));
  trace.plan = steps.map((step) => step.description);
  trace.queries = steps.map((step) => step.queries);
  trace.headings = steps.map((step) => step.heading);
  trace.revisions.push(from);
  const ids = instructions.map((instruction) => instruction.id);
  for (const id of ids) trace.applied.add(id);
  const removed = plan.filter((_, index) => !from.includes(index)).map((step) => step.heading);
  const added = steps.filter((_, index) => from[index] === null).map((step) => step.heading);
  const instruction = clip(instructions.map((entry) => entry.content).join(' / '), 200);
  await run.writer.progress({ code: 'research.planRevised', params: { ids, instruction, removed, added } });
}

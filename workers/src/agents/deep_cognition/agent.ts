import { z } from 'zod';
import { conversationStream, type OpenSession } from '@scriptorium/domain/conversation/conversation';
import { conversationDecider } from '@scriptorium/domain/conversation/decide';
import { preferencesDecider, preferencesStream } from '@scriptorium/domain/preferences/preferences';
import { DomainError } from '@scriptorium/infra/eventsourcing/decider';
import type { AgentJobData } from '@scriptorium/domain/conversation/jobs';
import type { ClarificationQuestion, ReportLength } from '@scriptorium/domain/protocol/research';
import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { JobContext } from '@scriptorium/infra/queue/port';
import { Allowance } from '@scriptorium/domain/budget/allowance';
import type { AgentDeps } from '../deps.ts';
import { writerStart } from '../history.ts';
import { jobData as replyJobData } from '../poe_llm/agent.ts';
import { ReplyWriter } from '../replyWriter.ts';
import { titleSessionIfUntitled } from '../titles.ts';
import * as rules from './heuristics.ts';
import {
  ANALYSE_PROMPT,
  CLARIFY_PROMPT,
  PLAN_PROMPT,
  QUERIES_PROMPT,
  analyseSchema,
  clarifySchema,
  deepenPrompt,
  planSchema,
  queriesSchema,
  revisePrompt,
  sectionPrompt,
  summaryPrompt,
} from './prompts.ts';
import { Ahead, cancelAhead, checkpoint, command, completeJson, mustWait, runPools, streamModel, type Run } from './run.ts';
import { estimateMessageTokens, estimateTokens } from '@scriptorium/infra/model/tokens';
import { SourceBook, bookOf, parseReport } from './sources.ts';
import { afterWriting, chooseSearch, embedSources, finishWriting, numberLearnt, PageReader, readAttached, searchRound, sentencesIn, startWriting, stop, writeExtract } from './steps.ts';
import { researchSteps } from './iteration.ts';
import { recordRevision, Steering } from './replan.ts';
import type { Learnt } from './steps.ts';
import { continuedTrace, instructionsFor, merge, stageInstructions, readingOnly, replyRecord, stageTrace, versionChecks, type Instruction, type ReplyRecord, type StageTrace } from './trace.ts';
import { checkRevision, checksBySentence } from './checkCitations.ts';
import { citedNumbers } from './citations.ts';
import { reportTitle, sectionHeading } from './outline.ts';
import { continuation, headingLine, notesBlock, recordSection, writeSection, type SectionPlan } from './sections.ts';
import { runPlatformTools } from '@scriptorium/domain/tools/registry';
import { assignExtracts, type ExtractSection } from './extracts.ts';
import { clip, languageOf } from './text.ts';

export const jobData = replyJobData.extend({ stage: z.enum(['research', 'revise']).optional() });

const OFFLINE_REPORT_LABEL = {
  zh: '> 【离线模式】未配置语言模型：本报告由离线引擎按研究计划从检索到的资料中摘录整理，未经改写或推理，结论请以原文为准。',
  en: '> [Offline mode] No language model is configured: this report quotes the sources found for each step of the plan, without rewriting or reasoning. Check conclusions against the sources.',
};

/**
 * The deep-cognition research agent. A reply runs as up to three kinds of job: the start (think,
 * status, clarifying questions — then the job ends and the reply waits without a worker), the
 * research once the answers are in (plan, search, read, write the report, ask for feedback) and a
 * revision per feedback. Each job reads the log first and does only what is not there yet.
 */
export async function runDeepCognition(deps: AgentDeps, job: JobContext<unknown>): Promise<void> {
  const data = jobData.parse(job.data) as AgentJobData;
  const stream = conversationStream(data.sessionId);
  const { state } = await deps.commands.load(conversationDecider, stream);
  if (state.status === 'none') return;
  const reply = state.activeReply;
  // A plan whose countdown this job is: it starts the plan, unless an edit stopped the countdown.
  const countdown = state.awaiting === 'plan' && state.planStartsAt !== null;
  // A reply that ended, a stage another job now runs, or a stage that already reached its wait: nothing to do.
  if (reply?.messageId !== data.replyId || reply.jobId !== job.id || (state.awaiting !== null && !countdown)) return;

  const events = await deps.events.readStream(stream);
  const record = replyRecord(events, data.replyId, data.replyTo);
  const own = stageTrace(events, data.replyId, job.id);
  // A resumed reply's first stage goes on from what the reply it continues had done.
  const earlier = data.stage === undefined ? continuedTrace(events, data.continues) : null;
  const trace = earlier ? merge(redirects(record, data.replyId) ? readingOnly(earlier) : earlier, own) : own;
  const run: Run = {
    deps,
    job,
    data,
    writer: new ReplyWriter(deps, data, writerStart(events, data.replyId)),
    allowance: new Allowance(deps, data.userId, { sessionId: data.sessionId, messageId: data.replyId }),
    language: languageOf(record.question),
    draft: null,
    notes: [],
    pools: runPools(deps, data.userId),
  };

  try {
    if (countdown && !(await startOnTime(run))) return;
    if (trace.savedVersion !== null) await afterWriting(run, record.question, trace);
    else if (data.stage === 'research') await research(run, state, record, trace);
    else if (data.stage === 'revise') await revise(run, state, record, trace, events);
    else await start(run, state, record, events, trace);
  } catch (error) {
    // Sections asked for ahead stop here, and what they used is charged before the job ends.
    await cancelAhead(run);
    if (mustWait(error) && !job.signal.aborted) await defer(run, own, error.retryAfterMs);
    else await stop(run, error);
  }
}

/** Starts the plan when its countdown ends; false when an edit stopped the countdown meanwhile (the plan then waits for the user). */
async function startOnTime(run: Run): Promise<boolean> {
  try {
    await command(run, 'plan:start', { type: 'StartPlanOnTime', data: { messageId: run.data.replyId, jobId: run.job.id } });
    return true;
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'conflict') return false;
    throw error;
  }
}

/**
 * The model service asked to wait longer than a call may: the reply goes on as a new job queued for
 * then (`ReplyDeferred`), which continues from what this one recorded. The chat says until when.
 */
async function defer(run: Run, trace: StageTrace, waitMs: number): Promise<void> {
  run.draft?.endCited();
  const until = new Date(run.deps.clock().getTime() + waitMs).toISOString();
  await run.writer.progress({ code: 'research.waitingForModel', params: { until } });
  await command(run, 'defer', { type: 'DeferReply', data: { messageId: run.data.replyId, jobId: `${run.data.replyId}:wait:${trace.deferrals + 1}`, until } });
}

async function start(run: Run, session: OpenSession, record: ReplyRecord, events: RecordedEvent[], trace: StageTrace): Promise<void> {
  const { data, deps, writer } = run;
  if (data.continues) {
    // Continuing a reply a pause or a failure cut short: the scope the user settled still holds,
    // and what the reply had planned, searched, read and written is kept.
    const earlier = replyRecord(events, data.continues, data.replyTo);
    if (!redirects(record, data.replyId) && !trace.said.has('research.continuing')) await writer.progress({ code: 'research.continuing', params: { steps: trace.searches.filter(Boolean).length, sections: trace.sections.size } });
    await research(run, session, { ...record, answers: earlier.answers }, trace);
    return;
  }

  const analysis = rules.analyseQuestion(record.question);
  let thought = rules.thinking(record.question, analysis);
  let status = rules.statusAndGoal(analysis);
  let specific = analysis.specific;
  if (trace.outputs.has('status_and_goal')) {
    // A job that runs again after its worker died: the analysis is in the log; it asked questions or researched.
    specific = !trace.said.has('research.clarifying');
  } else if (!deps.model.offline) {
    const analysed = await completeJson(run, 'planning', 'analyse', analyseSchema, [
      { role: 'system', content: ANALYSE_PROMPT },
      { role: 'user', content: record.question },
    ]);
    if (analysed) {
      thought = analysed.analysis;
      status = { status: analysed.status, goal: analysed.goal };
      specific = !analysed.needs_clarification;
    }
  }
  if (!trace.outputs.has('think_end')) {
    writer.text('think', thought);
    await writer.output('think_end', {});
  }
  if (!trace.outputs.has('status_and_goal')) await writer.output('status_and_goal', status);
  // The session's title is a model call of this run's too: it takes a slot like the others.
  await run.pools.model(() => titleSessionIfUntitled(deps, data, record.question, status.goal, writer, run.allowance));
  if (specific) {
    await research(run, session, record, trace);
    return;
  }

  checkpoint(run);
  await run.writer.progress({ code: 'research.clarifying', params: {} });
  let questions = rules.clarificationQuestions(analysis);
  if (!deps.model.offline) {
    const asked = await completeJson(run, 'planning', 'clarify', clarifySchema, [
      { role: 'system', content: CLARIFY_PROMPT },
      { role: 'user', content: record.question },
    ]);
    if (asked) {
      questions = asked.questions.map(
        (question, index): ClarificationQuestion => ({
          id: `q${index + 1}`,
          question_content: question.question_content,
          question_options: question.question_type === 'text' ? [] : question.question_options,
          question_type: question.question_type,
          section_id: question.section_id?.trim() || `section-${index + 1}`,
        }),
      );
    }
  }
  await run.writer.progress({ code: 'research.clarified', params: {} });
  await command(run, 'clarify', { type: 'AskClarification', data: { messageId: data.replyId, questions } });
}

/** An arithmetic expression in the question, such as `(3.5 + 2) * 4`, for the calculator. */
const ARITHMETIC = /[\d.]+(?:\s*[-+*/^%]\s*\(?\s*[\d.]+\s*\)?)+/;

/**
 * Runs the platform's own tools the question calls for: the user's material always, the clock and
 * the calculator when the question needs them. Results join the conversation as the spec's
 * platform_tools items.
 */
async function usePlatformTools(run: Run, question: string): Promise<void> {
  const registry = run.deps.tools;
  if (!registry) return;
  const available = new Set(registry.list().map((tool) => tool.name));
  const calls = [
    { name: 'local_search', args: { query: question, limit: 5 } },
    ...(/今天|现在|最新|今年|近期|当前|today|now|latest|current|this year/i.test(question) ? [{ name: 'current_time', args: {} }] : []),
    ...(ARITHMETIC.test(question) ? [{ name: 'calculator', args: { expression: ARITHMETIC.exec(question)![0] } }] : []),
  ].filter((call) => available.has(call.name));
  if (calls.length === 0) return;
  checkpoint(run);
  await run.writer.output('platform_tools_start', { tools: calls.map((call) => call.name) });
  const results = await runPlatformTools(registry, calls, { userId: run.data.userId, signal: run.job.signal });
  await run.writer.output('platform_tools_results', { ...results });
  await run.writer.output('platform_tools_end', { message: 'Platform Tools Execution Completed' });
}

async function research(run: Run, session: OpenSession, record: ReplyRecord, trace: StageTrace): Promise<void> {
  const { deps } = run;
  const analysis = rules.analyseQuestion(record.question);
  const scope = rules.answerLines(record.answers, run.language);
  await warnIfBudgetLow(run, trace);
  const planning = !trace.plan;
  const plan = await planResearch(run, record, trace);
  // The plan waits for the user: this job ends, and starting the plan queues the rest.
  if (!plan) return;
  const { title: writtenTitle, length } = plan;
  if (planning) await sayApplied(run, trace, record.instructions, 'plan');

  const sources = new SourceBook();
  await readAttached(run, sources);
  const { planned, learnt } = await researchPlan(run, session, record, plan.steps, trace);
  const steps = planned.map((step) => step.description);
  const found = numberLearnt(sources, learnt);
  if (!trace.outputs.has('platform_tools_end')) await usePlatformTools(run, record.question);

  const zh = run.language === 'zh';
  const title = writtenTitle ?? rules.reportTitle(analysis);
  const header =
    `# ${title}\n\n` +
    (deps.model.offline ? `${OFFLINE_REPORT_LABEL[run.language]}\n\n` : '') +
    `## ${zh ? '研究问题' : 'Research question'}\n\n${record.question.trim()}\n\n${scope.map((line) => `- ${line}\n`).join('')}${scope.length > 0 ? '\n' : ''}`;
  // The summary heads the report (the answer first); the plan's steps follow it, one section each:
  // section i + 1 is step i.
  const headings = [zh ? '摘要' : 'Summary', ...planned.map((step) => step.heading)];
  const stepOf = (index: number) => index - 1;
  // The offline engine writes a section at once: there is never a part of one to continue.
  const { next, prefix, partial } = continuation(header, headings, trace.sections, deps.model.offline ? '' : trace.lastText);
  const draft = await startWriting(run, title, sources, trace.writing ? trace.writingText : '');
  if (trace.writing && !trace.deferredLast && !trace.said.has('research.takenOver')) await run.writer.progress({ code: 'research.takenOver', params: {} });
  await draft.restore(prefix + partial);

  // Material attached and instructions sent while the steps were researched count from here: every
  // section still to write draws on the one and follows the other.
  await readAttached(run, sources, true);
  const instructions = instructionsFor(await deps.events.readStream(conversationStream(run.data.sessionId)), run.data.replyId);
  await sayApplied(run, trace, instructions, 'writing');
  const outline = steps.map((step, index) => `${index + 1}. ${step}`).join('\n');
  const brief = (zh ? `研究问题：${record.question}\n${scope.join('\n')}\n\n报告提纲：\n${outline}` : `Research question: ${record.question}\n${scope.join('\n')}\n\nOutline:\n${outline}`) + instructionLines(instructions, run.language);
  if (!deps.model.offline) await embedSources(run, sources, [record.question, ...steps]);
  const sections: ExtractSection[] = steps.map((step, index) => ({ focus: step, ...(found[index] && { sources: found[index] }) }));
  const extracts = deps.model.offline ? assignExtracts(sources.all, subjectOf(analysis), sections, new Set()) : [];
  // Sections draw on different facts (`SourceBook.sections`); the summary draws on the best for the whole question.
  const contexts = sources.sections(sections, run.language);
  const plans: SectionPlan[] = headings.map((heading, index) => {
    if (index === 0) {
      return { index, heading, messages: [{ role: 'system', content: summaryPrompt(run.language, length) }, { role: 'user', content: brief }], context: sources.context(record.question, run.language), sources, role: 'summarising' };
    }
    const step = steps[stepOf(index)]!;
    const ask = `${brief}\n\n${zh ? `现在撰写这一节：${step}` : `Write this section now: ${step}`}`;
    return { index, heading, messages: [{ role: 'system', content: sectionPrompt(run.language, length) }, { role: 'user', content: ask }], context: contexts[stepOf(index)]!, sources, role: 'writing' };
  });
  if (!deps.model.offline) await writeAhead(run, plans.slice(next + 1));
  for (let index = next; index < headings.length; index++) {
    checkpoint(run);
    const heading = headings[index]!;
    if (index > next) {
      // A section the budget cannot pay for does not get its heading either.
      await run.allowance.check();
      draft.plain(headingLine(heading));
    }
    const start = draft.content.length - (index === next ? partial.length : 0);
    if (deps.model.offline) {
      if (index === 0) {
        draft.plain(
          zh
            ? `离线引擎只做摘录，没有对资料进行推理与综合。本报告按研究计划的 ${steps.length} 个步骤，从 ${sources.size} 个来源中摘录了相关内容；配置语言模型后可以得到完整的分析与结论。`
            : `The offline engine only quotes; it does not reason over the sources. This report quotes ${sources.size} sources for the ${steps.length} steps of the plan; configure a language model for a full analysis and conclusion.`,
        );
      } else {
        if (index === next) await run.allowance.check();
        await writeExtract(run, draft, sources, sections[stepOf(index)]!, extracts[stepOf(index)]!);
      }
      await recordSection(run, draft, index, heading, start, sources);
    } else {
      await writeSection(run, draft, plans[index]!, index === next ? partial : '');
    }
    draft.plain('\n\n');
  }
  checkpoint(run);
  draft.plain(notesBlock(run.notes, run.language));
  draft.plain(sources.markdown(run.language, citedNumbers(draft.content)));
  await finishWriting(run, draft);
  await afterWriting(run, record.question, trace);
}

/**
 * Researches the plan's steps; an instruction sent meanwhile that changes the scope revises the
 * steps not yet done (recorded, said in the chat), and the revised plan is researched on from there,
 * the finished steps' findings kept. Offline nothing judges instructions: they reach the writing.
 */
async function researchPlan(run: Run, session: OpenSession, record: ReplyRecord, steps: rules.PlannedStep[], trace: StageTrace): Promise<{ planned: rules.PlannedStep[]; learnt: Learnt[][] }> {
  const events = await run.deps.events.readStream(conversationStream(run.data.sessionId));
  const steering = run.deps.model.offline || trace.researched ? null : new Steering(run, record.question, events.at(-1)?.revision ?? -1, instructionsFor(events, run.data.replyId), trace);
  const known = new Map<string, Learnt[]>();
  let planned = steps;
  for (;;) {
    const outcome = await researchSteps(run, session, record.question, planned, trace, steering, known);
    if (Array.isArray(outcome)) return { planned, learnt: outcome };
    await recordRevision(run, trace, planned, outcome);
    steering!.revision = null;
    planned = outcome.steps;
  }
}

/**
 * Tells the user, before the plan, when the budget left is below what a run is reckoned to use: the
 * run goes on (what it writes is saved as it goes), but a report cut short is then no surprise.
 */
async function warnIfBudgetLow(run: Run, trace: StageTrace): Promise<void> {
  if (run.deps.model.offline || trace.plan || trace.said.has('research.budgetLow')) return;
  const estimate = run.pools.limits.tokensEstimate;
  const remaining = await run.allowance.remaining();
  if (remaining < estimate) await run.writer.progress({ code: 'research.budgetLow', params: { remaining: Math.max(0, Math.floor(remaining)), estimate } });
}

/** Whether this reply is a redirect: started by a message sent after a pause, which steers it. */
const redirects = (record: ReplyRecord, replyId: string) => record.instructions.some((instruction) => instruction.steers === replyId);

/** The user's instructions as a prompt states them: to be followed, the research question still the subject. */
function instructionLines(instructions: readonly Instruction[], language: 'zh' | 'en'): string {
  if (instructions.length === 0) return '';
  const lines = instructions.map((instruction) => `- ${instruction.content}`).join('\n');
  return language === 'zh' ? `\n\n用户在研究过程中的要求（优先遵守，研究问题不变）：\n${lines}` : `\n\nThe user's instructions during the research (follow them; the research question stays the same):\n${lines}`;
}

/** Says in the chat, once each, how the instructions not yet taken up change the research. */
async function sayApplied(run: Run, trace: StageTrace, instructions: readonly Instruction[], to: 'plan' | 'writing'): Promise<void> {
  for (const instruction of instructions) {
    if (trace.applied.has(instruction.id)) continue;
    trace.applied.add(instruction.id);
    await run.writer.progress({ code: 'research.instructionApplied', params: { id: instruction.id, instruction: clip(instruction.content, 200), to } });
  }
}

/** Tokens a section is reckoned to answer with, when deciding whether the budget covers writing ahead. */
const SECTION_ANSWER_TOKENS = 2_000;

/**
 * Asks for the sections after the one being written at once (once that one streams, so it is asked
 * first), so they are written side by side
 * (bounded by the job's model pool) and streamed into the report in order. Only when the budget left
 * covers them all twice over, and the job may have more than one call open: otherwise they are asked
 * one after another, and the budget stops the report at a section boundary as before.
 */
async function writeAhead(run: Run, plans: readonly SectionPlan[]): Promise<void> {
  if (plans.length === 0 || run.pools.limits.modelConcurrency < 2) return;
  const cost = plans.reduce((sum, plan) => sum + estimateMessageTokens(plan.messages) + plan.context.reduce((total, doc) => total + estimateTokens(`${doc.title}\n${doc.text}`), 0) + SECTION_ANSWER_TOKENS, 0);
  if ((await run.allowance.remaining()) < 2 * cost) return;
  const released = new Promise<void>((resolve) => (run.releaseAhead = resolve));
  run.ahead = new Map(plans.map((plan) => [plan.messages, new Ahead(run, plan.role, { messages: plan.messages, context: plan.context }, released)]));
}

/**
 * The plan of the research: the one the log already has (with the searches, headings and title it
 * planned, or as the user edited it), else a new one, recorded. `title`: the model's, when it wrote
 * one. Null when a new plan waits for the user: for them to start it (they review plans), or
 * until its countdown ends, which any edit stops.
 */
async function planResearch(run: Run, record: ReplyRecord, trace: StageTrace): Promise<{ steps: rules.PlannedStep[]; title: string | null; length: ReportLength } | null> {
  const analysis = rules.analyseQuestion(record.question);
  const byRules = rules.plan(analysis, record.answers);
  if (trace.plan) {
    const steps = trace.plan.map((description, index) => {
      const known = byRules.find((step) => step.description === description);
      return { description, heading: trace.headings?.[index] ?? known?.heading ?? description, queries: trace.queries?.[index] ?? known?.queries ?? [description] };
    });
    return { steps, title: trace.title, length: trace.length ?? 'standard' };
  }

  await run.writer.progress({ code: 'research.planning', params: {} });
  let planned = byRules;
  let title: string | null = null;
  let length: ReportLength = 'standard';
  if (!run.deps.model.offline) {
    const scope = rules.answerLines(record.answers, run.language).join('\n');
    const proposed = await completeJson(run, 'planning', 'plan', planSchema, [
      { role: 'system', content: PLAN_PROMPT },
      { role: 'user', content: `${record.question}\n${scope}${instructionLines(record.instructions, run.language)}` },
    ]);
    if (proposed) {
      planned = proposed.steps.map((step) => ({ ...step, heading: sectionHeading(step.heading, step.description) }));
      title = reportTitle(proposed.title);
      length = proposed.length ?? 'standard';
    }
  }
  await command(run, 'plan', {
    type: 'ProposePlan',
    data: {
      messageId: run.data.replyId,
      steps: planned.map((step) => step.description),
      queries: planned.map((step) => step.queries),
      ...(planned !== byRules && { headings: planned.map((step) => step.heading) }),
      ...(title && { title }),
      ...(!run.deps.model.offline && { length }),
    },
  });
  const { state: preferences } = await run.deps.commands.load(preferencesDecider, preferencesStream(run.data.userId));
  const countdownMs = run.deps.planCountdownMs ?? 0;
  if (!preferences.reviewPlans && countdownMs === 0) return { steps: planned, title, length };
  const startsAt = preferences.reviewPlans ? undefined : new Date(run.deps.clock().getTime() + countdownMs).toISOString();
  await command(run, 'plan:review', { type: 'OpenPlanReview', data: { messageId: run.data.replyId, jobId: `${run.data.replyId}:plan`, ...(startsAt && { startsAt }) } });
  return null;
}

async function revise(run: Run, session: OpenSession, record: ReplyRecord, trace: StageTrace, events: RecordedEvent[]): Promise<void> {
  const { deps, data } = run;
  const zh = run.language === 'zh';
  const prior = session.canvas.current;
  const feedback = record.feedback;
  if (!prior || !feedback) throw new Error('a revision needs a report and feedback');
  const kind = feedback.option === 'manual_feedback' ? 'manual_feedback' : 'continue';
  const analysis = rules.analyseQuestion(record.question);
  const report = parseReport(prior.content);
  const sources = bookOf(report, record.notes);
  const known = new Set(sources.all.map((source) => source.n));
  // Material attached since the last version is new to the report, like a page found this round.
  await readAttached(run, sources);

  const steps = trace.plan ?? rules.steps(analysis, kind, feedback.text);
  if (!trace.plan) {
    await run.writer.progress({ code: 'research.planning', params: {} });
    await command(run, 'plan', { type: 'ProposePlan', data: { messageId: data.replyId, steps } });
  }
  await command(run, 'step:0', { type: 'MarkPlanStep', data: { messageId: data.replyId, steps, index: 0 } });
  const about = kind === 'continue' ? record.question : `${record.question} ${feedback.text}`;
  const reader = new PageReader(run, trace.pages, trace.announced);
  let results = trace.searches[0];
  if (!results) {
    const searcher = await chooseSearch(run, session, trace.said);
    let queries = kind === 'continue' ? rules.deepenQueries(analysis, record.answers) : rules.feedbackQueries(analysis, feedback.text);
    if (!deps.model.offline) {
      const headings = [...report.body.matchAll(/^#{1,3}\s+(.+)$/gm)].map((match) => match[1]).join('\n');
      const asked = await completeJson(run, 'planning', 'queries', queriesSchema, [
        { role: 'system', content: QUERIES_PROMPT },
        { role: 'user', content: `${record.question}\n\n${zh ? '报告提纲' : 'Outline'}：\n${headings}\n\n${zh ? '用户的要求' : 'What the user asks'}：${kind === 'continue' ? (zh ? '继续深入研究' : 'go deeper') : feedback.text}${instructionLines(await revisionInstructions(run), run.language)}` },
      ]);
      if (asked) queries = asked.queries;
    }
    results = await searchRound(run, searcher, queries, about, 'search:0', { step: 0, round: 0 }, [], reader);
  }
  numberLearnt(sources, [await reader.round(results, about)]);
  const fresh = new Set(sources.all.map((source) => source.n).filter((n) => !known.has(n)));
  await command(run, 'step:1', { type: 'MarkPlanStep', data: { messageId: data.replyId, steps, index: 1 } });

  // A job that goes on after its worker died rolls back what the dead one streamed and writes the revision again.
  const draft = await startWriting(run, prior.title, sources, trace.writing ? trace.writingText : '');
  // Instructions sent while the revision searched are followed by its writing; later ones come too late and are said to.
  const instructions = await revisionInstructions(run);
  await sayApplied(run, trace, instructions, 'writing');
  const brief = (zh ? `研究问题：${record.question}\n\n现有报告：\n${clip(report.body, 12_000)}` : `Research question: ${record.question}\n\nCurrent report:\n${clip(report.body, 12_000)}`) + instructionLines(instructions, run.language);
  if (kind === 'continue') {
    await draft.restore(`${report.body}\n\n## ${zh ? '深入补充' : 'Further research'}\n\n`);
    if (deps.model.offline) {
      const section: ExtractSection = { focus: record.question, sources: fresh };
      await writeExtract(run, draft, sources, section, assignExtracts(sources.all, subjectOf(analysis), [section], sentencesIn(report.body))[0]!);
    } else {
      await streamModel(run, 'writing', { messages: [{ role: 'system', content: deepenPrompt(run.language) }, { role: 'user', content: brief }], context: sources.context(record.question, run.language) }, (text) => draft.cited(text));
      draft.endCited();
    }
  } else if (deps.model.offline) {
    await draft.restore('');
    draft.plain(`${report.body}\n\n## ${zh ? '根据反馈补充' : 'Added on feedback'}\n\n`);
    draft.plain(
      zh
        ? `> 离线引擎无法按意见改写原文；以下是根据你的意见“${feedback.text}”从资料中找到的相关内容。\n\n`
        : `> The offline engine cannot rewrite the report as asked; below is what the sources say about your feedback: "${feedback.text}".\n\n`,
    );
    const section: ExtractSection = { focus: feedback.text };
    await writeExtract(run, draft, sources, section, assignExtracts(sources.all, `${subjectOf(analysis)} ${feedback.text}`, [section], sentencesIn(report.body))[0]!);
  } else {
    await draft.restore('');
    await streamModel(
      run,
      'writing',
      { messages: [{ role: 'system', content: revisePrompt(run.language) }, { role: 'user', content: `${brief}\n\n${zh ? '修改意见：' : 'Feedback: '}${feedback.text}` }], context: sources.context(`${record.question} ${feedback.text}`, run.language) },
      (text) => draft.cited(text),
    );
    draft.endCited();
  }
  // The revision is checked like a first run's sections: what it kept word for word keeps the checks
  // of the version it revises, the rest is checked against the old sources' stored text and the new ones.
  await checkRevision(run, draft, sources, 0, checksBySentence(prior.content, versionChecks(events, prior.version), sources));
  draft.plain(`\n\n${sources.markdown(run.language, citedNumbers(draft.content))}`);
  await finishWriting(run, draft);
  for (const late of await revisionInstructions(run)) {
    if (trace.applied.has(late.id)) continue;
    trace.applied.add(late.id);
    await run.writer.progress({ code: 'research.instructionLate', params: { id: late.id, instruction: clip(late.content, 200) } });
  }
  await command(run, 'step:done', { type: 'MarkPlanStep', data: { messageId: data.replyId, steps, index: steps.length } });
  await afterWriting(run, record.question, trace);
}

/** The instructions sent to the reply since this revision began. */
const revisionInstructions = async (run: Run) => stageInstructions(await run.deps.events.readStream(conversationStream(run.data.sessionId)), run.data.replyId);

/** What every quote must be about: the question's topic and key phrases. */
const subjectOf = (analysis: rules.QuestionAnalysis) => `${analysis.topic} ${analysis.phrases.join(' ')}`;

/**
 * The fault suite: the corpus tasks again, the scripted model misbehaving as real providers do, one
 * fault a run. Each run is judged from outside: completed, failed, or completed but degraded (and
 * whether the chat said so); a failed run is retried through the product's resume route; `<think>`
 * is looked for in the canvas, the title and the chat; what the product charged is set beside what
 * the model served.
 */
import { TOPICS, type Topic } from './corpus.ts';
import { scriptedPlan, type CallKind } from './answers.ts';
import { ask, awaitReply, chargedTokens, latestReport, resume, sessionTitle, type Outcome } from './drive.ts';
import { conversationFor, measure, resetCounts, type TaskResult } from './corpusSuite.ts';
import type { Lab } from './lab.ts';
import type { CallMatch, Fault } from './model.ts';
import { markdownTable } from './summary.ts';

export interface FaultCase {
  name: string;
  about: string;
  faults: Fault[];
  /** Run over every task rather than one: the limits every deployment on such a provider meets on every question. */
  everyTask?: boolean;
}

const once = (kinds: CallKind[]): CallMatch => ({ kinds, times: 1 });
const always: CallMatch = { times: Number.POSITIVE_INFINITY };
const runaway = (answer: string) => {
  let text = answer || 'The model keeps going. ';
  while (text.length < 100_000) text += `\n\n${answer || 'The model keeps going.'}`;
  return text;
};

export const FAULTS: FaultCase[] = [
  { name: '429-short', about: '429 with Retry-After: 2 on the first section', faults: [{ kind: 'status', status: 429, retryAfter: '2', match: once(['section']) }] },
  { name: '429-45s', about: '429 with Retry-After: 45 on the first section', faults: [{ kind: 'status', status: 429, retryAfter: '45', match: once(['section']) }] },
  { name: '429-120s', about: '429 with Retry-After: 120 on the first section', faults: [{ kind: 'status', status: 429, retryAfter: '120', match: once(['section']) }] },
  { name: '5xx-burst', about: 'three 500s in a row from the first section on', faults: [{ kind: 'status', status: 500, match: { kinds: ['section'], times: 3 } }] },
  { name: 'cut-json', about: 'the stream of the plan (a JSON call) cut halfway', faults: [{ kind: 'cut', match: once(['plan']) }] },
  { name: 'cut-section', about: 'the stream of the first section cut halfway', faults: [{ kind: 'cut', match: once(['section']) }] },
  { name: 'invalid-json', about: 'the plan answered with JSON that does not parse', faults: [{ kind: 'replace', match: once(['plan']), text: () => 'Here is the plan: {steps: [{description: "Overview", queries: [overview]}' }] },
  { name: 'truncated-json', about: 'the plan cut at its output limit (finish_reason length)', faults: [{ kind: 'replace', match: once(['plan']), text: (answer) => answer.slice(0, Math.floor(answer.length / 2)), finish: 'length' }] },
  { name: 'empty-answer', about: 'the first section answered with nothing', faults: [{ kind: 'replace', match: once(['section']), text: () => '' }] },
  { name: 'runaway-answer', about: 'the first section runs on past 100,000 characters', faults: [{ kind: 'replace', match: once(['section']), text: runaway }] },
  { name: 'think-in-content', about: '<think>…</think> (with a { inside) before every answer', faults: [{ kind: 'think', match: always }] },
  { name: 'reasoning-content', about: 'reasoning_content deltas before every streamed answer', faults: [{ kind: 'reasoning', match: always }] },
  { name: 'slow-first-token', about: '20 s before the first token of the first section', faults: [{ kind: 'firstToken', ms: 20_000, match: once(['section']) }] },
  { name: 'missing-usage', about: 'no usage in any response', faults: [{ kind: 'noUsage' }] },
  { name: 'output-cap-8192', about: 'max_tokens above 8,192 refused with DeepSeek’s 400', faults: [{ kind: 'outputCap', cap: 8192 }], everyTask: true },
  { name: 'context-32k', about: 'prompt + max_tokens above 32,768 refused with vLLM’s 400', faults: [{ kind: 'window', tokens: 32_768 }], everyTask: true },
  {
    name: 'cap-and-window',
    about: 'an 8,192 output cap and a 32k window at once, each refused with its provider’s 400',
    faults: [
      { kind: 'outputCap', cap: 8192 },
      { kind: 'window', tokens: 32_768 },
    ],
    everyTask: true,
  },
];

export type Verdict = 'completed' | 'failed' | 'silently degraded' | 'degraded, said';

export interface FaultResult {
  fault: string;
  task: string;
  verdict: Verdict;
  outcome: Outcome;
  error?: string;
  /** What made a completed run degraded. */
  degraded: string[];
  /** For a run that did not complete: what the resume route did. */
  retry: 'not needed' | 'completed' | 'failed again' | `refused ${number}`;
  thinkIn: { canvas: boolean; title: boolean; chat: boolean };
  chargedTokens: number;
  reportedTokens: number;
  servedTokens: number;
  result: TaskResult;
}

const THINK = /<\/?think(?:ing)?>/i;

/** Signs that a run which ended "completed" did not really do what it should. */
function degradation(report: string | null, planned: readonly string[], topic: Topic, result: TaskResult): string[] {
  const signs: string[] = [];
  if (!report) return ['no report'];
  const expected = scriptedPlan(topic.question).map((step) => step.description);
  if (planned.length > 0 && planned.join('|') !== expected.join('|')) signs.push('rules plan instead of the model’s');
  const sections = report.split(/^## /m).slice(2, -1);
  const empty = sections.filter((section) => section.split('\n').slice(1).join('').trim().length === 0).length;
  if (empty > 0) signs.push(`${empty} empty section(s)`);
  if (report.length > 60_000) signs.push(`report of ${report.length} characters`);
  if (result.citations.cited === 0) signs.push('no citations');
  return signs;
}

/**
 * Whether the chat said anything about trouble: an error item, a warning, or a progress note (an
 * `info` item's `progress.code`) about a fall-back, a retry, a wait or a cut.
 */
const saidSo = (items: readonly any[]) =>
  items.some(
    (item) =>
      item.content_type === 'error' ||
      item.level === 'warning' ||
      (item.content_type === 'info' && /fallback|fall_back|degrad|empty|cut|retry|wait|truncat|refus|limit|rules/i.test(String(item.progress?.code ?? ''))),
  );

export async function runFault(lab: Lab, fault: FaultCase, topic: Topic, timeoutMs: number): Promise<FaultResult> {
  resetCounts(lab, topic);
  lab.model.setFault(fault.faults);
  const conversation = await conversationFor(lab, topic);
  try {
    const started = Date.now();
    const replyId = await ask(conversation, topic.question);
    const first = await awaitReply(conversation, replyId, timeoutMs);
    let end = first;
    let items = first.items;
    let retry: FaultResult['retry'] = 'not needed';
    if (first.outcome !== 'completed') {
      const resumed = await resume(conversation);
      if ('refused' in resumed) retry = `refused ${resumed.refused}`;
      else {
        end = await awaitReply(conversation, resumed.replyId, timeoutMs);
        items = [...items, ...end.items];
        retry = end.outcome === 'completed' ? 'completed' : 'failed again';
      }
    }
    const result = await measure(lab, topic, conversation, first.outcome === 'completed' ? first : end, items, Date.now() - started);
    const report = await latestReport(conversation);
    const planned = (items.filter((item) => item.content_type === 'plan').at(-1)?.research_plan ?? []).map((step: any) => String(step?.description ?? step?.content ?? step));
    const signs = first.outcome === 'completed' ? degradation(report?.content ?? null, planned, topic, result) : [];
    const verdict: Verdict = first.outcome !== 'completed' ? 'failed' : signs.length === 0 ? 'completed' : saidSo(first.items) ? 'degraded, said' : 'silently degraded';
    const calls = lab.model.calls.filter((call) => call.status === 200);
    const charged = await chargedTokens(conversation);
    return {
      fault: fault.name,
      task: topic.id,
      verdict,
      outcome: first.outcome,
      ...(first.error && { error: first.error }),
      degraded: signs,
      retry,
      thinkIn: {
        canvas: THINK.test(report?.content ?? '') || THINK.test(report?.title ?? ''),
        title: THINK.test(await sessionTitle(conversation)),
        chat: items.some((item) => THINK.test(JSON.stringify(item))),
      },
      chargedTokens: charged.prompt + charged.completion,
      reportedTokens: calls.filter((call) => call.usageSent).reduce((sum, call) => sum + call.promptTokens + call.completionTokens, 0),
      servedTokens: calls.reduce((sum, call) => sum + call.promptTokens + call.completionTokens, 0),
      result,
    };
  } finally {
    conversation.socket.close();
    lab.model.setFault([]);
  }
}

/** Each fault over one task, the tasks taken in turn so both languages meet the faults; an `everyTask` fault over all of them. */
export async function runFaults(lab: Lab, options: { names?: readonly string[]; only?: readonly string[]; timeoutMs?: number; onResult?: (result: FaultResult) => void } = {}): Promise<FaultResult[]> {
  const topics = TOPICS.filter((topic) => !options.only || options.only.includes(topic.id));
  const cases = FAULTS.filter((fault) => !options.names || options.names.includes(fault.name));
  const results: FaultResult[] = [];
  for (const [index, fault] of cases.entries()) {
    for (const topic of fault.everyTask ? topics : [topics[index % topics.length]!]) {
      const result = await runFault(lab, fault, topic, options.timeoutMs ?? 360_000);
      options.onResult?.(result);
      results.push(result);
    }
  }
  return results;
}

export function faultTable(results: readonly FaultResult[]): string {
  const yes = (value: boolean) => (value ? 'YES' : 'no');
  const rows = results.map((result) => [
    result.fault,
    result.task,
    result.verdict,
    result.degraded.join('; ') || (result.error ? result.error.slice(0, 40) : ''),
    result.retry,
    `${yes(result.thinkIn.canvas)}/${yes(result.thinkIn.title)}/${yes(result.thinkIn.chat)}`,
    `${result.chargedTokens} / ${result.reportedTokens} / ${result.servedTokens}`,
    (result.result.wallMs / 1000).toFixed(1),
  ]);
  const count = (verdict: Verdict) => results.filter((result) => result.verdict === verdict).length;
  const retried = results.filter((result) => result.retry === 'completed').length;
  const failed = count('failed');
  const footer = `\ncompleted ${count('completed')}, failed ${failed} (retried to completion ${retried}), silently degraded ${count('silently degraded')}, degraded and said ${count('degraded, said')} of ${results.length}`;
  return markdownTable(['fault', 'task', 'verdict', 'degraded / error', 'retry', '<think> canvas/title/chat', 'tokens charged / reported / served', 'wall s'], rows) + footer;
}

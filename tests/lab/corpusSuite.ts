/**
 * The corpus suite: each topic's question asked as a user would, the published report scored
 * against the truth, and what the run cost counted at the model and the web.
 */
import { TOPICS, type Page, type Topic } from './corpus.ts';
import { ask, awaitReply, chargedTokens, giveFeedback, latestReport, newUser, openConversation, type Conversation, type Outcome, type ReplyEnd } from './drive.ts';
import type { Lab } from './lab.ts';
import type { CallRecord } from './model.ts';
import { citationSupported, mistakeOutcomes, scoreReport, type CitationScore, type MistakeOutcomes } from './score.ts';

export interface TaskResult {
  task: string;
  /** What the row measures: the first run, or a revision of its report (`--revisions`). */
  stage?: 'continue' | 'feedback';
  language: 'zh' | 'en';
  outcome: Outcome;
  completed: boolean;
  error?: string;
  citations: CitationScore;
  /** Supported / cited; null when nothing was cited. */
  accuracy: number | null;
  mistakesInjected: number;
  /** What became of the injected mistakes in the published report. */
  mistakes: MistakeOutcomes;
  pagesRead: number;
  /** Of the topic's pages, those fetched, by kind (six supporting, one contradicting, one off-subject, one long). */
  readByKind: Record<Page['kind'], number>;
  /** The calls writing the report that were shown the long page's deep fact, by kind: where it was lost when it is not cited. */
  deepFactShown: string[];
  searchRounds: number;
  planSteps: number;
  /** Search rounds beyond one per plan step. */
  followUpSearches: number;
  /** Every web search asked in the question's language. */
  searchLanguageOk: boolean;
  modelCalls: number;
  maxInFlight: number;
  promptTokens: number;
  completionTokens: number;
  chargedPromptTokens: number;
  chargedCompletionTokens: number;
  wallMs: number;
  /** Where the calls and tokens went, by kind of call (plan, judge, reflect, section…). */
  byKind: Record<string, { calls: number; prompt: number; completion: number }>;
}

let users = 0;

/** A fresh user and session for one task, so budgets and usage are the task's own. */
export async function conversationFor(lab: Lab, topic: Topic): Promise<Conversation> {
  users += 1;
  const user = await newUser(lab.product.url, `lab${topic.id}${users}${process.pid}`);
  return openConversation(lab.product.url, user, `lab-${topic.id}-${users}`);
}

/** What a finished reply shows, measured and scored. */
export async function measure(lab: Lab, topic: Topic, conversation: Conversation, end: ReplyEnd, items: readonly any[], wallMs: number): Promise<TaskResult> {
  const report = await latestReport(conversation);
  const citations = scoreReport(report?.content ?? '', topic, lab.pathOf, new Set(lab.web.reads));
  // A mistake that turned out right is none: a wrong source that also says the sentence, or a number past
  // the sources the writer was shown that the report's longer list gives to a page saying it.
  const mistakes = lab.model.mistakes.filter((mistake) => mistake.kind === 'fabricated' || !citationSupported(report?.content ?? '', topic, lab.pathOf, mistake.sentence, mistake.n));
  const of = (type: string) => items.filter((item) => item.content_type === type);
  const planSteps = (of('plan').at(-1)?.research_plan as unknown[] | undefined)?.length ?? 0;
  const searchRounds = of('web_search_queries').length;
  const charged = await chargedTokens(conversation);
  const calls = lab.model.calls;
  const wanted = topic.language === 'zh' ? 'zh-CN' : 'en';
  return {
    task: topic.id,
    language: topic.language,
    outcome: end.outcome,
    completed: end.outcome === 'completed' && report !== null,
    ...(end.error && { error: end.error }),
    citations,
    accuracy: citations.cited === 0 ? null : citations.supported / citations.cited,
    mistakesInjected: mistakes.length,
    mistakes: mistakeOutcomes(report?.content ?? '', mistakes),
    pagesRead: new Set(of('web_browsing_result').filter((item) => item.ok).map((item) => item.url as string)).size,
    readByKind: readByKind(topic, new Set(lab.web.reads)),
    deepFactShown: shownDeepFact(topic, calls),
    searchRounds,
    planSteps,
    followUpSearches: Math.max(0, searchRounds - planSteps),
    searchLanguageOk: lab.web.searches.length > 0 && lab.web.searches.every((search) => search.language === wanted),
    modelCalls: calls.length,
    maxInFlight: lab.model.maxInFlight,
    promptTokens: calls.reduce((sum, call) => sum + (call.status === 200 ? call.promptTokens : 0), 0),
    completionTokens: calls.reduce((sum, call) => sum + (call.status === 200 ? call.completionTokens : 0), 0),
    chargedPromptTokens: charged.prompt,
    chargedCompletionTokens: charged.completion,
    wallMs,
    byKind: calls.reduce<TaskResult['byKind']>((kinds, call) => {
      const kind = (kinds[call.kind] ??= { calls: 0, prompt: 0, completion: 0 });
      kind.calls++;
      if (call.status === 200) {
        kind.prompt += call.promptTokens;
        kind.completion += call.completionTokens;
      }
      return kinds;
    }, {}),
  };
}

/** The topic's pages the product fetched, by kind: which of the pages that matter it reached. */
function readByKind(topic: Topic, reads: ReadonlySet<string>): TaskResult['readByKind'] {
  const count = (kind: Page['kind']) => topic.pages.filter((page) => page.kind === kind && reads.has(page.path)).length;
  return { support: count('support'), contradict: count('contradict'), irrelevant: count('irrelevant'), long: count('long') };
}

function shownDeepFact(topic: Topic, calls: readonly CallRecord[]): string[] {
  const keys = topic.facts.find((fact) => fact.id === topic.deepFact)!.key;
  return calls.filter((call) => call.shown !== undefined && keys.every((key) => call.shown!.includes(key))).map((call) => call.kind);
}

/** Clears what the model and the web counted, so the next task counts only its own, and seeds its mistakes by the task. */
export function resetCounts(lab: Lab, topic: Topic): void {
  lab.model.reset(lab.seed + TOPICS.indexOf(topic));
  lab.web.searches.length = 0;
  lab.web.reads.length = 0;
}

/** What the user asks of a report in a measured revision by feedback, in the question's language. */
const FEEDBACK = { zh: '请补充成本和规模方面的具体数字', en: 'Please add the concrete figures on cost and scale' } as const;

/**
 * One task: the question asked and its report measured; with `revisions`, the report is then taken
 * deeper (继续深入研究) and revised by feedback, each new version measured on its own, the mistakes
 * counted being those the model made in that revision.
 */
export async function runTask(lab: Lab, topic: Topic, timeoutMs: number, revisions = false): Promise<TaskResult[]> {
  resetCounts(lab, topic);
  const conversation = await conversationFor(lab, topic);
  try {
    let started = Date.now();
    const replyId = await ask(conversation, topic.question);
    const end = await awaitReply(conversation, replyId, timeoutMs);
    const results = [await measure(lab, topic, conversation, end, end.items, Date.now() - started)];
    if (!revisions || end.outcome !== 'completed') return results;
    let seen = end.items.length;
    for (const [index, stage] of (['continue', 'feedback'] as const).entries()) {
      // The pages read so far stay counted (a revision's report cites them); calls and mistakes are the revision's own.
      lab.model.reset(lab.seed + TOPICS.indexOf(topic) + 100 * (index + 1));
      started = Date.now();
      await giveFeedback(conversation, stage === 'continue' ? 'continue' : 'manual_feedback', stage === 'feedback' ? FEEDBACK[topic.language] : undefined);
      const revised = await awaitReply(conversation, replyId, timeoutMs, index + 1);
      const items = revised.items.slice(seen);
      seen = revised.items.length;
      results.push({ ...(await measure(lab, topic, conversation, revised, items, Date.now() - started)), stage });
    }
    return results;
  } finally {
    conversation.socket.close();
  }
}

export async function runCorpus(lab: Lab, options: { only?: readonly string[]; timeoutMs?: number; revisions?: boolean; onResult?: (result: TaskResult) => void } = {}): Promise<TaskResult[]> {
  const results: TaskResult[] = [];
  for (const topic of TOPICS.filter((entry) => !options.only || options.only.includes(entry.id))) {
    for (const result of await runTask(lab, topic, options.timeoutMs ?? 180_000, options.revisions)) {
      options.onResult?.(result);
      results.push(result);
    }
  }
  return results;
}

/**
 * The benchmark runner: a task file in DeepResearch Bench's JSONL format (`{"id", "prompt",
 * "language"?, …}`, with a reference report as `article`, `reference` or `reference_report` when the
 * file has one) from a path the user gives, run through the product against the configured model and
 * search, scored by a judge model:
 *
 * - RACE-like: the judge weighs comprehensiveness, insight, instruction following and readability
 *   for each task, then scores the report on each (0–10), beside the reference when there is one.
 *   With a reference a dimension scores target / (target + reference), as RACE does (0.5 = as good
 *   as the reference); without one, target / 10. The task's score is the weighted sum.
 * - FACT-like: every statement–URL pair the report cites is judged against the page's text, read
 *   with the product's own page fetcher (the reader the agent used), so a citation counts as
 *   supported only when the page says it.
 */
import { readFileSync } from 'node:fs';
import { PageFetcher } from '@scriptorium/infra/fetch/fetcher';
import { chatCompletionsUrl } from '@scriptorium/infra/model/openai';
import { ask, awaitReply, grantBudget, latestReport, newUser, openConversation, startLabProduct, type Outcome } from './drive.ts';
import { FACT_PROMPT, RACE_DIMENSIONS, SCORE_PROMPT, WEIGHTS_PROMPT, type RaceDimension } from './judgePrompts.ts';
import { citedSentences, sourceList } from './score.ts';
import { markdownTable } from './summary.ts';

export interface BenchTask {
  id: string;
  prompt: string;
  language?: string;
  reference?: string;
}

export interface Judge {
  baseUrl: string;
  model: string;
  apiKey?: string;
}

export interface BenchResult {
  id: string;
  outcome: Outcome;
  completed: boolean;
  reportChars: number;
  race: { weights: Record<RaceDimension, number>; target: Record<RaceDimension, number>; reference?: Record<RaceDimension, number>; score: number } | null;
  fact: { pairs: number; supported: number; accuracy: number | null };
  wallMs: number;
}

/** Reads a task file; a line that is not a task is an error naming its line. */
export function readTasks(path: string): BenchTask[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line.length > 0)
    .map(({ line, number }) => {
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`${path}:${number}: not JSON`);
      }
      if ((typeof parsed.id !== 'string' && typeof parsed.id !== 'number') || typeof parsed.prompt !== 'string') throw new Error(`${path}:${number}: a task needs "id" and "prompt"`);
      const reference = [parsed.article, parsed.reference, parsed.reference_report].find((value): value is string => typeof value === 'string' && value.length > 0);
      return { id: String(parsed.id), prompt: parsed.prompt, ...(typeof parsed.language === 'string' && { language: parsed.language }), ...(reference && { reference }) };
    });
}

/** One judge call, its JSON answer parsed; null when the judge answered no JSON object. */
async function askJudge(judge: Judge, system: string, user: string): Promise<Record<string, unknown> | null> {
  const response = await fetch(chatCompletionsUrl(judge.baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(judge.apiKey && { authorization: `Bearer ${judge.apiKey}` }) },
    body: JSON.stringify({ model: judge.model, temperature: 0, stream: false, messages: [{ role: 'system', content: system }, { role: 'user', content: user }] }),
    signal: AbortSignal.timeout(300_000),
  });
  if (!response.ok) throw new Error(`the judge answered HTTP ${response.status}: ${(await response.text()).slice(0, 300)}`);
  const body = (await response.json()) as { choices?: Array<{ message?: { content?: string } }> };
  const text = (body.choices?.[0]?.message?.content ?? '').replace(/<think>[\s\S]*?<\/think>/g, '');
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start === -1 || end <= start) return null;
  try {
    return JSON.parse(text.slice(start, end + 1)) as Record<string, unknown>;
  } catch {
    return null;
  }
}

const dimensionsOf = (value: unknown): Record<RaceDimension, number> | null => {
  if (!value || typeof value !== 'object') return null;
  const entries = RACE_DIMENSIONS.map((dimension) => [dimension, Number((value as Record<string, unknown>)[dimension])] as const);
  return entries.every(([, number]) => Number.isFinite(number) && number >= 0) ? (Object.fromEntries(entries) as Record<RaceDimension, number>) : null;
};

export async function race(judge: Judge, task: BenchTask, report: string): Promise<BenchResult['race']> {
  const rawWeights = dimensionsOf(await askJudge(judge, WEIGHTS_PROMPT, task.prompt));
  const total = rawWeights ? RACE_DIMENSIONS.reduce((sum, dimension) => sum + rawWeights[dimension], 0) : 0;
  // A judge that gives no usable weights weighs the dimensions alike.
  const weights = Object.fromEntries(RACE_DIMENSIONS.map((dimension) => [dimension, rawWeights && total > 0 ? rawWeights[dimension] / total : 1 / RACE_DIMENSIONS.length])) as Record<RaceDimension, number>;
  const reports = `<report name="target">${report}</report>${task.reference ? `\n<report name="reference">${task.reference}</report>` : ''}`;
  const scored = await askJudge(judge, SCORE_PROMPT, `Research task:\n${task.prompt}\n\n${reports}`);
  const target = dimensionsOf(scored?.target);
  if (!target) return null;
  const reference = task.reference ? dimensionsOf(scored?.reference) : null;
  const part = (dimension: RaceDimension) => (reference ? target[dimension] / Math.max(1e-9, target[dimension] + reference[dimension]) : target[dimension] / 10);
  const score = RACE_DIMENSIONS.reduce((sum, dimension) => sum + weights[dimension] * part(dimension), 0);
  return { weights, target, ...(reference && { reference }), score: Math.round(score * 1000) / 1000 };
}

/** Statement–URL pairs of a report: each cited sentence without its markers, with each web address it cites. */
export function statementPairs(report: string): Array<{ statement: string; url: string }> {
  const sources = sourceList(report);
  const seen = new Set<string>();
  const pairs: Array<{ statement: string; url: string }> = [];
  for (const { sentence, numbers } of citedSentences(report)) {
    const statement = sentence.replace(/\[\[\d+\]\]\([^)]*\)|\[\d+\]/g, '').trim();
    for (const n of numbers) {
      const url = sources.get(n);
      if (!url || !/^https?:/.test(url) || seen.has(`${statement}\u0000${url}`)) continue;
      seen.add(`${statement}\u0000${url}`);
      pairs.push({ statement, url });
    }
  }
  return pairs;
}

export async function fact(judge: Judge, report: string, fetcher: PageFetcher, maxPairs = 40): Promise<BenchResult['fact']> {
  const pages = new Map<string, Promise<string>>();
  const textOf = (url: string) => {
    if (!pages.has(url)) pages.set(url, fetcher.fetch(url).then((page) => page.text, () => ''));
    return pages.get(url)!;
  };
  let supported = 0;
  const pairs = statementPairs(report).slice(0, maxPairs);
  for (const pair of pairs) {
    const text = await textOf(pair.url);
    // A page that cannot be read supports nothing, as a reader following the link would find.
    if (!text) continue;
    const verdict = await askJudge(judge, FACT_PROMPT, `<statement>${pair.statement}</statement>\n<page>${text.slice(0, 20_000)}</page>`);
    if (verdict?.supported === true) supported++;
  }
  return { pairs: pairs.length, supported, accuracy: pairs.length === 0 ? null : Math.round((supported / pairs.length) * 1000) / 1000 };
}

export interface BenchOptions {
  /** The product's model, search and fetch settings; by default the lab's own environment's. */
  env?: Record<string, string>;
  judge?: Judge;
  timeoutMs?: number;
  onResult?: (result: BenchResult) => void;
  log?: (line: string) => void;
}

const fromEnvironment = (names: readonly string[]) => Object.fromEntries(names.flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])));

export async function runBenchmark(path: string, options: BenchOptions = {}): Promise<BenchResult[]> {
  const tasks = readTasks(path);
  const env = options.env ?? fromEnvironment(['LLM_BASE_URL', 'LLM_API_KEY', 'LLM_MODEL', 'SEARCH_URL', 'FETCH_ALLOW_HOSTS']);
  if (!env.LLM_BASE_URL) throw new Error('set LLM_BASE_URL (and LLM_MODEL, LLM_API_KEY, SEARCH_URL) to the model and search to evaluate');
  const judge = options.judge ?? (process.env.JUDGE_BASE_URL && process.env.JUDGE_MODEL ? { baseUrl: process.env.JUDGE_BASE_URL, model: process.env.JUDGE_MODEL, ...(process.env.JUDGE_API_KEY && { apiKey: process.env.JUDGE_API_KEY }) } : null);
  if (!judge) throw new Error('set JUDGE_BASE_URL and JUDGE_MODEL (and JUDGE_API_KEY) to the judge model');
  const admin = { username: 'benchadmin', password: 'bench admin password' };
  const product = await startLabProduct({ ...env, ADMIN_USERNAME: admin.username, ADMIN_PASSWORD: admin.password });
  const fetcher = new PageFetcher({ allowHosts: (env.FETCH_ALLOW_HOSTS ?? '').split(/[\s,]+/).filter(Boolean) });
  const results: BenchResult[] = [];
  try {
    for (const [index, task] of tasks.entries()) {
      options.log?.(`task ${task.id} (${index + 1}/${tasks.length})`);
      const user = await newUser(product.url, `bench${index}${process.pid}${Date.now() % 100_000}`);
      // A benchmark task may cost more than a new account's day: 2,000 coins is two million tokens at the default rate.
      await grantBudget(product.url, admin, user.id, 2000);
      const conversation = await openConversation(product.url, user, `bench-${index}`);
      try {
        const started = Date.now();
        const end = await awaitReply(conversation, await ask(conversation, task.prompt), options.timeoutMs ?? 30 * 60_000);
        const wallMs = Date.now() - started;
        const report = (await latestReport(conversation))?.content ?? '';
        const completed = end.outcome === 'completed' && report.length > 0;
        const result: BenchResult = {
          id: task.id,
          outcome: end.outcome,
          completed,
          reportChars: report.length,
          race: completed ? await race(judge, task, report) : null,
          fact: completed ? await fact(judge, report, fetcher) : { pairs: 0, supported: 0, accuracy: null },
          wallMs,
        };
        options.onResult?.(result);
        results.push(result);
      } finally {
        conversation.socket.close();
      }
    }
  } finally {
    await fetcher.close();
    await product.stop();
  }
  return results;
}

export function benchTable(results: readonly BenchResult[]): string {
  const rows = results.map((result) => [
    result.id,
    result.completed ? 'yes' : result.outcome,
    result.race ? result.race.score.toFixed(3) : '—',
    result.race ? RACE_DIMENSIONS.map((dimension) => result.race!.target[dimension]).join('/') : '—',
    result.fact.accuracy === null ? '—' : `${Math.round(result.fact.accuracy * 100)}% (${result.fact.supported}/${result.fact.pairs})`,
    String(result.fact.supported),
    String(result.reportChars),
    (result.wallMs / 1000).toFixed(1),
  ]);
  const scored = results.filter((result) => result.race);
  const pairs = results.reduce((sum, result) => sum + result.fact.pairs, 0);
  const supported = results.reduce((sum, result) => sum + result.fact.supported, 0);
  rows.push([
    'mean',
    `${results.filter((result) => result.completed).length}/${results.length}`,
    scored.length ? (scored.reduce((sum, result) => sum + result.race!.score, 0) / scored.length).toFixed(3) : '—',
    '',
    pairs ? `${Math.round((supported / pairs) * 100)}% (${supported}/${pairs})` : '—',
    results.length ? (supported / results.length).toFixed(1) : '—',
    '',
    '',
  ]);
  return markdownTable(['task', 'done', 'RACE', 'comp/insight/instr/read', 'FACT accuracy', 'effective citations', 'report chars', 'wall s'], rows);
}

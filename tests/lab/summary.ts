/** The corpus suite's totals, its table, and the comparison with the stored baseline. */
import type { TaskResult } from './corpusSuite.ts';

export interface Summary {
  tasks: number;
  completed: number;
  cited: number;
  supported: number;
  accuracy: number | null;
  effective: number;
  dangling: number;
  fabricated: number;
  misattributed: number;
  citedUnread: number;
  mistakesInjected: number;
  mistakesRepaired: number;
  mistakesMarked: number;
  mistakesPublished: number;
  /** Citations marked as unverified, and of those the correct ones. */
  marked: number;
  correctMarked: number;
  deepFactCited: number;
  /** Tasks whose deep fact was shown to a call writing the report, cited or not. */
  deepFactShown: number;
  contradictionReported: number;
  /** Facts cited in more than one section of their report, the summary aside. */
  repeated: number;
  pagesRead: number;
  searchRounds: number;
  followUpSearches: number;
  searchLanguageOk: number;
  modelCalls: number;
  maxInFlight: number;
  promptTokens: number;
  completionTokens: number;
  wallMs: number;
}

export function summarise(results: readonly TaskResult[]): Summary {
  const sum = (pick: (result: TaskResult) => number) => results.reduce((total, result) => total + pick(result), 0);
  const cited = sum((result) => result.citations.cited);
  const supported = sum((result) => result.citations.supported);
  return {
    tasks: results.length,
    completed: sum((result) => (result.completed ? 1 : 0)),
    cited,
    supported,
    accuracy: cited === 0 ? null : Math.round((supported / cited) * 1000) / 1000,
    effective: sum((result) => result.citations.effective),
    dangling: sum((result) => result.citations.dangling),
    fabricated: sum((result) => result.citations.fabricated),
    misattributed: sum((result) => result.citations.misattributed),
    citedUnread: sum((result) => result.citations.citedUnread),
    mistakesInjected: sum((result) => result.mistakesInjected),
    mistakesRepaired: sum((result) => result.mistakes.repaired),
    mistakesMarked: sum((result) => result.mistakes.marked),
    mistakesPublished: sum((result) => result.mistakes.published),
    marked: sum((result) => result.citations.marked),
    correctMarked: sum((result) => result.citations.correctMarked),
    deepFactCited: sum((result) => (result.citations.deepFactCited ? 1 : 0)),
    deepFactShown: sum((result) => (result.deepFactShown.length > 0 ? 1 : 0)),
    contradictionReported: sum((result) => (result.citations.contradictionReported ? 1 : 0)),
    repeated: sum((result) => result.citations.repeated),
    pagesRead: sum((result) => result.pagesRead),
    searchRounds: sum((result) => result.searchRounds),
    followUpSearches: sum((result) => result.followUpSearches),
    searchLanguageOk: sum((result) => (result.searchLanguageOk ? 1 : 0)),
    modelCalls: sum((result) => result.modelCalls),
    maxInFlight: Math.max(0, ...results.map((result) => result.maxInFlight)),
    promptTokens: sum((result) => result.promptTokens),
    completionTokens: sum((result) => result.completionTokens),
    wallMs: sum((result) => result.wallMs),
  };
}

const pct = (value: number | null) => (value === null ? '—' : `${Math.round(value * 100)}%`);

/** A plain-text table: one row per task and a total. */
export function table(results: readonly TaskResult[]): string {
  const header = ['task', 'lang', 'done', 'accuracy', 'effective', 'dangling', 'fabricated', 'misattr.', 'mistakes fixed/marked/published', 'correct marked', 'cited unread', 'deep fact', 'repeated', 'pages read', 'searches', 'follow-ups', 'search lang', 'model calls', 'in flight', 'prompt tok', 'compl. tok', 'wall s'];
  const row = (result: TaskResult) => [
    result.task,
    result.language,
    result.completed ? 'yes' : result.outcome,
    `${pct(result.accuracy)} (${result.citations.supported}/${result.citations.cited})`,
    String(result.citations.effective),
    String(result.citations.dangling),
    String(result.citations.fabricated),
    String(result.citations.misattributed),
    `${result.mistakes.repaired}/${result.mistakes.marked}/${result.mistakes.published} of ${result.mistakesInjected}`,
    `${result.citations.correctMarked}/${result.citations.supported}`,
    String(result.citations.citedUnread),
    result.citations.deepFactCited ? 'yes' : result.deepFactShown.length > 0 ? 'shown' : 'no',
    String(result.citations.repeated),
    String(result.pagesRead),
    String(result.searchRounds),
    String(result.followUpSearches),
    result.searchLanguageOk ? 'ok' : 'wrong',
    String(result.modelCalls),
    String(result.maxInFlight),
    String(result.promptTokens),
    String(result.completionTokens),
    (result.wallMs / 1000).toFixed(1),
  ];
  const total = summarise(results);
  const totals = [
    'total',
    '',
    `${total.completed}/${total.tasks}`,
    `${pct(total.accuracy)} (${total.supported}/${total.cited})`,
    String(total.effective),
    String(total.dangling),
    String(total.fabricated),
    String(total.misattributed),
    `${total.mistakesRepaired}/${total.mistakesMarked}/${total.mistakesPublished} of ${total.mistakesInjected}`,
    `${total.correctMarked}/${total.supported}`,
    String(total.citedUnread),
    `${total.deepFactCited}/${total.tasks} (shown ${total.deepFactShown})`,
    String(total.repeated),
    String(total.pagesRead),
    String(total.searchRounds),
    String(total.followUpSearches),
    `${total.searchLanguageOk}/${total.tasks}`,
    String(total.modelCalls),
    String(total.maxInFlight),
    String(total.promptTokens),
    String(total.completionTokens),
    (total.wallMs / 1000).toFixed(1),
  ];
  return markdownTable(header, [...results.map(row), totals]);
}

export function markdownTable(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((title, index) => Math.max(title.length, ...rows.map((row) => (row[index] ?? '').length)));
  const line = (cells: readonly string[]) => `| ${cells.map((cell, index) => cell.padEnd(widths[index]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/**
 * What counts as worse than the baseline, and by how much it may move before it does: the figures
 * the truth fixes (citations, completion) tightly, tokens loosely; wall time and calls in flight not
 * at all, since they follow the machine's load and are meant to change. Pages read and the long
 * page's fact move between runs of one commit (30–39 pages, the fact in 2 or 3 tasks, measured in
 * session 17): steps researched side by side leave to one another the pages they read first, so
 * which step reads which page, and which chunks each section is given, follows their timing.
 */
const RULES: Array<{ key: keyof Summary; better: 'higher' | 'lower'; slack: (base: number) => number }> = [
  { key: 'completed', better: 'higher', slack: () => 0 },
  { key: 'accuracy', better: 'higher', slack: () => 0.05 },
  { key: 'effective', better: 'higher', slack: (base) => Math.ceil(base * 0.1) },
  { key: 'dangling', better: 'lower', slack: () => 1 },
  { key: 'fabricated', better: 'lower', slack: () => 1 },
  { key: 'misattributed', better: 'lower', slack: () => 1 },
  { key: 'mistakesPublished', better: 'lower', slack: () => 1 },
  { key: 'correctMarked', better: 'lower', slack: () => 1 },
  { key: 'citedUnread', better: 'lower', slack: (base) => Math.max(1, Math.ceil(base * 0.2)) },
  { key: 'deepFactCited', better: 'higher', slack: () => 1 },
  { key: 'deepFactShown', better: 'higher', slack: () => 1 },
  { key: 'repeated', better: 'lower', slack: () => 1 },
  { key: 'pagesRead', better: 'higher', slack: (base) => Math.ceil(base * 0.2) },
  { key: 'searchLanguageOk', better: 'higher', slack: () => 0 },
  { key: 'promptTokens', better: 'lower', slack: (base) => Math.ceil(base * 0.25) },
  { key: 'completionTokens', better: 'lower', slack: (base) => Math.ceil(base * 0.25) },
];

export interface Regression {
  key: string;
  baseline: number;
  now: number;
}

export function regressions(baseline: Summary, now: Summary): Regression[] {
  const found: Regression[] = [];
  for (const rule of RULES) {
    const base = baseline[rule.key];
    const value = now[rule.key];
    if (typeof base !== 'number' || typeof value !== 'number') {
      if (base !== null && value === null) found.push({ key: rule.key, baseline: Number(base), now: Number.NaN });
      continue;
    }
    const worse = rule.better === 'higher' ? value < base - rule.slack(base) : value > base + rule.slack(base);
    if (worse) found.push({ key: rule.key, baseline: base, now: value });
  }
  return found;
}

/**
 * Scores a published report against the corpus's truth. Each `[n]` after a sentence is one
 * citation: supported when the sentence states a fact the cited page supports, or (for a sentence
 * that states none of the truth's facts) when the cited page says it word for word; misattributed
 * when another page says it; fabricated when no page does; dangling when `n` is not in the report's
 * source list.
 */
import { PAGES, pageText, type Topic } from './corpus.ts';
import { normalise, sentencesOf } from './text.ts';

export interface CitationScore {
  cited: number;
  supported: number;
  misattributed: number;
  fabricated: number;
  dangling: number;
  /** Distinct facts of the truth cited to a page that supports them. */
  effective: number;
  /** Citations of pages the product never fetched (it had only their search snippet). */
  citedUnread: number;
  /** The fact only the long page holds, past its 3,000th character, is cited. */
  deepFactCited: boolean;
  /** The contradicting claim appears in the report. */
  contradictionReported: boolean;
}

const SOURCES_HEADING = /^##\s+(参考来源|Sources)\s*$/m;

/** The report's numbered source list: number to address. */
export function sourceList(report: string): Map<number, string> {
  const list = new Map<number, string>();
  const at = report.search(SOURCES_HEADING);
  if (at === -1) return list;
  for (const line of report.slice(at).split('\n')) {
    const entry = /^(\d+)\.\s+\[.*\]\((\S+)\)\s*$/.exec(line.trim());
    if (entry) list.set(Number(entry[1]), entry[2]!);
  }
  return list;
}

/** Each cited sentence of the report's body with the numbers it cites. */
export function citedSentences(report: string): Array<{ sentence: string; numbers: number[] }> {
  const at = report.search(SOURCES_HEADING);
  const body = at === -1 ? report : report.slice(0, at);
  const lines = body.split('\n').filter((line) => !/^#/.test(line.trim()));
  const found: Array<{ sentence: string; numbers: number[] }> = [];
  for (const sentence of sentencesOf(lines.join('\n'))) {
    const numbers = [...sentence.matchAll(/\[\[(\d+)\]\]\([^)]*\)|(?<!\[)\[(\d+)\](?!\()/g)].map((match) => Number(match[1] ?? match[2]));
    if (numbers.length > 0) found.push({ sentence, numbers });
  }
  return found;
}

const contains = (text: string, phrase: string) => normalise(text).includes(normalise(phrase));

export function scoreReport(report: string, topic: Topic, pathOf: (url: string) => string | null, read: ReadonlySet<string>): CitationScore {
  const sources = sourceList(report);
  const score: CitationScore = { cited: 0, supported: 0, misattributed: 0, fabricated: 0, dangling: 0, effective: 0, citedUnread: 0, deepFactCited: false, contradictionReported: false };
  const effective = new Set<string>();
  const corpus = [...PAGES.values()];
  for (const { sentence, numbers } of citedSentences(report)) {
    const core = normalise(sentence);
    if (topic.contradiction.key.every((phrase) => contains(sentence, phrase))) score.contradictionReported = true;
    const facts = topic.facts.filter((fact) => fact.key.every((phrase) => contains(sentence, phrase)));
    for (const n of numbers) {
      score.cited++;
      const url = sources.get(n);
      if (url === undefined) {
        score.dangling++;
        continue;
      }
      const path = pathOf(url);
      if (path !== null && !read.has(path)) score.citedUnread++;
      const page = path === null ? undefined : PAGES.get(path);
      let supported: boolean;
      if (facts.length > 0) supported = path !== null && facts.some((fact) => fact.supportedBy.includes(path));
      else supported = page !== undefined && normalise(pageText(page)).includes(core);
      if (supported) {
        score.supported++;
        for (const fact of facts) {
          if (path !== null && fact.supportedBy.includes(path)) {
            effective.add(fact.id);
            if (fact.id === topic.deepFact) score.deepFactCited = true;
          }
        }
      } else if (facts.length > 0 || corpus.some((other) => normalise(pageText(other)).includes(core))) {
        score.misattributed++;
      } else {
        score.fabricated++;
      }
    }
  }
  score.effective = effective.size;
  return score;
}

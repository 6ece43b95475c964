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
  /** Facts of the truth cited in more than one section, the summary aside: a section restating another's figure instead of saying something of its own. */
  repeated: number;
  /** Citations the product marked as unverified in the text, and of those the ones that were right. */
  marked: number;
  correctMarked: number;
}

/** The product's mark on a claim its source does not support (`⚠〔待核实：…〕`, `⚠ (unverified: …)`). */
export const MARK = /⚠〔待核实：[^〕]*〕|⚠ \(unverified: [^)]*\)/gu;

const SOURCES_HEADING = /^##\s+(参考来源|Sources)\s*$/m;
const SUMMARY_HEADING = /^##\s+(摘要|Summary)\s*$/;

/** The report without its source list. */
const bodyOf = (report: string) => {
  const at = report.search(SOURCES_HEADING);
  return at === -1 ? report : report.slice(0, at);
};

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

/** Each cited sentence of the report's body with the numbers it cites, its mark taken out and noted. */
export function citedSentences(report: string): Array<{ sentence: string; numbers: number[]; marked: boolean }> {
  const body = bodyOf(report);
  const lines = body.split('\n').filter((line) => !/^#/.test(line.trim()));
  const found: Array<{ sentence: string; numbers: number[]; marked: boolean }> = [];
  for (const written of sentencesOf(lines.join('\n'))) {
    const sentence = written.replace(MARK, '');
    const numbers = [...sentence.matchAll(/\[\[(\d+)\]\]\([^)]*\)|(?<!\[)\[(\d+)\](?!\()/g)].map((match) => Number(match[1] ?? match[2]));
    if (numbers.length > 0) found.push({ sentence, numbers, marked: sentence !== written });
  }
  return found;
}

const contains = (text: string, phrase: string) => normalise(text).includes(normalise(phrase));

/** The facts of the truth a sentence states: every phrase of a fact's key is in it. */
const factsStated = (topic: Topic, sentence: string) => topic.facts.filter((fact) => fact.key.every((phrase) => contains(sentence, phrase)));

/** How many of the truth's facts are cited in two or more of the report's sections, the summary aside. */
export function repeatedFacts(report: string, topic: Topic): number {
  const body = bodyOf(report);
  const sections = body.split(/^(?=## )/m).filter((section) => !SUMMARY_HEADING.test(section.split('\n')[0]!.trim()));
  const sectionsCiting = new Map<string, number>();
  for (const section of sections) {
    const cited = new Set(citedSentences(section).flatMap(({ sentence }) => factsStated(topic, sentence).map((fact) => fact.id)));
    for (const id of cited) sectionsCiting.set(id, (sectionsCiting.get(id) ?? 0) + 1);
  }
  return [...sectionsCiting.values()].filter((count) => count > 1).length;
}

/** Whether the page at `path` supports the sentence: states a fact of the truth it names, or, for no such fact, says the sentence word for word. */
function supports(topic: Topic, facts: readonly Topic['facts'][number][], core: string, path: string | null): boolean {
  if (path === null) return false;
  if (facts.length > 0) return facts.some((fact) => fact.supportedBy.includes(path));
  const page = PAGES.get(path);
  return page !== undefined && normalise(pageText(page)).includes(core);
}

/**
 * Whether the report's source `n` supports `sentence` by the truth: a citation the scripted model
 * meant as a mistake (pointing at a source whose excerpt it was given lacks the sentence) may cite a
 * page that says it all the same, and is then no mistake.
 */
export function citationSupported(report: string, topic: Topic, pathOf: (url: string) => string | null, sentence: string, n: number): boolean {
  const url = sourceList(report).get(n);
  if (url === undefined) return false;
  const facts = factsStated(topic, sentence);
  return supports(topic, facts, normalise(sentence), pathOf(url));
}

export function scoreReport(report: string, topic: Topic, pathOf: (url: string) => string | null, read: ReadonlySet<string>): CitationScore {
  const sources = sourceList(report);
  const score: CitationScore = { cited: 0, supported: 0, misattributed: 0, fabricated: 0, dangling: 0, effective: 0, citedUnread: 0, deepFactCited: false, contradictionReported: false, repeated: repeatedFacts(report, topic), marked: 0, correctMarked: 0 };
  const effective = new Set<string>();
  const corpus = [...PAGES.values()];
  for (const { sentence, numbers, marked } of citedSentences(report)) {
    const core = normalise(sentence);
    if (topic.contradiction.key.every((phrase) => contains(sentence, phrase))) score.contradictionReported = true;
    const facts = factsStated(topic, sentence);
    for (const n of numbers) {
      score.cited++;
      if (marked) score.marked++;
      const url = sources.get(n);
      if (url === undefined) {
        score.dangling++;
        continue;
      }
      const path = pathOf(url);
      if (path !== null && !read.has(path)) score.citedUnread++;
      if (supports(topic, facts, core, path)) {
        score.supported++;
        if (marked) score.correctMarked++;
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

export interface MistakeOutcomes {
  /** The mistake is gone: its sentence no longer cites the wrong number (taken out, pointed elsewhere or rewritten). */
  repaired: number;
  /** Still citing the wrong number, marked as unverified. */
  marked: number;
  /** Still citing the wrong number, unmarked. */
  published: number;
}

/** What became of each mistake the scripted model made, in the published report. */
export function mistakeOutcomes(report: string, mistakes: ReadonlyArray<{ n: number; sentence: string }>): MistakeOutcomes {
  const sentences = citedSentences(report);
  const outcomes: MistakeOutcomes = { repaired: 0, marked: 0, published: 0 };
  for (const mistake of mistakes) {
    const core = normalise(mistake.sentence);
    const still = sentences.filter((entry) => entry.numbers.includes(mistake.n) && normalise(entry.sentence) === core);
    if (still.length === 0) outcomes.repaired++;
    else if (still.every((entry) => entry.marked)) outcomes.marked++;
    else outcomes.published++;
  }
  return outcomes;
}

/**
 * How the offline engine fills a report: every sentence of the sources that is about the subject
 * goes to the one section it fits best, so sections do not repeat each other and none takes all
 * the good sentences merely by coming first.
 */
import type { Source } from './sources.ts';
import { aboutThePage, clip, coverage, headingLike, sentenceKey, sentencesOf, termsOf, type Language } from './text.ts';

export interface ExtractSection {
  /** What the section is about, beyond the report's subject (a plan step, the user's feedback). */
  focus: string;
  /** The sources this section may quote (those its search round found); all when absent. */
  sources?: ReadonlySet<number>;
}

export interface Extract {
  sentence: string;
  n: number;
}

const PER_SECTION = 4;
const SENTENCES_PER_SOURCE = 400;

/**
 * Quotes for each section, at most four. A sentence goes to the eligible section whose focus it
 * covers best; when no focus tells them apart, to the one with the fewest quotes so far.
 * `used` holds sentences already in the report and receives the ones picked here.
 */
export function assignExtracts(sources: readonly Source[], subject: string, sections: readonly ExtractSection[], used: Set<string>): Extract[][] {
  const subjectTerms = termsOf(subject);
  const subjectSet = new Set(subjectTerms);
  // The subject's own terms are in every step's wording; only the rest says what a section is about.
  const focusTerms = sections.map((section) => termsOf(section.focus).filter((term) => !subjectSet.has(term)));
  const candidates: Array<Extract & { relevance: number; order: number }> = [];
  for (const source of sources) {
    sentencesOf(source.text)
      .slice(0, SENTENCES_PER_SOURCE)
      .forEach((sentence, order) => {
        const relevance = coverage(subjectTerms, sentence);
        if (relevance > 0 && !headingLike(sentence) && !aboutThePage(sentence)) candidates.push({ sentence, n: source.n, relevance, order });
      });
  }
  candidates.sort((a, b) => b.relevance - a.relevance || a.n - b.n || a.order - b.order);
  const assigned: Array<Array<Extract & { fit: number; relevance: number }>> = sections.map(() => []);
  for (const candidate of candidates) {
    const key = sentenceKey(candidate.sentence);
    if (used.has(key)) continue;
    let best = -1;
    let bestFit = -1;
    sections.forEach((section, index) => {
      if (section.sources && !section.sources.has(candidate.n)) return;
      if (assigned[index]!.length >= PER_SECTION) return;
      const fit = coverage(focusTerms[index]!, candidate.sentence);
      if (fit > bestFit || (fit === bestFit && assigned[index]!.length < assigned[best]!.length)) {
        best = index;
        bestFit = fit;
      }
    });
    if (best === -1) continue;
    used.add(key);
    assigned[best]!.push({ sentence: candidate.sentence, n: candidate.n, fit: bestFit, relevance: candidate.relevance });
  }
  return assigned.map((picks) => picks.sort((a, b) => b.fit - a.fit || b.relevance - a.relevance).map(({ sentence, n }) => ({ sentence, n })));
}

/** A section's quotes as a list, each with its citation marker. */
export function extractText(picks: readonly Extract[], language: Language): string {
  if (picks.length === 0) return language === 'zh' ? '资料中没有找到与这一部分直接相关的内容。' : 'The sources say nothing directly about this part.';
  return picks
    .map((pick) => {
      const sentence = clip(pick.sentence, 220);
      const gap = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]$/u.test(sentence) ? '' : ' ';
      return `- ${sentence}${gap}[${pick.n}]`;
    })
    .join('\n');
}

/**
 * Checking a written section's citations against the sources they name, on the text alone: which
 * sentences cite what, whether source n says what its sentence claims (its figures and names
 * present, its key terms in one passage; Han text as character bigrams), and the section rebuilt
 * with dangling numbers taken out, claims pointed at the source that says them, rewritten, or
 * visibly marked. What the text cannot settle is left `weak` for a model to judge.
 */
import type { CitationCheck, CitationVerdict } from '@scriptorium/domain/protocol/research';
import { clip, sentencesOf, termsOf, type Language } from './text.ts';

/** `[[n]](url)` as the report links it, or `[n]` / `[n, m]` as a model writes it. */
const MARKER = /\[\[(\d+)\]\]\([^)\s]*\)|(?<!\[)\[(\d+(?:\s*[,，、]\s*\d+)*)\](?![\](])/g;
const SENTENCE_END = /[。！？!?]+["”’」』）)]*|\.(?=\s|$)["”’)]*|\n/g;

/** The note an unsupported claim carries in the text, in either language: how readers (and the lab) know it. */
export const MARK_PATTERN = /⚠〔待核实：[^〕]*〕|⚠ \(unverified: [^)]*\)/gu;

export interface Marker {
  start: number;
  end: number;
  numbers: number[];
}

export interface CitedSentence {
  /** Where the sentence starts and ends in the text, its citation markers included. */
  start: number;
  end: number;
  /** What it claims: the sentence without its markers, marks and emphasis. */
  claim: string;
  markers: Marker[];
}

/**
 * The sentences of `text` that cite a source. A marker right after a sentence's end (`…增长。[1]`,
 * `growth. [1]`) belongs to that sentence, as readers take it.
 */
export const citedSentences = (text: string): CitedSentence[] => everySentence(text).filter((sentence) => sentence.markers.length > 0);

/** Every sentence of `text`, citing or not (one whose every number was taken out still has its checks). */
export function everySentence(text: string): CitedSentence[] {
  const markers = markersIn(text);
  const sentences: CitedSentence[] = [];
  let start = 0;
  for (const end of sentenceEnds(text, markers)) {
    if (end <= start) continue;
    const lead = /^\s*/.exec(text.slice(start, end))![0].length;
    if (start + lead < end) sentences.push({ start: start + lead, end, claim: claimOf(text.slice(start + lead, end)), markers: markers.filter((marker) => marker.start >= start && marker.end <= end) });
    start = end;
  }
  return sentences;
}

/** The whole sentences of `text` that hold any of `from`..`to` (what an edit there touched), as one span. */
export function sentencesAround(text: string, from: number, to: number): { start: number; end: number } {
  const ends = sentenceEnds(text, markersIn(text));
  return { start: ends.findLast((end) => end <= from) ?? 0, end: ends.find((end) => end >= to) ?? text.length };
}

function markersIn(text: string): Marker[] {
  return [...text.matchAll(MARKER)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    numbers: (match[1] ?? match[2]!).split(/\s*[,，、]\s*/).map(Number),
  }));
}

/** Where the sentences of `text` end, each taking the markers written right after it. */
function sentenceEnds(text: string, markers: readonly Marker[]): number[] {
  // Markers hide their brackets and addresses from the sentence ends.
  let masked = text;
  for (const marker of markers) masked = masked.slice(0, marker.start) + ' '.repeat(marker.end - marker.start) + masked.slice(marker.end);
  const ends: number[] = [];
  for (const match of masked.matchAll(SENTENCE_END)) {
    let end = match.index + match[0].length;
    for (;;) {
      const gap = /^[ \t]*/.exec(text.slice(end))![0].length;
      const next = markers.find((marker) => marker.start === end + gap);
      if (!next) break;
      end = next.end;
    }
    if (ends.at(-1) !== end) ends.push(end);
  }
  if (ends.at(-1) !== text.length) ends.push(text.length);
  return ends;
}

/** The source numbers a text cites. */
export const citedNumbers = (text: string): Set<number> => new Set(citedSentences(text).flatMap((sentence) => sentence.markers.flatMap((marker) => marker.numbers)));

const claimOf = (sentence: string) =>
  sentence
    .replace(MARKER, '')
    .replace(MARK_PATTERN, '')
    .replace(/^#{1,6}\s+|[*_`]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();

const withoutSeparators = (text: string) => text.replace(/(\d),(?=\d{3}(?!\d))/g, '$1');

/** Figures as written, thousands separators dropped (`1,200` is `1200`); a lone digit says too little to check. */
const figuresOf = (text: string) => [...new Set((withoutSeparators(text).match(/\d+(?:\.\d+)?%?/g) ?? []).filter((figure) => figure.length > 1).map((figure) => figure.replace('%', '')))];

/** Latin names: a capitalised word past the sentence's first, or an acronym anywhere. */
function namesOf(claim: string): string[] {
  const words = claim.match(/[A-Za-z][A-Za-z0-9-]*/g) ?? [];
  return [...new Set(words.filter((word, index) => /^[A-Z]{2,}[0-9-]*$/.test(word) || (index > 0 && /^[A-Z][a-z]/.test(word))))];
}

const hasFigure = (text: string, figure: string) => new RegExp(`(?<![\\d.])${figure.replace('.', '\\.')}(?!\\d|\\.\\d)`).test(withoutSeparators(text));

/** A source's text cut into passages of up to three sentences, each with its terms: what a claim is matched against. */
export interface Passages {
  passages: Array<{ text: string; terms: Set<string> }>;
  text: string;
}

export function passagesOf(text: string): Passages {
  const sentences = sentencesOf(text).map((sentence) => ({ text: sentence, terms: termsOf(withoutSeparators(sentence)) }));
  const passages: Passages['passages'] = [];
  for (let at = 0; at < sentences.length; at++) {
    const window = sentences.slice(at, at + 3);
    passages.push({ text: window.map((sentence) => sentence.text).join(' '), terms: new Set(window.flatMap((sentence) => sentence.terms)) });
  }
  return { passages, text };
}

export interface Support {
  verdict: Exclude<CitationVerdict, 'dangling'>;
  /** The passage that bears most on the claim. */
  excerpt: string;
  /** The claim's figures and names the source does not have. */
  missing: string[];
  /** Share of the claim's terms in that passage. */
  coverage: number;
}

/** At least this share of a claim's terms in one passage, its figures and names in the source: supported. */
export const SUPPORTED_COVERAGE = 0.7;
/** Under this share, or a figure the source lacks: unsupported. Between the two: weak, for a model to judge. */
export const WEAK_COVERAGE = 0.35;
const EXCERPT_CHARS = 320;

/** Whether a source's text says what a claim says, on the text alone. */
export function support(claim: string, source: Passages): Support {
  // A source whose text was never stored (a report older than stored pages) cannot say no: left for a reader, never marked.
  if (source.passages.length === 0) return { verdict: 'weak', excerpt: '', missing: [], coverage: 0 };
  const figures = figuresOf(claim);
  const names = namesOf(claim);
  const lower = source.text.toLowerCase();
  const missingFigures = figures.filter((figure) => !hasFigure(source.text, figure));
  const missingNames = names.filter((name) => !lower.includes(name.toLowerCase()));
  const terms = [...new Set(termsOf(withoutSeparators(claim)))];
  let best = { text: '', coverage: 0, figures: 0 };
  for (const passage of source.passages) {
    const coverage = terms.length === 0 ? 0 : terms.filter((term) => passage.terms.has(term)).length / terms.length;
    const found = figures.filter((figure) => hasFigure(passage.text, figure)).length;
    if (coverage + 0.1 * found > best.coverage + 0.1 * best.figures) best = { text: passage.text, coverage, figures: found };
  }
  const missing = [...missingFigures, ...missingNames];
  const excerpt = clip(best.text, EXCERPT_CHARS);
  if (missingFigures.length > 0 || best.coverage < WEAK_COVERAGE) return { verdict: 'unsupported', excerpt, missing, coverage: best.coverage };
  if (best.coverage >= SUPPORTED_COVERAGE && missingNames.length === 0) return { verdict: 'supported', excerpt, missing, coverage: best.coverage };
  return { verdict: 'weak', excerpt, missing, coverage: best.coverage };
}

/** One citation of a section as the text test left it: what it cites, and what another source or a model may change. */
export interface Finding {
  sentence: number;
  n: number;
  verdict: CitationVerdict;
  excerpt: string;
  missing: string[];
  /** Another source that says the claim, for a dangling or unsupported number. */
  instead?: number;
  /** The sentence claims nothing, only its number is left (its words edited away): the number goes too. */
  bare?: true;
}

/**
 * The text test over a section: each cited number of each sentence, with the source that says the
 * claim instead when the cited one does not (or does not exist) and another plainly does.
 */
export function findings(sentences: readonly CitedSentence[], sources: ReadonlyMap<number, Passages>): Finding[] {
  const out: Finding[] = [];
  sentences.forEach((sentence, index) => {
    const cited = [...new Set(sentence.markers.flatMap((marker) => marker.numbers))];
    for (const n of cited) {
      if (!/[\p{L}\p{N}]/u.test(sentence.claim)) {
        out.push({ sentence: index, n, verdict: 'unsupported', excerpt: '', missing: [], bare: true });
        continue;
      }
      const source = sources.get(n);
      const found = source ? support(sentence.claim, source) : null;
      const finding: Finding = found ? { sentence: index, n, verdict: found.verdict, excerpt: found.excerpt, missing: found.missing } : { sentence: index, n, verdict: 'dangling', excerpt: '', missing: [] };
      if (finding.verdict === 'dangling' || finding.verdict === 'unsupported') {
        const instead = [...sources].find(([other, passages]) => other !== n && !cited.includes(other) && support(sentence.claim, passages).verdict === 'supported');
        if (instead) finding.instead = instead[0];
      }
      out.push(finding);
    }
  });
  return out;
}

/** What a model (or nothing) decided about a finding the text could not settle. */
export interface Ruling {
  supported: boolean;
  /** The claim restated as the source says it; kept only when it holds on the text. */
  rewrite?: string;
}

const MARK_TEXT = {
  zh: (n: number, missing: readonly string[]) => `⚠〔待核实：来源 ${n} ${missing.length > 0 ? `中没有${missing.map((item) => `“${item}”`).join('')}` : '没有支持这句话的内容'}〕`,
  en: (n: number, missing: readonly string[]) => `⚠ (unverified: source ${n} ${missing.length > 0 ? `does not mention ${missing.map((item) => `"${item}"`).join(', ')}` : 'does not support this sentence'})`,
} as const;

export const markFor = (language: Language, n: number, missing: readonly string[]) => MARK_TEXT[language](n, missing);

export interface Rebuilt {
  text: string;
  /** Offsets relative to the rebuilt text. */
  checks: CitationCheck[];
}

/**
 * The section as it is published: dangling numbers removed (or pointing at the source that says
 * the claim), unsupported claims pointed elsewhere, rewritten when the rewrite holds against the
 * source, or marked. `link` writes a number as the report shows it. `carried`: sentences (by index)
 * checked before and left as they are, with their checks.
 */
export function rebuild(
  text: string,
  sentences: readonly CitedSentence[],
  found: readonly Finding[],
  rulings: ReadonlyMap<Finding, Ruling>,
  sources: ReadonlyMap<number, Passages>,
  link: (n: number) => string,
  language: Language,
  carried: ReadonlyMap<number, ReadonlyArray<Omit<CitationCheck, 'offset'>>> = new Map(),
): Rebuilt {
  let out = '';
  let at = 0;
  const checks: CitationCheck[] = [];
  sentences.forEach((sentence, index) => {
    const kept = carried.get(index);
    if (kept) {
      // Checked before, unchanged since: it stays as it was, its checks moved to where it now stands.
      out += text.slice(at, sentence.end);
      for (const check of kept) checks.push({ ...check, offset: out.length - (sentence.end - sentence.start) });
      at = sentence.end;
      return;
    }
    const mine = found.filter((finding) => finding.sentence === index);
    const renumber = new Map<number, number | null>();
    const marks: string[] = [];
    let claim: string | null = null;
    const sentenceChecks: Array<Omit<CitationCheck, 'offset'>> = [];
    for (const finding of mine) {
      const base = { verdict: finding.verdict, excerpt: finding.excerpt, ...(finding.missing.length > 0 && { missing: finding.missing }) };
      if (finding.instead !== undefined) {
        renumber.set(finding.n, finding.instead);
        const moved = support(sentence.claim, sources.get(finding.instead)!);
        sentenceChecks.push({ n: finding.instead, verdict: moved.verdict, action: 'repaired', excerpt: moved.excerpt });
        continue;
      }
      if (finding.verdict === 'dangling' || finding.bare) {
        renumber.set(finding.n, null);
        sentenceChecks.push({ n: finding.n, ...base, action: 'removed' });
        continue;
      }
      const ruling = rulings.get(finding);
      if (finding.verdict === 'supported' || (ruling?.supported ?? finding.verdict === 'weak')) {
        // A model's word lifts a claim one step: the text test's doubt is not forgotten.
        const verdict = !ruling?.supported ? finding.verdict : finding.verdict === 'unsupported' ? 'weak' : 'supported';
        sentenceChecks.push({ n: finding.n, ...base, verdict, action: 'kept' });
        continue;
      }
      const rewrite = ruling?.rewrite?.trim();
      const held = rewrite && claim === null ? support(rewrite, sources.get(finding.n)!) : null;
      if (held && held.verdict !== 'unsupported' && held.missing.length === 0) {
        claim = rewrite!;
        sentenceChecks.push({ n: finding.n, verdict: held.verdict, action: 'repaired', excerpt: held.excerpt });
        continue;
      }
      const mark = markFor(language, finding.n, finding.missing);
      // A sentence a revision kept with its mark is not marked twice.
      if (!text.slice(sentence.start, sentence.end).includes(mark)) marks.push(mark);
      sentenceChecks.push({ n: finding.n, ...base, verdict: 'unsupported', action: 'marked' });
    }
    const original = text.slice(sentence.start, sentence.end);
    const written = new Set<number>();
    const numbersOf = (marker: Marker) =>
      marker.numbers
        .map((n) => (renumber.has(n) ? renumber.get(n)! : n))
        .filter((n): n is number => n !== null && !written.has(n) && (written.add(n), true));
    let rewritten: string;
    if (claim !== null) {
      const end = /[。！？.!?]$/u.exec(claim)?.[0] ?? (language === 'zh' ? '。' : '.');
      const body = claim.replace(/[。！？.!?]$/u, '');
      rewritten = `${body}${sentence.markers.flatMap(numbersOf).map(link).join('')}${marks.join('')}${end}`;
    } else {
      rewritten = '';
      let from = sentence.start;
      const last = sentence.markers.at(-1)!;
      for (const marker of sentence.markers) {
        const kept = numbersOf(marker).map(link).join('');
        // A number taken out takes the space before it along: `growth [9].` becomes `growth.`.
        rewritten += kept ? text.slice(from, marker.start) + kept : text.slice(from, marker.start).replace(/[ \t]+$/, '');
        if (marker === last) rewritten += marks.join('');
        from = marker.end;
      }
      rewritten += text.slice(from, sentence.end);
    }
    out += text.slice(at, sentence.start);
    const offset = out.length;
    out += rewritten === original ? original : rewritten;
    at = sentence.end;
    for (const check of sentenceChecks) checks.push({ ...check, offset });
  });
  out += text.slice(at);
  return { text: out, checks };
}

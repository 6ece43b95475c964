/**
 * Checks a section's citations once it is written and before it is recorded — and every version a
 * revision or a targeted edit writes: the text test, one batched model judgement (with a rewrite for
 * what the source does not say) when a model is configured, the text brought to what was checked,
 * and the checks recorded.
 */
import { createHash } from 'node:crypto';
import type { CitationCheck } from '@scriptorium/domain/protocol/research';
import { clip } from './text.ts';
import { citedNumbers, everySentence, findings, passagesOf, rebuild, type CitedSentence, type Finding, type Passages, type Ruling } from './citations.ts';
import { CITATIONS_PROMPT, citationsSchema } from './prompts.ts';
import { command, completeJson, type Draft, type Run } from './run.ts';
import type { SourceBook } from './sources.ts';

/** Claims one judgement weighs at most; the rest keep what the text test found. */
const JUDGED_CLAIMS = 12;
const JUDGEMENT_TOKENS = 1500;

/** A source's passages are cut once per text, not once per section. */
const cut = new WeakMap<SourceBook, Map<number, { text: string; passages: Passages }>>();

function passagesIn(sources: SourceBook): Map<number, Passages> {
  const known = cut.get(sources) ?? new Map<number, { text: string; passages: Passages }>();
  cut.set(sources, known);
  const out = new Map<number, Passages>();
  for (const { n, title } of sources.all) {
    // A revision's source known only by its title has no text to check against: no passages.
    const stored = sources.textOf(n) ?? '';
    const text = stored === title ? '' : stored;
    let entry = known.get(n);
    if (entry?.text !== text) {
      entry = { text, passages: passagesOf(text) };
      known.set(n, entry);
    }
    out.set(n, entry.passages);
  }
  return out;
}

async function judge(run: Run, sentences: readonly CitedSentence[], open: readonly Finding[]): Promise<Map<Finding, Ruling>> {
  const asked = open.slice(0, JUDGED_CLAIMS);
  const zh = run.language === 'zh';
  const claims = asked
    .map((finding, index) => `[${index + 1}] ${zh ? '论断' : 'Claim'}: ${sentences[finding.sentence]!.claim}\n${zh ? `来源 ${finding.n} 原文` : `Source ${finding.n} says`}: ${finding.excerpt || '—'}`)
    .join('\n\n');
  const answer = await completeJson(run, 'judging', 'citations', citationsSchema, [
    { role: 'system', content: CITATIONS_PROMPT },
    { role: 'user', content: clip(claims, 12_000) },
  ], JUDGEMENT_TOKENS);
  const rulings = new Map<Finding, Ruling>();
  for (const check of answer?.citation_checks ?? []) {
    const finding = asked[check.id - 1];
    if (finding && !rulings.has(finding)) rulings.set(finding, { supported: check.supported, ...(check.rewrite?.trim() && { rewrite: check.rewrite.trim() }) });
  }
  return rulings;
}

/** What checking a text did to the citations it checked (not those it kept from before). */
export interface Tally {
  checked: number;
  repaired: number;
  marked: number;
  removed: number;
}

/** A check as it belongs to its sentence, wherever the sentence stands. */
export type SentenceCheck = Omit<CitationCheck, 'offset'>;

/**
 * What a version's text is checked into: the text as published (dangling numbers out, claims
 * repaired or marked) and the check of each citation, offsets in that text. `keep` gives the checks
 * of a sentence checked before and unchanged since (it is then left alone), or nothing to check it.
 */
export async function checkText(run: Run, text: string, sources: SourceBook, keep: (sentence: string) => readonly SentenceCheck[] | undefined = () => undefined): Promise<{ text: string; checks: CitationCheck[]; tally: Tally; judged: boolean }> {
  const sentences = everySentence(text);
  const carried = new Map<number, readonly SentenceCheck[]>();
  sentences.forEach((sentence, index) => {
    const known = keep(text.slice(sentence.start, sentence.end));
    if (known) carried.set(index, known);
  });
  if (carried.size === 0 && sentences.every((sentence) => sentence.markers.length === 0)) return { text, checks: [], tally: { checked: 0, repaired: 0, marked: 0, removed: 0 }, judged: false };
  const passages = passagesIn(sources);
  // `findings` numbers the sentences it is given; the rebuild numbers them all.
  const fresh = sentences.map((_, index) => index).filter((index) => !carried.has(index));
  const found = findings(fresh.map((index) => sentences[index]!), passages).map((finding) => ({ ...finding, sentence: fresh[finding.sentence]! }));
  // A source with no stored text gives a judge nothing to weigh.
  const open = found.filter((finding) => (finding.verdict === 'weak' || finding.verdict === 'unsupported') && finding.instead === undefined && !finding.bare && (passages.get(finding.n)?.passages.length ?? 0) > 0);
  const rulings = run.deps.model.offline || open.length === 0 ? new Map<Finding, Ruling>() : await judge(run, sentences, open);
  const link = (n: number) => {
    const url = sources.urlOf(n);
    return url ? `[[${n}]](${url})` : `[${n}]`;
  };
  const rebuilt = rebuild(text, sentences, found, rulings, passages, link, run.language, carried);
  const kept = [...carried.values()].flat();
  const count = (action: string) => rebuilt.checks.filter((check) => check.action === action).length - kept.filter((check) => check.action === action).length;
  const checked = rebuilt.checks.length - kept.length;
  return { ...rebuilt, tally: { checked, repaired: count('repaired'), marked: count('marked'), removed: count('removed') }, judged: rulings.size > 0 };
}

/** Whether a check is said in the chat: it changed something or cost a model call; text that checks out (or was checked before) stays quiet. */
export const worthSaying = (checked: { judged: boolean; tally: { repaired: number; marked: number; removed: number } }): boolean =>
  checked.judged || checked.tally.repaired + checked.tally.marked + checked.tally.removed > 0;

/**
 * Checks the part of the draft from `start` to `end` (`index`: its place in the version, a plan
 * section or a part of a revision) and records what it found; the draft is brought to the checked
 * text. Returns where the part now ends.
 */
export async function checkCitations(run: Run, draft: Draft, sources: SourceBook, index: number, heading: string, start: number, end = draft.content.length, keep?: (sentence: string) => readonly SentenceCheck[] | undefined): Promise<number> {
  const text = draft.content.slice(start, end);
  const checked = await checkText(run, text, sources, keep);
  if (checked.checks.length === 0) return end;
  if (checked.text !== text) {
    const rest = draft.content.slice(end);
    await draft.rollback(start);
    draft.plain(checked.text + rest);
  }
  const citations = checked.checks.map((check) => ({ ...check, offset: check.offset + start }));
  // The part's text is in the step: a job that runs again and writes the part otherwise records its checks anew.
  await command(run, `citations:${index}:${digest(checked.text)}`, { type: 'RecordCitationChecks', data: { messageId: run.data.replyId, index, citations } });
  if (worthSaying(checked)) await run.writer.progress({ code: 'research.citationsChecked', params: { section: heading, ...checked.tally } });
  return start + checked.text.length;
}

/**
 * Checks a revision's text from `from` to the draft's end, one part per `## ` section (each its own
 * judgement, at most `JUDGED_CLAIMS` claims, as a first run's sections), numbered in order.
 * Sentences the version it revises checked, unchanged, keep their checks (`keep`); the rest are checked.
 */
export async function checkRevision(run: Run, draft: Draft, sources: SourceBook, from: number, keep: (sentence: string) => readonly SentenceCheck[] | undefined): Promise<void> {
  let start = from;
  for (let index = 0; start < draft.content.length; index++) {
    const next = draft.content.indexOf('\n## ', start);
    const end = next === -1 ? draft.content.length : next + 1;
    const heading = /^#{1,3}\s+(.+)$/m.exec(draft.content.slice(start, end))?.[1]?.trim() ?? '';
    start = await checkCitations(run, draft, sources, index, heading, start, end, keep);
  }
}

/**
 * The checks of a version by the text of the sentence they belong to, for a revision of it: a
 * sentence it keeps word for word keeps them, as long as every number it cites is still a source.
 */
export function checksBySentence(content: string, checks: readonly CitationCheck[], sources: SourceBook): (sentence: string) => readonly SentenceCheck[] | undefined {
  const byOffset = new Map<number, SentenceCheck[]>();
  for (const { offset, ...check } of checks) byOffset.set(offset, [...(byOffset.get(offset) ?? []), check]);
  const bySentence = new Map<string, SentenceCheck[]>();
  for (const sentence of everySentence(content)) {
    const known = byOffset.get(sentence.start);
    if (known) bySentence.set(content.slice(sentence.start, sentence.end), known);
  }
  const numbers = new Set(sources.all.map((source) => source.n));
  return (sentence) => {
    const known = bySentence.get(sentence);
    return known && [...citedNumbers(sentence)].every((n) => numbers.has(n)) ? known : undefined;
  };
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

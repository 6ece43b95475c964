/**
 * Checks a section's citations once it is written and before it is recorded: the text test, one
 * batched model judgement (with a rewrite for what the source does not say) when a model is
 * configured, the section in the canvas brought to its checked text, and the checks recorded.
 */
import { clip } from './text.ts';
import { citedSentences, findings, passagesOf, rebuild, type CitedSentence, type Finding, type Passages, type Ruling } from './citations.ts';
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
  for (const { n } of sources.all) {
    const text = sources.textOf(n) ?? '';
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

/** Checks the section that starts at `start` of the draft (`index` in the plan) and records what it found. */
export async function checkCitations(run: Run, draft: Draft, sources: SourceBook, index: number, heading: string, start: number): Promise<void> {
  const text = draft.content.slice(start);
  const sentences = citedSentences(text);
  if (sentences.length === 0) return;
  const passages = passagesIn(sources);
  const found = findings(sentences, passages);
  const open = found.filter((finding) => (finding.verdict === 'weak' || finding.verdict === 'unsupported') && finding.instead === undefined);
  const rulings = run.deps.model.offline || open.length === 0 ? new Map<Finding, Ruling>() : await judge(run, sentences, open);
  const link = (n: number) => {
    const url = sources.urlOf(n);
    return url ? `[[${n}]](${url})` : `[${n}]`;
  };
  const rebuilt = rebuild(text, sentences, found, rulings, passages, link, run.language);
  if (rebuilt.text !== text) {
    await draft.rollback(start);
    draft.plain(rebuilt.text);
  }
  const citations = rebuilt.checks.map((check) => ({ ...check, offset: check.offset + start }));
  await command(run, `citations:${index}`, { type: 'RecordCitationChecks', data: { messageId: run.data.replyId, index, citations } });
  const count = (action: string) => citations.filter((check) => check.action === action).length;
  // Said when it changed something or cost a model call; a section that checks out stays quiet.
  if (rulings.size === 0 && count('kept') === citations.length) return;
  await run.writer.progress({ code: 'research.citationsChecked', params: { section: heading, checked: citations.length, repaired: count('repaired'), marked: count('marked'), removed: count('removed') } });
}

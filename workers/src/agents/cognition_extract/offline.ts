import type { CognitionBody } from '@scriptorium/domain/cognition/cognition';
import { clip, keyPhrases, languageOf, markdownText, sentencesOf, termsOf, type Language } from '../deep_cognition/text.ts';

/** One piece of material a cognition is drawn from, numbered as it will be cited. */
export interface Material {
  n: number;
  title: string;
  text: string;
}

const MAX_INSIGHTS = 6;
const INSIGHT_CHARS = 160;

interface Candidate {
  sentence: string;
  n: number;
  order: number;
  score: number;
}

/**
 * The sentences that carry what the material is about: a sentence scores by how many other
 * sentences share its terms (what the material keeps returning to), per term so long sentences do
 * not win by length. Chosen round-robin across the material, so one long note does not crowd out
 * the others, and near-repeats are skipped.
 */
export function centralSentences(material: readonly Material[], max = MAX_INSIGHTS): Candidate[] {
  const candidates: Array<Candidate & { terms: Set<string> }> = [];
  for (const doc of material) {
    // The sentence keeps its links' targets and its inline code (a cognition shows Markdown); its terms are of the prose.
    sentencesOf(doc.text, { keepMarkup: true }).forEach((sentence, order) => candidates.push({ sentence, n: doc.n, order, score: 0, terms: new Set(termsOf(markdownText(sentence))) }));
  }
  const frequency = new Map<string, number>();
  for (const candidate of candidates) for (const term of candidate.terms) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  for (const candidate of candidates) {
    const shared = [...candidate.terms].reduce((sum, term) => sum + (frequency.get(term)! - 1), 0);
    candidate.score = candidate.terms.size === 0 ? 0 : shared / Math.sqrt(candidate.terms.size);
  }
  const bySource = new Map<number, typeof candidates>();
  for (const candidate of [...candidates].sort((a, b) => b.score - a.score || a.order - b.order)) {
    bySource.set(candidate.n, [...(bySource.get(candidate.n) ?? []), candidate]);
  }
  const chosen: typeof candidates = [];
  const queues = [...bySource.values()];
  while (chosen.length < max && queues.some((queue) => queue.length > 0)) {
    for (const queue of queues) {
      const next = queue.shift();
      if (!next || chosen.length >= max) continue;
      const repeat = chosen.some((known) => overlap(known.terms, next.terms) > 0.7);
      if (!repeat) chosen.push(next);
    }
  }
  return chosen.map(({ terms: _terms, ...candidate }) => candidate);
}

function overlap(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  return shared / Math.min(a.size, b.size);
}

/** The phrases the material names most often, as tags. */
export function topTags(material: readonly Material[], max = 5): string[] {
  const counts = new Map<string, { phrase: string; count: number }>();
  for (const doc of material) {
    for (const phrase of keyPhrases(`${doc.title}\n${markdownText(doc.text)}`, Number.POSITIVE_INFINITY)) {
      if (Array.from(phrase).length > 12) continue;
      const key = phrase.toLowerCase();
      const known = counts.get(key);
      counts.set(key, { phrase: known?.phrase ?? phrase, count: (known?.count ?? 0) + 1 });
    }
  }
  return [...counts.values()]
    .filter((entry) => entry.count > 1)
    .sort((a, b) => b.count - a.count || Array.from(b.phrase).length - Array.from(a.phrase).length)
    .slice(0, max)
    .map((entry) => entry.phrase);
}

const LABELS: Record<Language, { core: string; basis: string; offline: string; tooLittle: string }> = {
  zh: {
    core: '核心认知',
    basis: '依据',
    offline: '> 由离线引擎从原文摘录整理，未经改写或推理；配置语言模型后可得到提炼后的认知。',
    tooLittle: '资料内容太少，无法提取认知：请选择有正文的笔记或网页',
  },
  en: {
    core: 'Key insights',
    basis: 'Basis',
    offline: '> Excerpted by the offline engine without rewriting or reasoning; configure a language model for distilled insights.',
    tooLittle: 'There is too little text to draw a cognition from: choose notes or pages with content',
  },
};

export class TooLittleMaterial extends Error {
  constructor(language: Language) {
    super(LABELS[language].tooLittle);
  }
}

/** A cognition made from the material's own sentences, each cited to where it came from. */
export function offlineCognition(material: readonly Material[], title: string): CognitionBody {
  const language = languageOf(material.map((doc) => doc.text).join('\n').slice(0, 2000));
  const labels = LABELS[language];
  const chosen = centralSentences(material);
  if (chosen.length === 0) throw new TooLittleMaterial(language);
  // Clipping Markdown could cut a link in two: a sentence too long to show whole is clipped as prose.
  const insights = chosen.map(({ sentence }) => (Array.from(markdownText(sentence)).length <= INSIGHT_CHARS ? sentence : clip(markdownText(sentence), INSIGHT_CHARS)));
  const content = [
    labels.offline,
    '',
    `## ${labels.core}`,
    '',
    ...chosen.map((candidate, index) => `${index + 1}. ${insights[index]} [${candidate.n}]`),
    '',
    `## ${labels.basis}`,
    '',
    ...material.map((doc) => `- [${doc.n}] ${doc.title}`),
  ].join('\n');
  return { title: clip(title, 120), summary: clip(insights.slice(0, 2).map(markdownText).join(language === 'zh' ? '' : ' '), 300), insights, content, tags: topTags(material) };
}

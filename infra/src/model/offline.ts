import { setTimeout as delay } from 'node:timers/promises';
import { collect, ModelError, type ChatMessage, type Completion, type ModelDelta, type ModelProvider, type ModelRequest } from './port.ts';
import type { ModelProfile } from './profile.ts';
import { estimateMessageTokens, estimateTokens } from './tokens.ts';

export { estimateTokens } from './tokens.ts';

/**
 * The engine used when no language model is configured. It does not generate: it picks the
 * sentences of the given sources (and of the conversation) that best match the last question and
 * quotes them with `[n]` markers, under a label that says so. Same input, same answer.
 */

export interface OfflineOptions {
  /** Characters (code points) per streamed piece. Default 4. */
  chunkSize?: number;
  /** Pause between pieces, for demos that want to look like a model typing. Default 0. */
  delayMs?: number;
  /** Most sentences quoted in one answer. Default 5. */
  maxExcerpts?: number;
}

type Language = 'zh' | 'en';

const labels: Record<Language, string> = {
  zh: '【离线模式】未配置语言模型，以下内容由离线引擎从已有资料中摘录，未经改写或推理。',
  en: '[Offline mode] No language model is configured; this answer is quoted from the available material by the offline engine, without rewriting or reasoning.',
};

export class OfflineProvider implements ModelProvider {
  readonly name = 'offline';
  readonly offline = true;
  /** No network, no provider limits: the budget is the only bound. */
  readonly profile: ModelProfile = { contextWindow: 1_000_000, maxOutputTokens: 1_000_000, reasoning: 'none' };
  private readonly chunkSize: number;
  private readonly delayMs: number;
  private readonly maxExcerpts: number;

  constructor(options: OfflineOptions = {}) {
    this.chunkSize = Math.max(1, options.chunkSize ?? 4);
    this.delayMs = options.delayMs ?? 0;
    this.maxExcerpts = Math.max(1, options.maxExcerpts ?? 5);
  }

  complete(request: ModelRequest): Promise<Completion> {
    return collect(this.stream(request));
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelDelta> {
    const signal = request.signal;
    const check = () => {
      if (signal?.aborted) throw new ModelError('aborted', 'the request was aborted', { cause: signal.reason });
    };
    check();
    const answer = composeOfflineAnswer(request, this.maxExcerpts);
    const chars = Array.from(answer);
    for (let i = 0; i < chars.length; i += this.chunkSize) {
      if (this.delayMs > 0 && i > 0) {
        try {
          await delay(this.delayMs, undefined, signal ? { signal } : {});
        } catch {
          check();
        }
      }
      check();
      yield { type: 'text', text: chars.slice(i, i + this.chunkSize).join('') };
    }
    const contextTokens = (request.context ?? []).reduce((sum, doc) => sum + estimateTokens(`${doc.title}\n${doc.text}`), 0);
    yield {
      type: 'usage',
      promptTokens: estimateMessageTokens(request.messages) + contextTokens,
      completionTokens: estimateTokens(answer),
      model: 'offline',
      estimated: true,
    };
  }
}

/** The whole offline answer for a request; `stream` only cuts it into pieces. */
export function composeOfflineAnswer(request: Pick<ModelRequest, 'messages' | 'context' | 'maxTokens'>, maxExcerpts = 5): string {
  const { messages } = request;
  const context = request.context ?? [];
  const lastUserIndex = messages.findLastIndex((m) => m.role === 'user');
  const question = lastUserIndex === -1 ? '' : messages[lastUserIndex]!.content;
  const language = detectLanguage(question, messages);
  const text = texts[language];

  const candidates: Candidate[] = [];
  context.forEach((doc, docIndex) => {
    splitSentences(doc.text).forEach((sentence, position) => candidates.push({ sentence, source: docIndex + 1, position, terms: terms(sentence) }));
  });
  messages.forEach((message, index) => {
    if (index === lastUserIndex || message.role === 'system' || isOfflineAnswer(message)) return;
    // Markers in earlier turns referred to that turn's sources, not to this request's.
    splitSentences(message.content.replace(/\[\d+\]/g, '')).forEach((sentence, position) => {
      // Earlier questions only echo the current one back; statements are what is worth quoting.
      if (!/[?？]$/.test(sentence)) candidates.push({ sentence, source: 0, position, terms: terms(sentence) });
    });
  });

  const analysed = analyseQuestion(question);
  const budget = { maxExcerpts, maxTokens: request.maxTokens };
  const lines: string[] = [labels[language], ''];
  let chosen: Candidate[] = [];

  if (analysed.terms.length > 0) chosen = selectRelevant(candidates, analysed.terms, budget);
  const shown = analysed.phrases.length > 0 ? analysed.phrases.join(text.listSeparator) : undefined;
  const digest = chosen.length > 0 ? [] : selectSummary(candidates.filter((c) => c.source > 0), budget);

  if (chosen.length > 0) {
    lines.push(shown ? text.relevantTo(shown) : text.relevant);
  } else if (digest.length > 0) {
    chosen = digest;
    lines.push(analysed.terms.length === 0 ? text.summary : text.nothingRelevant(shown ?? question.trim()));
  } else {
    lines.push(text.noMaterial);
    if (shown) lines.push(text.questionAbout(shown));
    lines.push(text.howToHelp);
    return lines.join('\n');
  }

  chosen.forEach((candidate, i) => {
    const sentence = clip(candidate.sentence);
    // After CJK punctuation a marker needs no space; after a Latin word it does.
    const gap = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]$/u.test(sentence) ? '' : ' ';
    const marker = candidate.source > 0 ? `${gap}[${candidate.source}]` : text.fromConversation;
    lines.push(`${i + 1}. ${sentence}${marker}`);
  });

  const cited = [...new Set(chosen.map((c) => c.source).filter((s) => s > 0))].sort((a, b) => a - b);
  if (cited.length > 0) {
    lines.push('', text.sources);
    for (const source of cited) {
      const doc = context[source - 1]!;
      lines.push(`[${source}] ${doc.title}${doc.url ? ` — ${doc.url}` : ''}`);
    }
  }
  return lines.join('\n');
}

const texts = {
  zh: {
    listSeparator: '、',
    relevant: '最相关的内容：',
    relevantTo: (terms: string) => `与“${terms}”最相关的内容：`,
    summary: '各资料的要点摘录：',
    nothingRelevant: (terms: string) => `资料中没有找到与“${terms}”直接相关的句子。以下是各资料的要点摘录，供参考：`,
    noMaterial: '离线模式下只能对已有资料和对话做摘录与复述，这次没有可供摘录的资料，因此无法回答问题本身。',
    questionAbout: (terms: string) => `你的问题涉及：${terms}。`,
    howToHelp: '可以把相关笔记、上传文件或网页内容加入对话，离线引擎会从中找出相关句子；配置语言模型后可以得到完整回答。',
    fromConversation: '（前文）',
    sources: '来源：',
  },
  en: {
    listSeparator: ', ',
    relevant: 'The most relevant passages:',
    relevantTo: (terms: string) => `The passages most relevant to "${terms}":`,
    summary: 'Key sentences from each source:',
    nothingRelevant: (terms: string) => `Nothing in the material matches "${terms}" directly. Key sentences from each source, for reference:`,
    noMaterial: 'Offline, the engine can only quote and restate the material and the conversation, and there is no material to quote this time, so it cannot answer the question itself.',
    questionAbout: (terms: string) => `Your question is about: ${terms}.`,
    howToHelp: 'Add related notes, uploads or web pages to the conversation and the offline engine will pick out the relevant sentences; configure a language model for full answers.',
    fromConversation: ' (earlier in this conversation)',
    sources: 'Sources:',
  },
} satisfies Record<Language, unknown>;

interface Candidate {
  sentence: string;
  /** 1-based index into `context`; 0 for a sentence from the conversation. */
  source: number;
  position: number;
  terms: string[];
}

interface Budget {
  maxExcerpts: number;
  maxTokens: number | undefined;
}

const han = /\p{Script=Han}/u;
const hanGlobal = /\p{Script=Han}/gu;

function detectLanguage(question: string, messages: readonly ChatMessage[]): Language {
  for (const sample of [question, messages.map((m) => m.content).join('\n')]) {
    const hanCount = sample.match(hanGlobal)?.length ?? 0;
    const latinWords = sample.match(/[A-Za-z]{2,}/g)?.length ?? 0;
    // A Chinese word is about two characters; an English term inside a Chinese question stays Chinese.
    if (hanCount > 0 || latinWords > 0) return hanCount / 2 >= latinWords ? 'zh' : 'en';
  }
  return 'zh';
}

function isOfflineAnswer(message: ChatMessage): boolean {
  return message.role === 'assistant' && (message.content.startsWith(labels.zh.slice(0, 6)) || message.content.startsWith(labels.en.slice(0, 14)));
}

const terminators = new Set(['。', '！', '？', '!', '?']);
const closers = new Set(['”', '’', '"', "'", '」', '』', '）', ')', '】', '》', '。', '！', '？', '!', '?']);

/** Sentences end at 。！？!? and at a full stop before a space; line breaks end them too (headings, lists). */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  const push = (raw: string) => {
    const sentence = raw.replace(/\*\*|__|`/g, '').replace(/\s+/g, ' ').trim();
    // Headings, list stubs and fragments carry too little to be worth quoting.
    if (contentLength(sentence) >= 6) sentences.push(sentence);
  };
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/^\s*(?:#{1,6}\s+|[-*+•]\s+|\d+[.)、]\s+|>\s*)/, '');
    const chars = Array.from(line);
    let current = '';
    for (let i = 0; i < chars.length; i++) {
      const char = chars[i]!;
      current += char;
      let end = terminators.has(char);
      if (char === '.') {
        let next = i + 1;
        while (next < chars.length && closers.has(chars[next]!)) next++;
        end = next === chars.length || /\s/.test(chars[next]!);
      }
      if (!end) continue;
      while (i + 1 < chars.length && closers.has(chars[i + 1]!)) current += chars[++i];
      push(current);
      current = '';
    }
    push(current);
  }
  return sentences;
}

function contentLength(text: string): number {
  return text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
}

// Question words, pronouns and particles: in a question they say nothing about the topic.
const zhStopWords = [
  '为什么', '怎么样', '是什么', '有没有', '能不能', '会不会', '是不是', '有什么', '有哪些', '什么', '会有', '怎么', '如何', '为何', '哪些', '哪个', '哪里', '请问',
  '一下', '告诉', '介绍', '解释', '说明', '了解', '可以', '能否', '是否', '我们', '你们', '他们', '这个', '那个',
  '这些', '那些', '一个', '一些', '以及', '还是', '或者', '而且', '但是', '因为', '所以', '如果', '关于', '对于',
  '的', '了', '吗', '呢', '吧', '啊', '呀', '么', '和', '与', '及', '或', '是', '请', '我', '你', '他', '她', '它',
  '也', '都', '很', '被', '把', '会', '有',
];
const zhStopPattern = new RegExp([...zhStopWords].sort((a, b) => b.length - a.length).join('|'), 'gu');

const enStopWords = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by can ' +
    'could did do does doing down during each few for from further had has have having he her here hers herself him himself his ' +
    'how i if in into is it its itself just let me more most my myself no nor not of off on once only or other our ours ourselves ' +
    'out over own same she should so some such than that the their theirs them themselves then there these they this those through ' +
    'to too under until up very was we were what when where which while who whom why will with would you your yours yourself ' +
    'yourselves explain tell describe please know give show want need thing things something anything also'
  ).split(' '),
);

// In a question these ask for a digest of the material rather than naming a topic.
const digestWords = [
  '总结', '概括', '摘要', '归纳', '要点', '概述', '梳理', '资料', '材料', '内容', '文档', '文章', '上面', '以上', '全文',
  'summary', 'summarize', 'summarise', 'overview', 'tldr', 'gist', 'recap', 'document', 'material', 'article', 'source',
];

function stem(word: string): string {
  let w = word.replace(/['’]s$/, '');
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  return w;
}

/** Topic-bearing pieces of a text as written: Han runs between stop words, Latin words that are not stop words. */
function pieces(text: string): string[] {
  const out: string[] = [];
  for (const match of text.replace(zhStopPattern, ' ').matchAll(/\p{Script=Han}+|[a-z0-9\u00c0-\u024f]+(?:['’][a-z]+)?/giu)) {
    const piece = match[0];
    const lower = piece.toLowerCase();
    if (han.test(piece) || (!enStopWords.has(lower) && (piece.length > 1 || /\d/.test(piece)))) out.push(piece);
  }
  return out;
}

/** Scoring terms: Han pieces become character bigrams (a lone character stays itself), Latin words are stemmed. */
function termsOf(piecesList: readonly string[]): string[] {
  const out: string[] = [];
  for (const piece of piecesList) {
    if (!han.test(piece)) {
      out.push(stem(piece.toLowerCase()));
      continue;
    }
    const chars = Array.from(piece);
    if (chars.length === 1) out.push(piece);
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  }
  return out;
}

function terms(text: string): string[] {
  return termsOf(pieces(text));
}

function analyseQuestion(question: string): { terms: string[]; phrases: string[] } {
  let topical = pieces(question);
  for (const word of digestWords) {
    topical = topical.flatMap((piece) => (han.test(piece) ? piece.split(word).filter(Boolean) : stem(piece.toLowerCase()) === word ? [] : [piece]));
  }
  const phrases: string[] = [];
  for (const piece of topical) {
    if (han.test(piece) && Array.from(piece).length < 2) continue;
    if (!phrases.some((p) => p.toLowerCase() === piece.toLowerCase())) phrases.push(piece);
  }
  return { terms: [...new Set(termsOf(topical))], phrases: phrases.slice(0, 6) };
}

// A sentence must cover this share of the question (weighted by rarity) to be quoted, so one
// shared common bigram does not pass for an answer.
const minimumCoverage = 0.25;

/** BM25 over sentences: rare shared terms count most, long sentences do not win by length alone. */
function selectRelevant(candidates: readonly Candidate[], queryTerms: readonly string[], budget: Budget): Candidate[] {
  if (candidates.length === 0) return [];
  const k1 = 1.2;
  const b = 0.75;
  const documentFrequency = new Map<string, number>();
  for (const candidate of candidates) {
    for (const term of new Set(candidate.terms)) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const averageLength = candidates.reduce((sum, c) => sum + c.terms.length, 0) / candidates.length || 1;
  const n = candidates.length;
  const idf = (term: string) => {
    const df = documentFrequency.get(term) ?? 0;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  };
  const questionWeight = queryTerms.reduce((sum, term) => sum + idf(term), 0);
  const scored = candidates.map((candidate, order) => {
    const frequency = new Map<string, number>();
    for (const term of candidate.terms) frequency.set(term, (frequency.get(term) ?? 0) + 1);
    let score = 0;
    let covered = 0;
    for (const term of queryTerms) {
      const tf = frequency.get(term) ?? 0;
      if (tf === 0) continue;
      covered += idf(term);
      score += (idf(term) * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * candidate.terms.length) / averageLength));
    }
    return { candidate, score: covered >= minimumCoverage * questionWeight ? score : 0, order };
  });
  const ranked = scored.filter((s) => s.score > 0).sort((x, y) => y.score - x.score || x.order - y.order);
  return take(ranked.map((s) => s.candidate), budget);
}

/**
 * Without a question to match, each source is represented by its lead sentence and its most
 * central one (sharing the most terms with the rest of that source).
 */
function selectSummary(candidates: readonly Candidate[], budget: Budget): Candidate[] {
  const bySource = new Map<number, Candidate[]>();
  for (const candidate of candidates) bySource.set(candidate.source, [...(bySource.get(candidate.source) ?? []), candidate]);
  const picks: Candidate[] = [];
  for (const sentences of bySource.values()) {
    const frequency = new Map<string, number>();
    for (const sentence of sentences) for (const term of new Set(sentence.terms)) frequency.set(term, (frequency.get(term) ?? 0) + 1);
    const centrality = (c: Candidate) =>
      [...new Set(c.terms)].reduce((sum, term) => sum + (frequency.get(term) ?? 1) - 1, 0) / Math.sqrt(c.terms.length || 1);
    const lead = sentences[0]!;
    const central = sentences.slice(1).reduce<Candidate | undefined>((best, c) => (best === undefined || centrality(c) > centrality(best) ? c : best), undefined);
    picks.push(lead);
    if (central && centrality(central) > 0) picks.push(central);
  }
  // Leads of every source before second sentences, so a small budget still covers every source.
  const ordered = [...picks].sort((x, y) => Number(x.position !== 0) - Number(y.position !== 0) || x.source - y.source);
  const chosen = take(ordered, budget);
  return chosen.sort((x, y) => x.source - y.source || x.position - y.position);
}

function take(ranked: readonly Candidate[], budget: Budget): Candidate[] {
  const chosen: Candidate[] = [];
  const seen = new Set<string>();
  let tokens = 0;
  for (const candidate of ranked) {
    if (chosen.length >= budget.maxExcerpts) break;
    const key = candidate.sentence.replace(/[\s\p{P}]/gu, '');
    if (seen.has(key)) continue;
    const cost = estimateTokens(clip(candidate.sentence));
    if (budget.maxTokens !== undefined && chosen.length > 0 && tokens + cost > budget.maxTokens) break;
    seen.add(key);
    tokens += cost;
    chosen.push(candidate);
  }
  return chosen;
}

function clip(sentence: string, max = 200): string {
  const chars = Array.from(sentence);
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : sentence;
}

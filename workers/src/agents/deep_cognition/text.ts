import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';

/**
 * Text helpers of the research agents: language, key phrases and term overlap (what the offline
 * heuristics rank by), the edit-report split rule and citation links.
 */

export type Language = 'zh' | 'en';

const hanGlobal = /\p{Script=Han}/gu;
const han = /\p{Script=Han}/u;

/** A Chinese word is about two characters, so an English term inside a Chinese question keeps it Chinese. */
export function languageOf(text: string): Language {
  const hanCount = text.match(hanGlobal)?.length ?? 0;
  const latinWords = text.match(/[A-Za-z]{2,}/g)?.length ?? 0;
  if (hanCount === 0 && latinWords === 0) return 'zh';
  return hanCount / 2 >= latinWords ? 'zh' : 'en';
}

// Request verbs, question words and particles: they say what the user wants done, not what about.
const zhStopWords = [
  '请帮我', '帮我', '帮忙', '调研一下', '研究一下', '分析一下', '介绍一下', '了解一下', '总结一下', '调研', '研究', '分析', '介绍', '了解', '总结', '梳理',
  '为什么', '怎么样', '是什么', '有没有', '能不能', '会不会', '是不是', '有什么', '有哪些', '什么', '怎么', '如何', '为何', '哪些', '哪个', '哪里', '请问',
  '一下', '告诉', '解释', '说明', '可以', '能否', '是否', '我们', '你们', '他们', '这个', '那个', '这些', '那些', '一个', '一些', '以及', '还是',
  '或者', '而且', '但是', '因为', '所以', '如果', '关于', '对于', '目前', '现在', '补充', '方面', '内容', '相关', '部分', '更多', '详细', '增加', '添加', '加上', '修改', '的', '了', '吗', '呢', '吧', '啊', '呀', '么', '和', '与', '及',
  '或', '是', '请', '我', '你', '他', '她', '它', '也', '都', '很', '被', '把', '会', '有', '在', '对', '给', '想', '要',
];
const zhStopPattern = new RegExp([...zhStopWords].sort((a, b) => b.length - a.length).join('|'), 'gu');

const enStopWords = new Set(
  (
    'a about above after again all am an and any are as at be because been before being below between both but by can could did do does ' +
    'doing down during each few for from further had has have having he her here him his how i if in into is it its just me more most my no ' +
    'nor not of off on once only or other our out over own same she should so some such than that the their them then there these they this ' +
    'those through to too under until up very was we were what when where which while who whom why will with would you your please tell ' +
    'explain describe know give show want need research analyse analyze summarize summarise overview report write'
  ).split(' '),
);

function stem(word: string): string {
  let w = word.replace(/['’]s$/, '');
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  return w;
}

/** The topic-bearing pieces of a text as written: Han runs between stop words, Latin words that are not stop words. */
export function keyPhrases(text: string, max = 8): string[] {
  const out: string[] = [];
  for (const match of text.replace(zhStopPattern, ' ').matchAll(/\p{Script=Han}+|[A-Za-z0-9\u00c0-\u024f][A-Za-z0-9\u00c0-\u024f.+#-]*/gu)) {
    const piece = match[0].replace(/[.-]+$/, '');
    if (han.test(piece) ? Array.from(piece).length < 2 : enStopWords.has(piece.toLowerCase()) || (piece.length < 2 && !/\d/.test(piece))) continue;
    if (!out.some((known) => known.toLowerCase() === piece.toLowerCase())) out.push(piece);
    if (out.length >= max) break;
  }
  return out;
}

/** Scoring terms: Han pieces as character bigrams, Latin words stemmed and lower-cased. */
export function termsOf(text: string): string[] {
  const out: string[] = [];
  for (const piece of keyPhrases(text, Number.POSITIVE_INFINITY)) {
    if (!han.test(piece)) {
      out.push(stem(piece.toLowerCase()));
      continue;
    }
    const chars = Array.from(piece);
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  }
  return out;
}

/** Share of the query's distinct terms that the text contains: 0 (nothing in common) to 1. */
export function coverage(queryTerms: readonly string[], text: string): number {
  const wanted = new Set(queryTerms);
  if (wanted.size === 0) return 0;
  const present = new Set(termsOf(text));
  let hits = 0;
  for (const term of wanted) if (present.has(term)) hits++;
  return hits / wanted.size;
}

const terminators = /([。！？!?]+["”’」』）)]*|\.(?=\s|$)["”’)]*)/u;

const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** Markdown punctuation after a backslash: how the notes editor saved Markdown a user typed before it understood it. */
const ESCAPED = /\\([\\`*_{}[\]()#+\-.!>|~])/g;

/** A list, heading or quote marker at the start of a line, as writers and models leave them. */
export const LINE_MARKER = /^\s*(?:(?:#{1,6}|[-*+•]|\d+[.)、]|>)\s+)+/u;

function inlineText(children: readonly Token[]): string {
  return children
    .map((child) => {
      if (child.type === 'text' || child.type === 'code_inline') return child.content;
      if (child.type === 'softbreak' || child.type === 'hardbreak') return '\n';
      if (child.type === 'image') return inlineText(child.children ?? []);
      return '';
    })
    .join('');
}

/**
 * The readable text of Markdown (notes, uploads, cognitions, reports): one line per paragraph, item,
 * heading or line break, without markup, escapes or list markers, so what is quoted from it reads
 * as prose wherever it is shown. Text that is not Markdown comes out as it was. Escaped punctuation
 * is read as the Markdown its writer typed (`\*\*重点\*\*` is bold); fenced code is not prose.
 */
export function markdownText(text: string): string {
  const lines: string[] = [];
  for (const token of markdown.parse(text.replace(ESCAPED, '$1'), {})) {
    if (token.type === 'inline') lines.push(inlineText(token.children ?? []));
    else if (token.type === 'code_block') lines.push(token.content);
  }
  return lines.map((line) => line.replace(LINE_MARKER, '')).join('\n');
}

/** Inline Markdown written back with only its link targets and inline code kept: what a quoted sentence must not lose. */
function inlineMarkdown(children: readonly Token[]): string {
  const targets: string[] = [];
  return children
    .map((child) => {
      if (child.type === 'text') return child.content;
      if (child.type === 'code_inline') return `\`${child.content}\``;
      if (child.type === 'softbreak' || child.type === 'hardbreak') return '\n';
      if (child.type === 'image') return inlineText(child.children ?? []);
      if (child.type === 'link_open') {
        targets.push(child.attrGet('href') ?? '');
        return '[';
      }
      if (child.type === 'link_close') return `](${targets.pop() ?? ''})`;
      return '';
    })
    .join('');
}

/** Markdown as lines of prose (as `markdownText`), links and inline code kept as Markdown. */
function markedLines(text: string): string[] {
  const lines: string[] = [];
  for (const token of markdown.parse(text.replace(ESCAPED, '$1'), {})) {
    if (token.type === 'inline') lines.push(...inlineMarkdown(token.children ?? []).split(/\r?\n/));
    else if (token.type === 'code_block') lines.push(...token.content.split(/\r?\n/));
  }
  return lines;
}

/** Whitespace and punctuation aside, the same sentence: how a sentence said twice is told. */
export const sentenceKey = (sentence: string) => sentence.replace(/[\s\p{P}]/gu, '');

/** Characters under which a line that ends in no sentence's end is a heading, a byline or a menu, not a claim. */
const HEADING_CHARS = 40;
const SENTENCE_END = /[。！？!?.…；;:："”’」』）)]$/u;

/** A short line that ends in no sentence's end: a page's heading or label, which no report should quote as a finding. */
export const headingLike = (sentence: string): boolean => !SENTENCE_END.test(sentence) && Array.from(sentence).length < HEADING_CHARS;

/**
 * A page speaking of itself ("This review looks at…", "本文对…进行展望", "In this article we
 * compare…"): what the page is, which its title already says, not what it found. A writer given it
 * quotes it as a finding and cites the page for nothing; one that reports a result ("This report
 * estimates…", "本文认为…") is a claim and is kept.
 */
const ABOUT_THE_PAGE_EN = /^(?:in\s+)?this\s+(?:article|review|brief|report|overview|page|post|guide|piece|paper|section|chapter)\b[\s,]+(?:we\s+|will\s+)?(?:looks?|summari[sz]es?|reviews?|compares?|collects?|examines?|describes?|explains?|covers?|discuss(?:es)?|explores?|sets?\s+out|introduces?|outlines?|presents?|gathers?|brings?\s+together|walks?\s+through)\b/i;
const ABOUT_THE_PAGE_ZH = /^(?:本文|本报告|本篇|本综述|本节|本章|这篇(?:文章|报告|综述))(?!.{0,8}?(?:认为|发现|估计|测算|预计|指出|表明|显示))/u;
export const aboutThePage = (sentence: string): boolean => ABOUT_THE_PAGE_EN.test(sentence.trim()) || ABOUT_THE_PAGE_ZH.test(sentence.trim());

/** Sentences of a page, snippet or Markdown text: split at sentence ends and line breaks, headings and stubs dropped. */
export function sentencesOf(text: string, options: { keepMarkup?: boolean } = {}): string[] {
  const out: string[] = [];
  for (const rawLine of options.keepMarkup ? markedLines(text) : markdownText(text).split(/\r?\n/)) {
    const line = rawLine.replace(LINE_MARKER, '').trim();
    if (!line) continue;
    const parts = line.split(terminators);
    for (let i = 0; i < parts.length; i += 2) {
      const sentence = `${parts[i] ?? ''}${parts[i + 1] ?? ''}`.replace(/\s+/g, ' ').trim();
      if ((sentence.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= 8) out.push(sentence);
    }
  }
  return out;
}

export function clip(text: string, max: number): string {
  const chars = Array.from(text.trim());
  if (chars.length <= max) return chars.join('');
  const kept = chars.slice(0, max - 1).join('');
  // A cut inside a word reads as a typo ("safer tha…"): back up to the last space when one is near.
  const space = kept.lastIndexOf(' ');
  return `${space >= kept.length * 0.6 ? kept.slice(0, space).trimEnd() : kept}…`;
}

/** Spec §4 and §9: up to 1,500 characters, or any text with a section heading, is one block. */
export const EDIT_REPORT_SINGLE_BLOCK = 1500;
/** Longer text is cut on blank lines into chunks of about this size. */
export const EDIT_REPORT_CHUNK = 800;

export function splitEditReport(content: string): string[] {
  if (content.length <= EDIT_REPORT_SINGLE_BLOCK || /^#{1,6}\s/m.test(content)) return [content];
  const chunks: string[] = [];
  let current = '';
  for (const paragraph of content.split(/\n[ \t]*\n/)) {
    if (!paragraph.trim()) continue;
    if (current && current.length + 2 + paragraph.length > EDIT_REPORT_CHUNK) {
      chunks.push(current);
      current = '';
    }
    current = current ? `${current}\n\n${paragraph}` : paragraph;
  }
  if (current) chunks.push(current);
  return chunks;
}

/**
 * Turns `[n]` (and `[n, m]`) citation markers into links to the cited source, as the text streams
 * by: a marker split across two pieces is held back until it is whole, and `[n](…)`, already a
 * link, is left alone.
 */
export class CitationLinker {
  private held = '';

  constructor(private readonly urlOf: (n: number) => string | undefined) {}

  push(text: string): string {
    const input = this.held + text;
    const cut = this.safeEnd(input);
    this.held = input.slice(cut);
    return this.link(input.slice(0, cut));
  }

  end(): string {
    const rest = this.held;
    this.held = '';
    return this.link(rest);
  }

  /** Where the text can be cut without splitting a marker or losing what follows one. */
  private safeEnd(text: string): number {
    let open = text.lastIndexOf('[');
    if (open === -1) return text.length;
    const tail = text.slice(open);
    const pending = (/^\[[\d,，、\s]*$/.test(tail) && tail.length < 16) || /^\[[\d,，、\s]+\]$/.test(tail);
    if (!pending) return text.length;
    // `[[n]](…)` is a link already; keep its outer bracket with it so it is recognised.
    while (open > 0 && text[open - 1] === '[') open--;
    return open;
  }

  private link(text: string): string {
    return text.replace(/(?<!\[)\[(\d+(?:\s*[,，、]\s*\d+)*)\](?![\](])/g, (_marker, list: string) => {
      const numbers = list.split(/\s*[,，、]\s*/).map(Number);
      return numbers
        .map((n) => {
          const url = this.urlOf(n);
          return url ? `[[${n}]](${url})` : `[${n}]`;
        })
        .join('');
    });
  }
}

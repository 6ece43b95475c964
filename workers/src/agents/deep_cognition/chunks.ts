/**
 * Pages cut into chunks and the chunks that bear on a question found by BM25 (MiniSearch), so a
 * fact anywhere in a page reaches the call that needs it, and only that part of the page does.
 */
import MiniSearch from 'minisearch';
import { sentencesOf } from './text.ts';

/** Characters of one chunk: a paragraph or a few sentences, small enough to cite from precisely. */
export const CHUNK_CHARS = 400;

export interface Chunk {
  /** The source it comes from. */
  n: number;
  /** Its place among the source's chunks, so chunks of one source are shown in reading order. */
  order: number;
  text: string;
}

const HAN = /\p{Script=Han}/u;
/** Text ending in a Han character or CJK punctuation: the next sentence follows without a space. */
const CJK_END = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]$/u;

/**
 * Search terms of a text: words of alphabetic scripts, lower-cased, and pairs of neighbouring Han
 * characters (a lone Han character stays itself). Chinese has no spaces, and pairs match the
 * two-character words most of its vocabulary is made of without a dictionary.
 */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  for (const [run] of text.toLowerCase().matchAll(/\p{Script=Han}+|[\p{L}\p{N}][\p{L}\p{N}.%-]*/gu)) {
    if (!HAN.test(run)) {
      terms.push(run.replace(/[.%-]+$/, ''));
      continue;
    }
    const chars = Array.from(run);
    if (chars.length === 1) terms.push(run);
    for (let at = 0; at + 1 < chars.length; at++) terms.push(chars[at]! + chars[at + 1]!);
  }
  return terms.filter(Boolean);
}

/**
 * Where the chunks worth sending end: a chunk far below the best match shares a few common words
 * with the query (a page's boilerplate on "cost" or "policy") and costs tokens without a fact.
 */
export interface Floor {
  /** Of the best hit's score, the least a chunk past `keep` must have. */
  share: number;
  /** Chunks given whatever their score, so a call whose best chunks went to others still has some. */
  keep: number;
}

const keyOf = (chunk: Chunk) => `${chunk.n}:${chunk.order}`;

/** A text as chunks of whole sentences, each up to about `CHUNK_CHARS` (a longer sentence is a chunk alone). */
export function chunksOf(text: string, size = CHUNK_CHARS): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const paragraph of text.split(/\n\s*\n/)) {
    for (const sentence of sentencesOf(paragraph)) {
      const gap = current && !CJK_END.test(current) ? ' ' : '';
      if (current && current.length + gap.length + sentence.length > size) {
        chunks.push(current);
        current = sentence;
      } else current += gap + sentence;
    }
    // A paragraph ends a chunk once the chunk is half full, so chunks follow the page's own parts.
    if (current.length >= size / 2) {
      chunks.push(current);
      current = '';
    }
  }
  if (current) chunks.push(current);
  return chunks;
}

/** The chunks of some texts, searchable by BM25. */
export class ChunkIndex {
  private readonly chunks: Chunk[] = [];
  private readonly search = new MiniSearch<Chunk & { id: number }>({
    fields: ['text'],
    tokenize,
    processTerm: (term) => term,
    searchOptions: { tokenize, processTerm: (term) => term, combineWith: 'OR' },
  });

  constructor(texts: ReadonlyArray<{ n: number; text: string }>) {
    for (const { n, text } of texts) {
      chunksOf(text).forEach((chunk, order) => this.chunks.push({ n, order, text: chunk }));
    }
    this.search.addAll(this.chunks.map((chunk, id) => ({ ...chunk, id })));
  }

  /**
   * The `limit` chunks that bear most on `query`, best first, at most `perSource` of any one source.
   * Chunks whose key (`keyOf`) is in `given` are passed over, and the ones picked are added to it, so
   * calls that share it (the sections of one report) are each given what the others were not. With a
   * `floor`, past its `keep` chunks none scoring under `share` of the best hit's score.
   */
  best(query: string, limit: number, perSource = limit, given?: Set<string>, floor?: Floor): Chunk[] {
    const taken = new Map<number, number>();
    const picked: Chunk[] = [];
    const hits = this.search.search(query);
    const least = (hits[0]?.score ?? 0) * (floor?.share ?? 0);
    for (const hit of hits) {
      if (hit.score < least && picked.length >= floor!.keep) break;
      const chunk = this.chunks[hit.id as number]!;
      if (given?.has(keyOf(chunk))) continue;
      const count = taken.get(chunk.n) ?? 0;
      if (count >= perSource) continue;
      taken.set(chunk.n, count + 1);
      picked.push(chunk);
      if (picked.length === limit) break;
    }
    for (const chunk of picked) given?.add(keyOf(chunk));
    return picked;
  }
}

/** Whitespace and punctuation aside, the same sentence. */
const sentenceKey = (sentence: string) => sentence.replace(/[\s\p{P}]/gu, '');

/**
 * The chunks as they are shown, in order, each without the sentences an earlier one (or `seen`)
 * already holds: pages repeat their lead further down and syndicated pages repeat each other, and
 * a call told a fact once can cite it as well as one told it four times. A chunk left with
 * nothing new goes.
 */
export function withoutRepeats(chunks: readonly Chunk[], seen = new Set<string>()): Chunk[] {
  const kept: Chunk[] = [];
  for (const chunk of chunks) {
    let text = '';
    for (const sentence of sentencesOf(chunk.text)) {
      const key = sentenceKey(sentence);
      if (seen.has(key)) continue;
      seen.add(key);
      text += (text && !CJK_END.test(text) ? ' ' : '') + sentence;
    }
    if (text) kept.push({ ...chunk, text });
  }
  return kept;
}

/**
 * Chunks grouped by source, each source's in reading order, joined as one excerpt per source, with
 * no sentence repeated over the excerpts (`withoutRepeats`, the lower numbers first). Chunks that
 * are not neighbours in the page are set on lines of their own: run on after ` … `, a writer
 * quoted the end of one and the start of the next as one sentence the page never says.
 */
export function excerptsBySource(chunks: readonly Chunk[]): Map<number, string> {
  const ordered = [...chunks].sort((a, b) => a.n - b.n || a.order - b.order);
  const bySource = new Map<number, string[]>();
  for (const chunk of withoutRepeats(ordered)) bySource.set(chunk.n, [...(bySource.get(chunk.n) ?? []), chunk.text]);
  return new Map([...bySource].map(([n, texts]) => [n, texts.join('\n…\n')]));
}

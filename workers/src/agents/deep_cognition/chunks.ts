/**
 * Pages cut into chunks and the chunks that bear on a question found by BM25 (MiniSearch), fused
 * with embeddings when an embedding endpoint is configured, so a fact anywhere in a page reaches the
 * call that needs it, and only that part of the page does.
 */
import MiniSearch from 'minisearch';
import { cosine, type EmbeddingPort } from '@scriptorium/infra/embeddings/port';
import { aboutThePage, headingLike, sentenceKey, sentencesOf } from './text.ts';

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
  /** Sources whose chunks on the query are given whatever their score: what the user attached. */
  always?: ReadonlySet<number>;
}

/** Reciprocal rank fusion's constant: how little a first place counts more than a tenth. */
const RRF_K = 60;

/** What goes between a text and its next sentence: a heading keeps its line, so it never reads as the first words of the sentence after it. */
const gapAfter = (text: string, lastSentence: string) => (!text ? '' : headingLike(lastSentence) ? '\n' : CJK_END.test(text) ? '' : ' ');

/** A text as chunks of whole sentences, each up to about `CHUNK_CHARS` (a longer sentence is a chunk alone). */
export function chunksOf(text: string, size = CHUNK_CHARS): string[] {
  const chunks: string[] = [];
  let current = '';
  let lastSentence = '';
  for (const paragraph of text.split(/\n\s*\n/)) {
    for (const sentence of sentencesOf(paragraph)) {
      const gap = gapAfter(current, lastSentence);
      if (current && current.length + gap.length + sentence.length > size) {
        chunks.push(current);
        current = sentence;
      } else current += gap + sentence;
      lastSentence = sentence;
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

  /** Each chunk's vector, by its place in `chunks`, once `embed` has run. */
  private vectors: number[][] | null = null;
  private readonly queryVectors = new Map<string, number[]>();

  constructor(texts: ReadonlyArray<{ n: number; text: string }>) {
    for (const { n, text } of texts) {
      chunksOf(text).forEach((chunk, order) => this.chunks.push({ n, order, text: chunk }));
    }
    this.search.addAll(this.chunks.map((chunk, id) => ({ ...chunk, id })));
  }

  /**
   * Embeds the chunks (once) and the queries `best` will be asked: from then on those queries rank
   * chunks by words and by meaning together.
   */
  async embed(port: EmbeddingPort, queries: readonly string[], signal?: AbortSignal): Promise<void> {
    const wanted = [...new Set(queries)].filter((query) => !this.queryVectors.has(query));
    const chunkTexts = this.vectors ? [] : this.chunks.map((chunk) => chunk.text);
    if (chunkTexts.length + wanted.length === 0) return;
    const vectors = await port.embed([...chunkTexts, ...wanted], { ...(signal && { signal }) });
    if (!this.vectors) this.vectors = vectors.slice(0, chunkTexts.length);
    wanted.forEach((query, index) => this.queryVectors.set(query, vectors[chunkTexts.length + index]!));
  }

  /**
   * Chunk ids best first, each with its score (BM25, or fused) and whether it clears the floor. BM25 alone, or, once the query is
   * embedded, BM25's ranking and the embeddings' fused by reciprocal rank (Cormack et al.; k = 60),
   * which needs no scale shared by the two scores. A chunk clears the floor when BM25 scores it at
   * `share` of its best at least, or when it is among the embeddings' first `keep` at that share of
   * theirs: cosines of one model lie close together, so a share alone would clear nearly every chunk.
   */
  private ranked(query: string, share: number, keep: number): Array<{ id: number; score: number; clears: boolean }> {
    const words = this.search.search(query).map((hit) => ({ id: hit.id as number, score: hit.score }));
    const vector = this.queryVectors.get(query);
    if (!vector || !this.vectors) {
      const least = (words[0]?.score ?? 0) * share;
      return words.map((hit) => ({ ...hit, clears: hit.score >= least }));
    }
    const meaning = this.vectors
      .map((chunk, id) => ({ id, score: cosine(chunk, vector) }))
      .filter((hit) => hit.score > 0)
      .sort((a, b) => b.score - a.score);
    const fused = new Map<number, { score: number; clears: boolean }>();
    for (const [list, clearing] of [
      [words, words.length],
      [meaning, keep],
    ] as const) {
      const least = (list[0]?.score ?? 0) * share;
      list.forEach((hit, rank) => {
        const known = fused.get(hit.id) ?? { score: 0, clears: false };
        fused.set(hit.id, { score: known.score + 1 / (RRF_K + rank + 1), clears: known.clears || (rank < clearing && hit.score >= least) });
      });
    }
    return [...fused].sort((a, b) => b[1].score - a[1].score).map(([id, fusedHit]) => ({ id, ...fusedHit }));
  }

  /** The first chunk of each of these sources: where a read page's note stands. */
  heads(sources: Iterable<number>): Chunk[] {
    const wanted = new Set(sources);
    return this.chunks.filter((chunk) => chunk.order === 0 && wanted.has(chunk.n));
  }

  /**
   * The `limit` chunks that bear most on `query`, best first, at most `perSource` of any one source.
   * With a `floor`, past its `keep` chunks none scoring under `share` of the best hit's score.
   */
  best(query: string, limit: number, perSource = limit, floor?: Floor): Chunk[] {
    return this.draft([{ query }], limit, perSource, floor)[0]!;
  }

  /**
   * The chunks of calls written side by side (the sections of one report), each call's as `best`
   * would give it, but no sentence to two calls: the calls take in turns, each its best chunk that
   * still says something no call was given, cut to what is new, until each has `limit` or nothing
   * is left for it. Sections then say different things instead of each restating the best-known
   * figures, and taking in turns rather than call by call keeps the first from taking every fact
   * several pages state while the last is left the boilerplate. A call's `first` chunks (a
   * section's notes) come before its ranked ones and do not count against `limit`.
   */
  draft(calls: ReadonlyArray<{ query: string; first?: readonly Chunk[] }>, limit: number, perSource = limit, floor?: Floor): Chunk[][] {
    const told = new Set<string>();
    const picked = calls.map((): Chunk[] => []);
    const queues = calls.map(({ query, first = [] }) => [
      ...first.map((chunk) => ({ chunk, clears: true, counts: false })),
      ...this.ranked(query, floor?.share ?? 0, floor?.keep ?? limit).map((hit) => ({ chunk: this.chunks[hit.id]!, clears: hit.clears, counts: true })),
    ]);
    const counted = calls.map(() => 0);
    const fromSource = calls.map(() => new Map<number, number>());
    const next = (call: number): Chunk | null => {
      const queue = queues[call]!;
      while (queue.length > 0) {
        const { chunk, clears, counts } = queue.shift()!;
        if (counts && counted[call]! >= limit) return null;
        if (counts && !clears && !floor?.always?.has(chunk.n) && counted[call]! >= floor!.keep) continue;
        const count = fromSource[call]!.get(chunk.n) ?? 0;
        if (counts && count >= perSource) continue;
        // A chunk whose every sentence a better one or another call already holds (a page's lead
        // repeated, a syndicated copy) would leave its place empty: the place goes further down.
        const [fresh] = worthShowing([chunk], told);
        if (!fresh) continue;
        if (counts) {
          fromSource[call]!.set(chunk.n, count + 1);
          counted[call]! += 1;
        }
        return fresh;
      }
      return null;
    };
    const open = new Set(calls.keys());
    while (open.size > 0) {
      for (const call of open) {
        const chunk = next(call);
        if (chunk) picked[call]!.push(chunk);
        else open.delete(call);
      }
    }
    return picked;
  }
}

/**
 * The chunks as they are shown, in order, each without the sentences an earlier one (or `seen`)
 * already holds, nor those in which the page speaks of itself (`aboutThePage`): pages repeat their
 * lead further down and syndicated pages repeat each other, and a call told a fact once can cite it
 * as well as one told it four times; "this review looks at…" is no fact at all. A chunk left with
 * nothing new goes.
 */
export function worthShowing(chunks: readonly Chunk[], seen = new Set<string>()): Chunk[] {
  const kept: Chunk[] = [];
  for (const chunk of chunks) {
    let text = '';
    let last = '';
    for (const sentence of sentencesOf(chunk.text)) {
      const key = sentenceKey(sentence);
      if (seen.has(key) || aboutThePage(sentence)) continue;
      seen.add(key);
      text += gapAfter(text, last) + sentence;
      last = sentence;
    }
    if (text) kept.push({ ...chunk, text });
  }
  return kept;
}

/**
 * Chunks grouped by source, each source's in reading order, joined as one excerpt per source, with
 * no sentence repeated over the excerpts (`worthShowing`, the lower numbers first). Chunks that
 * are not neighbours in the page are set on lines of their own: run on after ` … `, a writer
 * quoted the end of one and the start of the next as one sentence the page never says.
 */
export function excerptsBySource(chunks: readonly Chunk[]): Map<number, string> {
  const ordered = [...chunks].sort((a, b) => a.n - b.n || a.order - b.order);
  const bySource = new Map<number, string[]>();
  for (const chunk of worthShowing(ordered)) bySource.set(chunk.n, [...(bySource.get(chunk.n) ?? []), chunk.text]);
  return new Map([...bySource].map(([n, texts]) => [n, texts.join('\n…\n')]));
}

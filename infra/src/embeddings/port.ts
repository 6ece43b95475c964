/** Vectors for texts, from an embedding model: texts close in meaning get vectors close in direction. */
export interface EmbeddingPort {
  readonly model: string;
  /** One vector per text, in the order given. */
  embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<number[][]>;
}

/** Cosine similarity of two vectors of one model (0 when either is all zeros). */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * (b[i] ?? 0);
    aa += a[i]! * a[i]!;
    bb += (b[i] ?? 0) * (b[i] ?? 0);
  }
  return aa === 0 || bb === 0 ? 0 : dot / Math.sqrt(aa * bb);
}

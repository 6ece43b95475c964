import OpenAI from 'openai';
import type { EmbeddingPort } from './port.ts';

export interface OpenAIEmbeddingsOptions {
  /** The API root (`http://localhost:11434/v1`); a bare origin gets the conventional `/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Texts per request: providers cap the inputs of one call (OpenAI 2,048, many local servers far fewer). */
  batchSize?: number;
  fetch?: typeof fetch;
}

/** Texts past this many characters are cut: a chunk is far shorter, and no input may pass the model's own limit (8,192 tokens for OpenAI's). */
const MAX_INPUT_CHARS = 6_000;

/**
 * An OpenAI-compatible `POST /embeddings` (OpenAI, vLLM, Ollama, LiteLLM, text-embeddings-inference)
 * through the openai client, which retries rate limits and server errors with backoff.
 */
export class OpenAIEmbeddings implements EmbeddingPort {
  readonly model: string;
  private readonly client: OpenAI;
  private readonly batchSize: number;

  constructor(options: OpenAIEmbeddingsOptions) {
    const url = new URL(options.baseUrl);
    const path = url.pathname.replace(/\/+$/, '');
    url.pathname = path === '' ? '/v1' : path;
    this.model = options.model;
    this.batchSize = options.batchSize ?? 64;
    // Local servers need no key; the client insists on one.
    this.client = new OpenAI({ baseURL: url.toString().replace(/\/+$/, ''), apiKey: options.apiKey || 'none', maxRetries: 2, timeout: 60_000, ...(options.fetch && { fetch: options.fetch }) });
  }

  async embed(texts: readonly string[], options: { signal?: AbortSignal } = {}): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      const input = texts.slice(start, start + this.batchSize).map((text) => text.slice(0, MAX_INPUT_CHARS) || ' ');
      const response = await this.client.embeddings.create({ model: this.model, input, encoding_format: 'float' }, { ...(options.signal && { signal: options.signal }) });
      const ordered = [...response.data].sort((a, b) => a.index - b.index);
      if (ordered.length !== input.length) throw new Error(`the embedding endpoint answered ${ordered.length} vectors for ${input.length} texts`);
      vectors.push(...ordered.map((entry) => entry.embedding));
    }
    return vectors;
  }
}

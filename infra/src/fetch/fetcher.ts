/**
 * Reads a web page for the research agent: HTML through Readability, plain text and Markdown as
 * they are, anything else refused. Every hop is checked by the SSRF guard before it is requested
 * and again at connect time (see ssrf.ts); redirects are followed here, not by the HTTP client, so
 * none can skip the check.
 */
import { Agent, fetch as undiciFetch, type Response } from 'undici';
import { FetchError } from './errors.ts';
import { DocumentSandbox } from '../documents/sandbox.ts';
import { decodeBody, readableText, type ReadablePage } from './readable.ts';
import { SsrfGuard, type SsrfOptions } from './ssrf.ts';

export { FetchError, type FetchReason } from './errors.ts';

export interface FetchedPage extends ReadablePage {
  /** Where the page was read, after redirects. */
  url: string;
  /** The media type without parameters, e.g. `text/html`. */
  contentType: string;
}

export interface FetchOptions {
  /** Cancels the read; the signal's own reason is thrown, not a FetchError. */
  signal?: AbortSignal;
  /** Bytes of body after decompression; a longer page is refused, not cut. */
  maxBytes?: number;
  /** For the whole read: every hop, and the body. */
  timeoutMs?: number;
}

export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 15_000;
export const MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const MARKDOWN_TYPES = new Set(['text/markdown', 'text/x-markdown']);

export class PageFetcher {
  private readonly guard: SsrfGuard;
  private readonly agent: Agent;

  constructor(options: SsrfOptions = {}) {
    this.guard = new SsrfGuard(options);
    this.agent = new Agent({ connect: { lookup: this.guard.lookup } });
  }

  async fetch(url: string, options: FetchOptions = {}): Promise<FetchedPage> {
    const { signal, maxBytes = DEFAULT_MAX_BYTES, timeoutMs = DEFAULT_TIMEOUT_MS } = options;
    signal?.throwIfAborted();
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      const response = await this.follow(url, combined);
      return await this.read(response, maxBytes, combined);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (timeout.aborted) throw new FetchError('timeout', 'fetch.timeout', { seconds: Math.round(timeoutMs / 1000) }, { url, cause: error });
      throw error;
    }
  }

  /** Closes pooled connections; pending reads fail. */
  async close(): Promise<void> {
    await this.agent.close();
  }

  private async follow(start: string, signal: AbortSignal): Promise<Response> {
    let current = parseUrl(start);
    for (let hop = 0; ; hop++) {
      await abortable(this.guard.checkUrl(current), signal);
      const response = await this.request(current, signal);
      if (!REDIRECTS.has(response.status)) return response;
      await response.body?.cancel();
      const location = response.headers.get('location');
      if (!location) throw new FetchError('http_status', 'fetch.redirect_without_location', { status: response.status }, { url: current.href, status: response.status });
      if (hop >= MAX_REDIRECTS) throw new FetchError('too_many_redirects', 'fetch.too_many_redirects', { max: MAX_REDIRECTS }, { url: start });
      current = parseUrl(location, current);
    }
  }

  private async request(url: URL, signal: AbortSignal): Promise<Response> {
    try {
      return await undiciFetch(url, {
        dispatcher: this.agent,
        redirect: 'manual',
        signal,
        headers: {
          accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,text/markdown;q=0.9,*/*;q=0.1',
          'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8',
          'user-agent': 'Mozilla/5.0 (compatible; Scriptorium/1.0; research assistant)',
        },
      });
    } catch (error) {
      // The guard's refusal at connect time reaches here wrapped by the client ("fetch failed").
      const refusal = causeOf(error);
      if (refusal) throw new FetchError(refusal.reason, refusal.code, refusal.params, { url: url.href, cause: error });
      if (signal.aborted) throw error;
      throw new FetchError('network', 'fetch.unreachable', { host: url.host }, { url: url.href, cause: error });
    }
  }

  private async read(response: Response, maxBytes: number, signal: AbortSignal): Promise<FetchedPage> {
    const url = response.url;
    if (!response.ok) {
      await response.body?.cancel();
      throw new FetchError('http_status', 'fetch.http_status', { status: response.status }, { url, status: response.status });
    }
    const [mediaType = '', ...parameters] = (response.headers.get('content-type') ?? '').split(';').map((part) => part.trim());
    const declared = mediaType.toLowerCase();
    if (declared && !HTML_TYPES.has(declared) && !MARKDOWN_TYPES.has(declared) && declared !== 'text/plain') {
      await response.body?.cancel();
      throw new FetchError('bad_type', 'fetch.unsupported_type', { type: declared }, { url });
    }
    const length = Number(response.headers.get('content-length'));
    if (length > maxBytes) {
      await response.body?.cancel();
      throw tooLarge(url, maxBytes);
    }
    const bytes = await readBody(response, maxBytes, url, signal);
    // An unlabelled body is read only when it is plainly HTML; a binary file is not guessed at.
    const contentType = declared || (/^\s*(<!doctype html|<html|<head|<body)/i.test(new TextDecoder().decode(bytes.subarray(0, 512))) ? 'text/html' : '');
    if (!contentType) throw new FetchError('bad_type', 'fetch.untyped', {}, { url });
    const html = HTML_TYPES.has(contentType);
    const charset = parameters.map((part) => /^charset\s*=\s*"?([^";]+)"?$/i.exec(part)?.[1]).find(Boolean);
    const text = decodeBody(bytes, charset, html);
    if (text === null) throw new FetchError('bad_type', 'fetch.unknown_encoding', {}, { url });
    const fallbackTitle = titleFromUrl(new URL(url));
    // A page is as untrusted as an upload: its HTML is parsed in the document sandbox (fetch.too_complex past its limits).
    const page = html ? await DocumentSandbox.shared().run({ task: 'page', source: text, fallbackTitle }) : readableText(text, MARKDOWN_TYPES.has(contentType), fallbackTitle);
    return { url, contentType, ...page };
  }
}

async function readBody(response: Response, maxBytes: number, url: string, signal: AbortSignal): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge(url, maxBytes);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof FetchError || signal.aborted) throw error;
    throw new FetchError('network', 'fetch.connection_lost', {}, { url, cause: error });
  }
  return Buffer.concat(chunks);
}

/** DNS lookups cannot be cancelled, so a stuck one is raced against the read's signal to keep the time limit. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function tooLarge(url: string, maxBytes: number): FetchError {
  return new FetchError('too_large', 'fetch.too_large', { kb: Math.round(maxBytes / 1024) }, { url });
}

function parseUrl(input: string, base?: URL): URL {
  try {
    return new URL(input, base);
  } catch {
    throw new FetchError('bad_url', 'fetch.bad_url', { url: input }, { url: input });
  }
}

function causeOf(error: unknown): FetchError | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current instanceof FetchError) return current;
  }
  return undefined;
}

function titleFromUrl(url: URL): string {
  const last = url.pathname.split('/').filter(Boolean).pop();
  if (!last) return url.hostname;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

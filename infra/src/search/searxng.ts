/**
 * Web search through a SearXNG instance's JSON API (`GET /search?q=…&format=json`). The instance is
 * chosen by the operator (`SEARCH_URL`), so it is called directly, without the page fetcher's SSRF
 * guard: it usually runs beside the product on a private address.
 */
import type { SearchHit, SearchOptions, WebSearch } from './port.ts';

export interface SearxngOptions {
  /** `SEARCH_URL`: the instance's base address; a trailing `/search` is accepted too. */
  baseUrl: string;
  /**
   * Sent as `language` when a search names none; SearXNG passes it to the engines that filter by
   * language. Absent: the language of the query's words (`searchLanguageOf`).
   */
  language?: string;
  /** Sent as `categories` when given (comma-separated SearXNG categories). */
  categories?: string;
  /** `0` off, `1` moderate, `2` strict; the instance's default when absent. */
  safesearch?: 0 | 1 | 2;
  timeoutMs?: number;
  /** For tests and proxies; the global fetch by default. */
  fetch?: typeof fetch;
}

export type SearchErrorReason = 'http_status' | 'bad_response' | 'timeout' | 'network';

/** The search instance failed; the research agent goes on without web results and says so. */
export class SearchError extends Error {
  constructor(
    readonly reason: SearchErrorReason,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SearchError';
  }
}

/**
 * The language to ask results in when nobody said: Chinese when Han characters outweigh Latin
 * words (two characters to a word, as the research agent tells a question's language), else English.
 */
export function searchLanguageOf(query: string): 'zh-CN' | 'en' {
  const han = query.match(/\p{Script=Han}/gu)?.length ?? 0;
  const words = query.match(/[A-Za-z]{2,}/g)?.length ?? 0;
  return han === 0 && words === 0 ? 'zh-CN' : han / 2 >= words ? 'zh-CN' : 'en';
}
export const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_LIMIT = 10;

interface SearxngResult {
  title?: unknown;
  url?: unknown;
  content?: unknown;
  engine?: unknown;
}

export class SearxngSearch implements WebSearch {
  readonly name = 'searxng';
  readonly offline = false;
  private readonly endpoint: URL;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: SearxngOptions) {
    const base = new URL(options.baseUrl);
    if (!base.pathname.endsWith('/search')) base.pathname = `${base.pathname.replace(/\/$/, '')}/search`;
    this.endpoint = base;
    this.fetch = options.fetch ?? fetch;
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const { signal, limit = DEFAULT_LIMIT, language } = options;
    signal?.throwIfAborted();
    const url = new URL(this.endpoint);
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    url.searchParams.set('language', language ?? this.options.language ?? searchLanguageOf(query));
    url.searchParams.set('pageno', '1');
    if (this.options.categories) url.searchParams.set('categories', this.options.categories);
    if (this.options.safesearch !== undefined) url.searchParams.set('safesearch', String(this.options.safesearch));

    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let body: string;
    let response: Response;
    try {
      response = await this.fetch(url, { signal: combined, headers: { accept: 'application/json' } });
      body = await response.text();
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (timeout.aborted) throw new SearchError('timeout', `搜索服务 ${timeoutMs / 1000} 秒内没有响应`, undefined, { cause: error });
      throw new SearchError('network', `无法连接搜索服务 ${url.host}`, undefined, { cause: error });
    }
    if (!response.ok) {
      // 403 is what SearXNG answers when `json` is missing from `search.formats` in its settings.
      const hint = response.status === 403 ? '（请在 SearXNG 的 settings.yml 中为 search.formats 启用 json）' : '';
      throw new SearchError('http_status', `搜索服务返回 HTTP ${response.status}${hint}`, response.status);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch (error) {
      throw new SearchError('bad_response', `搜索服务返回的不是 JSON（${response.headers.get('content-type') ?? '未知类型'}）`, response.status, { cause: error });
    }
    const results = (parsed as { results?: unknown } | null)?.results;
    if (!Array.isArray(results)) throw new SearchError('bad_response', '搜索服务的回答中没有 results 列表', response.status);
    return dedupe(results as SearxngResult[]).slice(0, limit);
  }
}

/** Hits in SearXNG's order (best first), one per page: the same page reached by several engines or URL spellings counts once. */
function dedupe(results: SearxngResult[]): SearchHit[] {
  const seen = new Set<string>();
  const hits: SearchHit[] = [];
  for (const result of results) {
    if (typeof result.url !== 'string') continue;
    const key = normalizeUrl(result.url);
    if (key === null || seen.has(key)) continue;
    seen.add(key);
    const title = typeof result.title === 'string' ? result.title.trim() : '';
    hits.push({
      title: title || result.url,
      url: result.url,
      snippet: typeof result.content === 'string' ? result.content.replace(/\s+/g, ' ').trim() : '',
      source: 'web',
      ...(typeof result.engine === 'string' && { engine: result.engine }),
    });
  }
  return hits;
}

const TRACKING = /^(utm_\w+|spm|share_source|share_medium|fbclid|gclid|msclkid)$/i;

/**
 * The identity of a page for deduplication: scheme, `www.`, a scheme's default port, fragment, tracking
 * parameters, parameter order and a trailing slash do not make another page. Null for a result
 * that is not an http(s) address, which the agent could not read anyway.
 */
export function normalizeUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const params = [...url.searchParams].filter(([name]) => !TRACKING.test(name)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = new URLSearchParams(params).toString();
  const host = url.hostname.replace(/^www\./, '');
  const port = url.port ? `:${url.port}` : '';
  const path = url.pathname.replace(/\/+$/, '');
  return `${host}${port}${path}${query ? `?${query}` : ''}`;
}

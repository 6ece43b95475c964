/** Where a hit came from: the web, or the kind of the user's own material. */
export type HitSource = 'web' | 'note' | 'upload' | 'source' | 'cognition';

export interface SearchHit {
  title: string;
  /** The page address; material with none has `<kind>:<id>` (e.g. `note:n1`). */
  url: string;
  snippet: string;
  source: HitSource;
  /** The id of the user's document, for hits from local material. */
  id?: string;
  /** The engine that found a web hit, as SearXNG names it (`bing`, `baidu`…). */
  engine?: string;
}

export interface SearchOptions {
  /** At most this many hits; each adapter has its default. */
  limit?: number;
  signal?: AbortSignal;
  /** Whose material to search; required by searches over local material, ignored by the web. */
  userId?: string;
  /**
   * The language results should be in, as SearXNG names it (`zh-CN`, `en`): the research question's.
   * A web search without one asks in the language of the query's own words; local search ignores it.
   */
  language?: string;
}

/**
 * A search the research agent can call: SearXNG when `SEARCH_URL` is set, the local corpus
 * otherwise and for the user's own material.
 */
export interface WebSearch {
  readonly name: string;
  /** True when the search never leaves the machine (the offline mode labels its results so). */
  readonly offline: boolean;
  search(query: string, options?: SearchOptions): Promise<SearchHit[]>;
}

/** What an agent needs of any search: web and local alike. */
export type SearchPort = Pick<WebSearch, 'search'>;

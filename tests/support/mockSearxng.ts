/**
 * A local stand-in for a SearXNG instance: `GET /search?q=…&format=json` answered with SearXNG's JSON
 * shape, plus the ways an instance misbehaves.
 *
 * The scenario is the first path segment before `/search` (`SEARCH_URL=<url>/server-error`), so a
 * client configured with that base address meets it on every request; `<url>/search` is `normal`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export const searxngScenarios = [
  /** 200 with the results of `options.results`. */
  'normal',
  /** 500 with SearXNG's HTML error page. */
  'server-error',
  /** 403 with HTML: what an instance answers when `json` is not enabled in `search.formats`. */
  'json-disabled',
  /** 200 with an HTML page, as from a proxy's login or error page. */
  'html',
  /** 200, `application/json`, a body that is not JSON. */
  'malformed',
  /** 200 with JSON that has no `results` list. */
  'no-results-field',
  /** Never answers. */
  'hang',
] as const;

export type SearxngScenario = (typeof searxngScenarios)[number];

export interface MockSearxngResult {
  title: string;
  url: string;
  content: string;
  engine: string;
}

export interface MockSearxngRequest {
  scenario: SearxngScenario;
  /** The query parameters as sent. */
  params: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
}

export interface MockSearxngOptions {
  /** The results for a query; by default two results about the query, each found twice. */
  results?: (query: string) => MockSearxngResult[];
}

export interface MockSearxng {
  url: string;
  requests: MockSearxngRequest[];
  close(): Promise<void>;
}

/** The default answer: each page found by two engines under two spellings of its address, as SearXNG instances often return. */
export function defaultResults(query: string): MockSearxngResult[] {
  return [
    { title: `${query} - 百科`, url: 'https://baike.example.com/item/1', content: `${query}是一个被广泛讨论的话题。`, engine: 'baidu' },
    { title: `${query} 最新进展`, url: 'https://news.example.com/a?id=7&utm_source=searx', content: `关于${query}的最新报道。`, engine: 'bing' },
    { title: `${query} - 百科`, url: 'http://www.baike.example.com/item/1/#intro', content: `${query}是一个被广泛讨论的话题。`, engine: 'bing' },
    { title: `${query} 最新进展`, url: 'https://news.example.com/a?id=7', content: `关于${query}的最新报道。`, engine: 'sogou' },
  ];
}

export async function startMockSearxng(options: MockSearxngOptions = {}): Promise<MockSearxng> {
  const results = options.results ?? defaultResults;
  const requests: MockSearxngRequest[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://mock');
    const match = /^(?:\/([\w-]+))?\/search\/?$/.exec(url.pathname);
    const named = match?.[1] ?? 'normal';
    if (!match || !(searxngScenarios as readonly string[]).includes(named)) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>');
      return;
    }
    const scenario = named as SearxngScenario;
    requests.push({ scenario, params: Object.fromEntries(url.searchParams), headers: req.headers });
    const query = url.searchParams.get('q') ?? '';
    switch (scenario) {
      case 'normal':
        if (url.searchParams.get('format') !== 'json') {
          res.writeHead(200, { 'content-type': 'text/html' }).end('<html>results page</html>');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            query,
            number_of_results: 0,
            results: results(query).map((result, index) => ({ ...result, engines: [result.engine], positions: [index + 1], score: 1 / (index + 1), category: 'general' })),
            answers: [],
            corrections: [],
            infoboxes: [],
            suggestions: [],
            unresponsive_engines: [],
          }),
        );
        return;
      case 'server-error':
        res.writeHead(500, { 'content-type': 'text/html' }).end('<html><body>Internal Server Error</body></html>');
        return;
      case 'json-disabled':
        res.writeHead(403, { 'content-type': 'text/html' }).end('<html><body>403 Forbidden</body></html>');
        return;
      case 'html':
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><body>Please sign in</body></html>');
        return;
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"results": [');
        return;
      case 'no-results-field':
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ query, error: 'engines failed' }));
        return;
      case 'hang':
        return;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

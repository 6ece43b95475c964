/**
 * The lab's web: a SearXNG-compatible search over the corpus (`/search?format=json&q=…&language=…`,
 * plain term matching) and a server of its pages as HTML. Both log what they were asked, which is
 * how the lab counts searches and pages read without looking inside the product.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PAGES, TOPICS, pageText, type Page } from './corpus.ts';
import { overlap, sentencesOf, termsOf } from './text.ts';

export interface SearchLog {
  query: string;
  language: string | null;
  results: number;
}

export interface LabWeb {
  searchUrl: string;
  pagesUrl: string;
  /** `host:port` of the page server, for FETCH_ALLOW_HOSTS. */
  pagesHost: string;
  searches: SearchLog[];
  /** Paths of the pages served, in order. */
  reads: string[];
  urlOf(path: string): string;
  close(): Promise<void>;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function html(page: Page): string {
  const lang = /\p{Script=Han}/u.test(page.title) ? 'zh-CN' : 'en';
  const body = page.paragraphs.map((paragraph) => `<p>${escape(paragraph)}</p>`).join('\n');
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${escape(page.title)}</title></head><body><nav><a href="/">Home</a></nav><article><h1>${escape(page.title)}</h1>\n${body}\n</article><footer>© Lab</footer></body></html>`;
}

/** The snippet an engine shows: the sentence that best matches the query, clipped as engines clip. */
function snippet(page: Page, terms: readonly string[]): string {
  const sentences = sentencesOf(page.paragraphs.join('\n'));
  const best = [...sentences].sort((a, b) => overlap(terms, b) - overlap(terms, a))[0] ?? '';
  return best.length > 160 ? `${best.slice(0, 157)}...` : best;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

export async function startLabWeb(): Promise<LabWeb> {
  const searches: SearchLog[] = [];
  const reads: string[] = [];
  let pagesOrigin = '';

  const pages = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://lab').pathname;
    const page = PAGES.get(path);
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>Not found</h1>');
      return;
    }
    reads.push(path);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html(page));
  });

  const search = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://lab');
    if (url.pathname !== '/search' || url.searchParams.get('format') !== 'json') {
      res.writeHead(403, { 'content-type': 'text/html' }).end('<h1>403 Forbidden</h1>');
      return;
    }
    const query = url.searchParams.get('q') ?? '';
    const terms = termsOf(query);
    const scored = TOPICS.flatMap((topic) => topic.pages)
      .map((page) => ({ page, score: overlap(terms, page.title) * 2 + overlap(terms, pageText(page)) }))
      .filter((entry) => entry.score >= 0.3)
      .sort((a, b) => b.score - a.score)
      .slice(0, 10);
    const results = scored.map(({ page }, index) => ({
      title: page.title,
      url: `${pagesOrigin}${page.path}`,
      content: snippet(page, terms),
      engine: index % 2 === 0 ? 'bing' : 'duckduckgo',
      score: 1 / (index + 1),
    }));
    searches.push({ query, language: url.searchParams.get('language'), results: results.length });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ query, number_of_results: results.length, results, answers: [], suggestions: [] }));
  });

  const pagesHost = await listen(pages);
  pagesOrigin = `http://${pagesHost}`;
  const searchHost = await listen(search);
  return {
    searchUrl: `http://${searchHost}`,
    pagesUrl: pagesOrigin,
    pagesHost,
    searches,
    reads,
    urlOf: (path) => `${pagesOrigin}${path}`,
    close: async () => {
      await Promise.all([close(pages), close(search)]);
    },
  };
}

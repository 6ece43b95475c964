import test from 'ava';
import { startMockSearxng, type MockSearxng, type SearxngScenario } from '../../../tests/support/mockSearxng.ts';
import type { SearchPort } from './port.ts';
import { normalizeUrl, SearchError, SearxngSearch, searchLanguageOf, type SearchErrorReason } from './searxng.ts';

let mock: MockSearxng;

test.before(async () => {
  mock = await startMockSearxng();
});

test.after.always(async () => {
  await mock.close();
});

const at = (scenario: SearxngScenario, extra: Partial<ConstructorParameters<typeof SearxngSearch>[0]> = {}) =>
  new SearxngSearch({ baseUrl: scenario === 'normal' ? mock.url : `${mock.url}/${scenario}`, ...extra });

async function failure(promise: Promise<unknown>): Promise<SearchError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof SearchError)) throw new Error(`expected a SearchError, got ${String(error)}`);
  return error;
}

test('results come back as web hits in SearXNG order, one per page', async (t) => {
  const search = at('normal');
  t.false(search.offline);
  // What the research agents take as their web search.
  const port: SearchPort = search;
  t.is(port, search);
  const hits = await search.search('固态电池');
  t.deepEqual(hits, [
    { title: '固态电池 - 百科', url: 'https://baike.example.com/item/1', snippet: '固态电池是一个被广泛讨论的话题。', source: 'web', engine: 'baidu' },
    { title: '固态电池 最新进展', url: 'https://news.example.com/a?id=7&utm_source=searx', snippet: '关于固态电池的最新报道。', source: 'web', engine: 'bing' },
  ]);
});

test('the query goes out as format=json in the language of its words by default, or the configured language and options', async (t) => {
  await at('normal').search('量子计算 进展');
  const first = mock.requests.findLast((request) => request.params.q === '量子计算 进展');
  t.like(first?.params, { q: '量子计算 进展', format: 'json', language: 'zh-CN', pageno: '1' });
  t.false(first && 'categories' in first.params);

  await at('normal', { language: 'en', categories: 'general,news', safesearch: 1 }).search('quantum computing');
  const second = mock.requests.findLast((request) => request.params.q === 'quantum computing');
  t.like(second?.params, { language: 'en', categories: 'general,news', safesearch: '1' });

  await at('normal').search('solid-state battery 产业化 progress since 2020');
  t.like(mock.requests.findLast((request) => request.params.q?.startsWith('solid-state'))?.params, { language: 'en' });
});

test('a search names its language, which wins over the configured one and the query’s words', async (t) => {
  await at('normal', { language: 'fr' }).search('quantum annealing', { language: 'zh-CN' });
  t.like(mock.requests.findLast((request) => request.params.q === 'quantum annealing')?.params, { language: 'zh-CN' });
  await at('normal').search('量子退火', { language: 'en' });
  t.like(mock.requests.findLast((request) => request.params.q === '量子退火')?.params, { language: 'en' });
});

test('without a language, Chinese words ask in zh-CN and English words in en', (t) => {
  t.is(searchLanguageOf('固态电池 产业化 进展'), 'zh-CN');
  t.is(searchLanguageOf('LFP 电池 成本'), 'zh-CN');
  t.is(searchLanguageOf('heat pump adoption in Europe'), 'en');
  t.is(searchLanguageOf('2024'), 'zh-CN');
});

test('a base address ending in /search is used as it is', async (t) => {
  const hits = await new SearxngSearch({ baseUrl: `${mock.url}/search` }).search('储能');
  t.is(hits.length, 2);
});

test('limit caps the hits', async (t) => {
  const hits = await at('normal').search('储能', { limit: 1 });
  t.is(hits.length, 1);
});

test('results without a usable address are skipped and a missing title falls back to the address', async (t) => {
  const odd = await startMockSearxng({
    results: () => [
      { title: '', url: 'https://a.example/x', content: '  多个   空白\n换行 ', engine: 'bing' },
      { title: 'FTP', url: 'ftp://files.example/x', content: '', engine: 'bing' },
      { title: 'Broken', url: 'not a url', content: '', engine: 'bing' },
    ],
  });
  try {
    const hits = await new SearxngSearch({ baseUrl: odd.url }).search('x');
    t.deepEqual(hits, [{ title: 'https://a.example/x', url: 'https://a.example/x', snippet: '多个 空白 换行', source: 'web', engine: 'bing' }]);
  } finally {
    await odd.close();
  }
});

const failures: Array<[SearxngScenario, SearchErrorReason, number | undefined]> = [
  ['server-error', 'http_status', 500],
  ['json-disabled', 'http_status', 403],
  ['html', 'bad_response', 200],
  ['malformed', 'bad_response', 200],
  ['no-results-field', 'bad_response', 200],
];

for (const [scenario, reason, status] of failures) {
  test(`scenario ${scenario} fails with ${reason}`, async (t) => {
    const error = await failure(at(scenario).search('测试'));
    t.is(error.reason, reason);
    t.is(error.status, status);
  });
}

test('a 403 names the setting that enables JSON', async (t) => {
  const error = await failure(at('json-disabled').search('测试'));
  t.true(error.message.includes('search.formats'));
});

test('an instance that never answers times out', async (t) => {
  const error = await failure(at('hang', { timeoutMs: 100 }).search('测试'));
  t.is(error.reason, 'timeout');
});

test("the caller's abort is thrown as the caller's reason", async (t) => {
  const controller = new AbortController();
  const reason = new Error('job cancelled');
  const searching = at('hang').search('测试', { signal: controller.signal });
  setTimeout(() => controller.abort(reason), 20);
  t.is(await searching.catch((error: unknown) => error), reason);
});

test('an instance that cannot be reached is a network error', async (t) => {
  const gone = await startMockSearxng();
  const url = gone.url;
  await gone.close();
  const error = await failure(new SearxngSearch({ baseUrl: url }).search('测试'));
  t.is(error.reason, 'network');
});

test('normalizeUrl ignores scheme, www, fragment, tracking parameters, parameter order and a trailing slash', (t) => {
  const same = ['https://www.example.com/a/b/?y=2&x=1#top', 'http://example.com/a/b?x=1&y=2&utm_medium=feed', 'https://EXAMPLE.com/a/b?x=1&spm=a.b.c&y=2'];
  t.is(new Set(same.map(normalizeUrl)).size, 1);
  t.not(normalizeUrl('https://example.com/a/b?x=2'), normalizeUrl('https://example.com/a/b?x=1'));
  t.not(normalizeUrl('https://example.com:8443/a'), normalizeUrl('https://example.com/a'));
  t.is(normalizeUrl('mailto:a@example.com'), null);
});

import test from 'ava';
import { ARTICLE_AUTHOR, ARTICLE_SENTENCE, ARTICLE_TITLE, HUGE_BYTES, startWebServer, type WebServer } from '../../../tests/support/webServer.ts';
import { FetchError, MAX_REDIRECTS, PageFetcher, type FetchReason } from './fetcher.ts';
import type { PageFetcherPort } from './port.ts';
import type { Resolver } from './ssrf.ts';

let site: WebServer;
// The test site is let through by name only; its IP literal stays blocked like any other loopback address.
let fetcher: PageFetcher;

test.before(async () => {
  site = await startWebServer();
  fetcher = new PageFetcher({ allowHosts: ['localhost'] });
});

test.after.always(async () => {
  await fetcher.close();
  await site.close();
});

async function refusal(promise: Promise<unknown>): Promise<FetchReason> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof FetchError)) throw new Error(`expected a FetchError, got ${String(error)}`);
  return error.reason;
}

test('an HTML article is read through Readability: title, byline, text without boilerplate, excerpt', async (t) => {
  const page = await fetcher.fetch(`${site.url}/article`);
  t.is(page.url, `${site.url}/article`);
  t.is(page.contentType, 'text/html');
  t.true(page.title.includes(ARTICLE_TITLE));
  t.true(page.byline?.includes(ARTICLE_AUTHOR));
  t.true(page.text.includes(ARTICLE_SENTENCE));
  t.false(page.text.includes('首页'));
  t.false(page.text.includes('track()'));
  // Paragraphs stay apart, so sentences can be picked out of the text.
  t.true(page.text.split('\n').filter((line) => line.length > 0).length >= 4);
  t.true(page.excerpt.length > 0 && page.excerpt.length <= 201);
});

test('the charset named by the Content-Type header decodes the page (GBK)', async (t) => {
  const page = await fetcher.fetch(`${site.url}/gbk`);
  t.is(page.title, '中文');
  t.true(page.text.includes('中文网页'));
});

test('HTML written without head and body tags is read all the same', async (t) => {
  const page = await fetcher.fetch(`${site.url}/fragment`);
  t.is(page.title, '片段');
  t.true(page.text.includes('半固态电池'));
});

test('plain text and Markdown pass through; Markdown is titled by its first heading', async (t) => {
  const text = await fetcher.fetch(`${site.url}/notes.txt`);
  t.is(text.contentType, 'text/plain');
  t.is(text.text, '会议纪要\n\n第一项：预算。\n第二项：进度。');
  t.is(text.title, 'notes.txt');
  const markdown = await fetcher.fetch(`${site.url}/notes.md`);
  t.is(markdown.contentType, 'text/markdown');
  t.is(markdown.title, '研究笔记');
  t.true(markdown.text.includes('半固态电池是过渡方案'));
});

test('an unlabelled body is read when it is HTML and refused when it is not', async (t) => {
  const page = await fetcher.fetch(`${site.url}/untyped`);
  t.is(page.contentType, 'text/html');
  t.is(page.title, '无类型');
  t.is(await refusal(fetcher.fetch(`${site.url}/blob`)), 'bad_type');
});

test('other content types are refused with bad_type', async (t) => {
  const error = await t.throwsAsync(fetcher.fetch(`${site.url}/paper.pdf`), { instanceOf: FetchError });
  t.is(error?.reason, 'bad_type');
  t.deepEqual([error?.code, error?.params], ['fetch.unsupported_type', { type: 'application/pdf' }]);
});

test('a body over maxBytes is refused, whether or not its length was declared', async (t) => {
  t.is(await refusal(fetcher.fetch(`${site.url}/huge`)), 'too_large');
  t.is(await refusal(fetcher.fetch(`${site.url}/huge-declared`)), 'too_large');
  t.is(await refusal(fetcher.fetch(`${site.url}/article`, { maxBytes: 100 })), 'too_large');
  const page = await fetcher.fetch(`${site.url}/huge`, { maxBytes: HUGE_BYTES + 1 });
  t.is(page.contentType, 'text/html');
});

test('a page that stops sending is given up with timeout', async (t) => {
  t.is(await refusal(fetcher.fetch(`${site.url}/slow`, { timeoutMs: 200 })), 'timeout');
});

test('a name that never resolves is given up with timeout', async (t) => {
  const stuck = new PageFetcher({ resolve: () => new Promise(() => undefined) });
  try {
    t.is(await refusal(stuck.fetch('http://stuck.test/', { timeoutMs: 100 })), 'timeout');
  } finally {
    await stuck.close();
  }
});

test("the caller's abort is thrown as the caller's reason, not as a FetchError", async (t) => {
  const controller = new AbortController();
  const reading = fetcher.fetch(`${site.url}/slow`, { signal: controller.signal });
  const reason = new Error('job cancelled');
  setTimeout(() => controller.abort(reason), 50);
  t.is(await reading.catch((error: unknown) => error), reason);
  const already = new AbortController();
  already.abort(reason);
  t.is(await fetcher.fetch(`${site.url}/article`, { signal: already.signal }).catch((error: unknown) => error), reason);
});

test('HTTP errors are reported with their status', async (t) => {
  const error = await t.throwsAsync(fetcher.fetch(`${site.url}/missing`), { instanceOf: FetchError });
  t.is(error?.reason, 'http_status');
  t.is(error?.details.status, 404);
});

test('redirects are followed up to the limit, and the final URL is returned', async (t) => {
  const page = await fetcher.fetch(`${site.url}/redirect/${MAX_REDIRECTS}`);
  t.is(page.url, `${site.url}/article`);
  t.true(page.text.includes(ARTICLE_SENTENCE));
  t.is(await refusal(fetcher.fetch(`${site.url}/redirect/${MAX_REDIRECTS + 1}`)), 'too_many_redirects');
  t.is(await refusal(fetcher.fetch(`${site.url}/loop`)), 'too_many_redirects');
});

// Serial tests run before the concurrent ones, so the request log holds only their own requests.
test.serial('a redirect to 127.0.0.1 is refused even though the first URL was allowed, and never requested', async (t) => {
  const before = site.requests.length;
  t.is(await refusal(fetcher.fetch(`${site.url}/to-loopback`)), 'blocked_address');
  const made = site.requests.slice(before);
  t.deepEqual(
    made.map((request) => request.path),
    ['/to-loopback'],
  );
});

test.serial('without allowHosts the test site itself is refused, by name and by address', async (t) => {
  const strict = new PageFetcher();
  try {
    const before = site.requests.length;
    t.is(await refusal(strict.fetch(`${site.url}/article`)), 'blocked_address');
    t.is(await refusal(strict.fetch(`${site.loopbackUrl}/article`)), 'blocked_address');
    t.is(site.requests.length, before);
  } finally {
    await strict.close();
  }
});

test.serial('the connection goes to the address the guard checked: a name that rebinds to loopback at connect time is refused', async (t) => {
  let calls = 0;
  // The first answer (for the check before the request) is public, the next (for the socket) is the loopback address.
  const rebinding: Resolver = async () => (calls++ === 0 ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]);
  const victim = new PageFetcher({ resolve: rebinding });
  try {
    const before = site.requests.length;
    t.is(await refusal(victim.fetch(`http://rebind.test:${site.port}/article`)), 'blocked_address');
    t.is(calls, 2);
    t.is(site.requests.length, before);
  } finally {
    await victim.close();
  }
});

test.serial('an allowed name connects through the injected resolver, not the system one', async (t) => {
  const named = new PageFetcher({ allowHosts: ['site.test'], resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
  try {
    const page = await named.fetch(`http://site.test:${site.port}/notes.md`);
    t.is(page.title, '研究笔记');
    t.is(site.requests.at(-1)?.headers.host, `site.test:${site.port}`);
  } finally {
    await named.close();
  }
});

test('the fetcher is what the research agents take as their page fetcher', (t) => {
  const port: PageFetcherPort = fetcher;
  t.is(port, fetcher);
});

test('addresses that are not web pages are refused with bad_url', async (t) => {
  t.is(await refusal(fetcher.fetch('file:///etc/passwd')), 'bad_url');
  t.is(await refusal(fetcher.fetch('not a url')), 'bad_url');
});

test('a host that does not answer is a network error', async (t) => {
  const closed = await startWebServer();
  const url = `${closed.url}/article`;
  await closed.close();
  t.is(await refusal(fetcher.fetch(url)), 'network');
});

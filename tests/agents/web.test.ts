import test from 'ava';
import { PageFetcher } from '@scriptorium/infra/fetch/fetcher';
import { signUp, startTestApp } from '../support/app.ts';
import { startResearch, watchedSession } from '../support/research.ts';
import { startMockSearxng } from '../support/mockSearxng.ts';
import { ARTICLE_SENTENCE, ARTICLE_TITLE, startWebServer } from '../support/webServer.ts';

test('web research end to end: SearXNG results are read through the guarded fetcher, a redirect to loopback is refused, the report cites the page', async (t) => {
  const web = await startWebServer();
  t.teardown(() => web.close());
  const searxng = await startMockSearxng({
    results: () => [
      { title: ARTICLE_TITLE, url: `${web.url}/article`, content: ARTICLE_SENTENCE, engine: 'bing' },
      { title: '跳转到本机的页面', url: `${web.url}/to-loopback`, content: '固态电池产业化的另一篇报道', engine: 'baidu' },
    ],
  });
  t.teardown(() => searxng.close());
  // Only the test web server's name is let through; its redirect to 127.0.0.1 must still be refused.
  const app = await startTestApp({ SEARCH_URL: searxng.url }, { agents: { fetcher: new PageFetcher({ allowHosts: ['localhost'] }) } });
  t.teardown(() => app.stop());

  const user = await signUp(app.url, 'webresearcher');
  const { sessionId, socket } = await watchedSession(app.url, user, 'client-web');
  t.teardown(() => socket.close());
  const { item } = await startResearch(user, socket, sessionId, '梳理2020年以来中国固态电池的产业化进展，写一份简要报告');
  const results = (await socket.next(item('web_search_results'), 60_000)).content;
  t.true(results.results.some((result: any) => result.url === `${web.url}/article`));
  t.true(searxng.requests.length > 0, 'the web search was asked');

  await socket.next(item('feedback_request'), 60_000);
  const browsed = socket.received.filter(item('web_browsing_result')).map((m) => m.content);
  t.true(browsed.some((result) => result.url === `${web.url}/article` && result.ok), 'the article was read');
  const loopback = browsed.find((result) => result.url === `${web.url}/to-loopback`);
  t.is(loopback?.ok, false, 'the page redirecting to 127.0.0.1 was tried and refused');
  t.false(web.requests.some((request, index) => request.path === '/article' && web.requests[index - 1]?.path === '/to-loopback'), 'the loopback target was never requested');
  t.true(socket.received.some(item('web_browsing_llm_end')));

  const canvas = await user.request('GET', `/backend/conversation/research/${sessionId}/canvas`);
  const report = canvas.body.versions.at(-1).content as string;
  t.true(report.includes(`${web.url}/article`), 'the report links its source');
  t.regex(report, /\[\[?\d+\]?\]?\(|\[\d+\]/, 'with numbered citations');
});

import test from 'ava';
import { progressText } from './progress.ts';

test("the spec's progress strings map to translations", (t) => {
  t.deepEqual(progressText('Planing .....'), { key: 'stream.planning' });
  t.deepEqual(progressText('Clarification Questions Generated'), { key: 'stream.clarificationGenerated' });
  t.deepEqual(progressText('Have got 12 Correlated Web Search Results'), { key: 'stream.searchResults', params: { count: 12 } });
  t.deepEqual(progressText('Get Information from 3 Webpages....'), { key: 'stream.scrapedCount', params: { count: 3 } });
});

test('other text is shown as it came', (t) => {
  t.is(progressText('联网搜索已开启：从网络检索资料'), null);
  t.is(progressText('Have got many Correlated Web Search Results'), null);
});

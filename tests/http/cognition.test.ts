import test from 'ava';
import { client, signUp, startTestApp, type TestApp } from '../support/app.ts';
import { BATTERY_NOTES, cognitionFromNotes, extractionResult } from '../support/cognition.ts';
import { PageFetcher } from '@scriptorium/infra/fetch/fetcher';
import { ARTICLE_TITLE, startWebServer } from '../support/webServer.ts';
import { eventually } from '../support/poll.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.stop();
});

test.serial('notes become a cited cognition, private until its owner makes it public', async (t) => {
  const user = await signUp(app.url, 'distiller');
  const id = await cognitionFromNotes(user, BATTERY_NOTES);
  const cognition = (await user.request('GET', `/backend/api/cognition/${id}`)).body;
  t.like(cognition, { title: '钠电池走访 等 2 篇笔记的认知', source_kind: 'notes', public: false, mine: true, owner: 'distiller', view_count: 0 });
  t.true(cognition.insights.length >= 3);
  t.regex(cognition.content, /\[[12]\]/);
  t.deepEqual(
    cognition.sources.map((source: { n: number; title: string; kind: string }) => [source.n, source.title, source.kind]),
    [
      [1, '钠电池走访', 'note'],
      [2, '储能政策', 'note'],
    ],
  );
  t.true(cognition.tags.includes('钠离子电池'));

  const stranger = await signUp(app.url, 'passerby');
  t.is((await stranger.request('GET', `/backend/api/cognition/${id}`)).status, 404);
  t.is((await client(app.url).request('GET', '/backend/api/cognition')).body.total, 0, 'not listed while private');
  const made = await user.request('PATCH', `/backend/api/cognition/${id}`, { public: true, title: '钠电池与储能', tags: ['钠离子电池', '储能', '储能'] });
  t.like(made.body, { public: true, title: '钠电池与储能', tags: ['钠离子电池', '储能'] });
  const browsed = await client(app.url).request('GET', '/backend/api/cognition');
  t.is(browsed.body.total, 1);
  t.like(browsed.body.items[0], { id, mine: false, owner: 'distiller' });
  t.is((await client(app.url).request('GET', `/backend/api/cognition/${id}`)).status, 200, 'a public cognition opens for anyone');
  t.is((await stranger.request('PATCH', `/backend/api/cognition/${id}`, { title: '改掉' })).status, 404, 'but only its owner changes it');
  t.is((await stranger.request('DELETE', `/backend/api/cognition/${id}`)).status, 404);
});

test.serial('search finds cognitions by Chinese phrases and words; mine lists my own', async (t) => {
  const user = await signUp(app.url, 'searcher');
  const id = await cognitionFromNotes(user, [{ name: '固态电池', content: '固态电解质的界面阻抗仍然偏高。硫化物电解质的空气稳定性差。氧化物电解质更稳定但更脆。' }]);
  await user.request('PATCH', `/backend/api/cognition/${id}`, { public: true });
  const found = await client(app.url).request('GET', `/backend/api/cognition?q=${encodeURIComponent('固态电解质界面')}`);
  t.deepEqual(found.body.items.map((item: { id: string }) => item.id), [id]);
  t.is((await client(app.url).request('GET', `/backend/api/cognition?q=${encodeURIComponent('氢燃料')}`)).body.total, 0);
  t.is((await client(app.url).request('GET', '/backend/api/cognition?scope=mine')).status, 401);
  const mine = await user.request('GET', '/backend/api/cognition?scope=mine');
  t.deepEqual(mine.body.items.map((item: { id: string; mine: boolean }) => [item.id, item.mine]), [[id, true]]);
  t.is((await user.request('GET', '/backend/api/cognition?limit=500')).status, 422);
});

test.serial('extraction is refused with the spec’s texts outside 1 to 5 notes, for other users’ notes, and for bad pages', async (t) => {
  const user = await signUp(app.url, 'chooser');
  const other = await signUp(app.url, 'othernotes');
  const theirs = (await other.request('POST', '/backend/api/notes', { name: '别人的', content: '别人的笔记内容很长很长。' })).body.id;
  const before = await app.services.events.headPosition();
  const none = await user.request('POST', '/backend/api/cognition/extract', { note_ids: [] });
  t.is(none.status, 422);
  t.is(none.body.detail[0].msg, '请先选择文档');
  const six = await user.request('POST', '/backend/api/cognition/extract', { note_ids: Array.from({ length: 6 }, () => crypto.randomUUID()) });
  t.is(six.body.detail[0].msg, '最多只能选择5个文档进行认知提取');
  t.is((await user.request('POST', '/backend/api/cognition/extract', { note_ids: [theirs] })).status, 404);
  t.is((await user.request('POST', '/backend/api/cognition/extract-url', { url: 'ftp://example.com/x' })).status, 422);
  t.is((await user.request('POST', '/backend/api/cognition/synthesize', { cognition_ids: [crypto.randomUUID()] })).status, 422);
  t.is((await client(app.url).request('POST', '/backend/api/cognition/extract', { note_ids: [theirs] })).status, 401);
  t.is(await app.services.events.headPosition(), before, 'nothing was written');

  const empty = (await user.request('POST', '/backend/api/notes', { name: '空笔记' })).body.id;
  const started = await user.request('POST', '/backend/api/cognition/extract', { note_ids: [empty] });
  t.is(started.status, 202);
  t.like(await extractionResult(user, started.body.extraction_id), { status: 'failed', cognition_id: null, error: '所选资料没有可读取的内容，无法提取认知', code: 'extraction.nothing_to_read' });
  t.is((await other.request('GET', `/backend/api/cognition/extractions/${started.body.extraction_id}`)).status, 404);

  const loopback = await user.request('POST', '/backend/api/cognition/extract-url', { url: 'http://127.0.0.1:9/secret' });
  const refused = await extractionResult(user, loopback.body.extraction_id);
  // The page's refusal in Chinese and in catalogue form, so the page words it in the reader's language.
  t.like(refused, { status: 'failed', error: '出于安全原因，不读取内网或本机地址（127.0.0.1）', code: 'fetch.blocked_address', params: { address: '127.0.0.1' } });
});

test.serial('a web page becomes a cognition through the guarded fetcher, which still refuses loopback', async (t) => {
  const page = await startWebServer();
  t.teardown(() => page.close());
  const web = await startTestApp({}, { agents: { fetcher: new PageFetcher({ allowHosts: ['localhost'] }) } });
  t.teardown(() => web.stop());
  const user = await signUp(web.url, 'reader');
  const started = await user.request('POST', '/backend/api/cognition/extract-url', { url: `${page.url}/article` });
  const result = await extractionResult(user, started.body.extraction_id);
  t.is(result.status, 'completed', result.error ?? '');
  const cognition = (await user.request('GET', `/backend/api/cognition/${result.cognition_id}`)).body;
  t.like(cognition, { source_kind: 'url' });
  t.true(cognition.title.startsWith(ARTICLE_TITLE));
  t.like(cognition.sources[0], { n: 1, kind: 'url', url: `${page.url}/article` });
  t.true(cognition.insights.some((insight: string) => insight.includes('固态电解质')));

  const sneaky = await user.request('POST', '/backend/api/cognition/extract-url', { url: `${page.url}/to-loopback` });
  t.is((await extractionResult(user, sneaky.body.extraction_id)).status, 'failed');
  t.is(page.requests.filter((request) => request.path === '/article').length, 1, 'the redirect to 127.0.0.1 was never followed');
});

test.serial('two cognitions synthesize into a third that cites them', async (t) => {
  const user = await signUp(app.url, 'synth');
  const first = await cognitionFromNotes(user, [BATTERY_NOTES[0]!]);
  const second = await cognitionFromNotes(user, [BATTERY_NOTES[1]!]);
  const started = await user.request('POST', '/backend/api/cognition/synthesize', { cognition_ids: [first, second] });
  const result = await extractionResult(user, started.body.extraction_id);
  const synthesis = (await user.request('GET', `/backend/api/cognition/${result.cognition_id}`)).body;
  t.is(synthesis.source_kind, 'synthesis');
  t.deepEqual(synthesis.sources.map((source: { ref_id: string; kind: string }) => [source.ref_id, source.kind]), [
    [first, 'cognition'],
    [second, 'cognition'],
  ]);
  t.true(synthesis.title.startsWith('综合认知：'));
});

test.serial('viewing counts once per reader, and three different cognitions complete the daily task', async (t) => {
  const author = await signUp(app.url, 'author');
  const ids: string[] = [];
  for (const note of [...BATTERY_NOTES, { name: '第三篇', content: '电网侧储能需要长时储能技术。长时储能的成本决定了电网侧储能的规模。液流电池适合长时储能。' }]) {
    const id = await cognitionFromNotes(author, [note]);
    await author.request('PATCH', `/backend/api/cognition/${id}`, { public: true });
    ids.push(id);
  }
  // The author reading their own counts for nothing: not a view, not the task.
  for (const id of ids) t.is((await author.request('POST', `/backend/api/cognition/${id}/view`)).status, 200);
  await app.settle();
  t.is((await author.request('GET', `/backend/api/cognition/${ids[0]}`)).body.view_count, 0);
  t.like((await author.request('GET', '/backend/api/tasks/summary')).body.tasks.find((task: { task_id: string }) => task.task_id.startsWith('view_cognition')), { current_progress: 0, is_completed: false });
  const reader = await signUp(app.url, 'viewer');
  await reader.request('POST', `/backend/api/cognition/${ids[0]}/view`);
  await reader.request('POST', `/backend/api/cognition/${ids[0]}/view`);
  t.is((await reader.request('GET', `/backend/api/cognition/${ids[0]}`)).body.view_count, 1);
  await reader.request('POST', `/backend/api/cognition/${ids[1]}/view`);
  t.like((await reader.request('POST', `/backend/api/cognition/${ids[2]}/view`)).body, { cognition_id: ids[2], viewed: true });
  // The task process manager counts the views after the fact.
  const viewTask = async () => (await reader.request('GET', '/backend/api/tasks/summary')).body.tasks.find((task: { task_id: string }) => task.task_id.startsWith('view_cognition'));
  await eventually(async () => ((await viewTask())?.is_completed ? true : undefined), undefined, 'the views task completed');
  t.like(await viewTask(), { current_progress: 3, is_completed: true });
  t.is((await reader.request('POST', `/backend/api/cognition/${crypto.randomUUID()}/view`)).status, 404, 'a cognition that does not exist is not a view');
});

test.serial('collections hold cognitions the owner can read; a deleted cognition leaves them', async (t) => {
  const user = await signUp(app.url, 'collector');
  const id = await cognitionFromNotes(user, [BATTERY_NOTES[0]!]);
  const created = await user.request('POST', '/backend/api/cognition/collections', { name: '  储能  ', description: '储能相关' });
  t.is(created.status, 201);
  t.like(created.body, { name: '储能', count: 0 });
  const collectionId = created.body.id;
  t.like((await user.request('POST', `/backend/api/cognition/collections/${collectionId}/items`, { cognition_id: id })).body, { count: 1 });
  t.like((await user.request('POST', `/backend/api/cognition/collections/${collectionId}/items`, { cognition_id: id })).body, { count: 1 }, 'adding twice is a no-op');
  const detail = await user.request('GET', `/backend/api/cognition/collections/${collectionId}`);
  t.deepEqual(detail.body.items.map((item: { id: string }) => item.id), [id]);
  t.like((await user.request('PATCH', `/backend/api/cognition/collections/${collectionId}`, { name: '储能研究' })).body, { name: '储能研究' });

  const other = await signUp(app.url, 'notcollector');
  t.is((await other.request('GET', `/backend/api/cognition/collections/${collectionId}`)).status, 404);
  t.is((await other.request('POST', `/backend/api/cognition/collections/${collectionId}/items`, { cognition_id: id })).status, 404);
  const theirs = (await other.request('POST', '/backend/api/cognition/collections', { name: '我的' })).body.id;
  t.is((await other.request('POST', `/backend/api/cognition/collections/${theirs}/items`, { cognition_id: id })).status, 404, 'a private cognition of someone else cannot be collected');
  t.is((await user.request('POST', '/backend/api/cognition/collections', { name: '   ' })).status, 422);

  t.is((await user.request('DELETE', `/backend/api/cognition/${id}`)).status, 200);
  t.like((await user.request('GET', `/backend/api/cognition/collections/${collectionId}`)).body, { count: 0, items: [] });
  t.like((await user.request('GET', '/backend/api/cognition/collections')).body.collections[0], { id: collectionId, count: 0 });
  t.is((await user.request('DELETE', `/backend/api/cognition/collections/${collectionId}`)).status, 200);
  t.deepEqual((await user.request('GET', '/backend/api/cognition/collections')).body.collections, []);
});

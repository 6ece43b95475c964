import test from 'ava';
import { client, signUp, checkedFetch, startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.stop();
});

type Summary = { id: string; name: string; parent_id: string | null; order: number };
const names = (notes: Summary[], parent: string | null) => notes.filter((note) => note.parent_id === parent).map((note) => note.name);

test.serial('a user builds a tree of notes: create, child, rename, move, delete with everything below', async (t) => {
  const user = await signUp(app.url, 'notetaker');
  const plan = await user.request('POST', '/backend/api/notes', { name: '研究计划' });
  t.is(plan.status, 201);
  t.like(plan.body, { name: '研究计划', parent_id: null, content: '', revision: 0, share: null });
  const untitled = await user.request('POST', '/backend/api/notes', {});
  t.is(untitled.body.name, '新建笔记');
  const child = await user.request('POST', '/backend/api/notes', { name: '  文献  ', parent_id: plan.body.id, content: '# 文献\n\n- 第一篇' });
  t.like(child.body, { name: '文献', parent_id: plan.body.id, content: '# 文献\n\n- 第一篇', revision: 1 });

  const renamed = await user.request('PATCH', `/backend/api/notes/${untitled.body.id}`, { name: '读书笔记' });
  t.is(renamed.body.name, '读书笔记');
  t.deepEqual(names((await user.request('GET', '/backend/api/notes')).body.notes, null), ['研究计划', '读书笔记']);

  const before = await user.request('POST', `/backend/api/notes/${untitled.body.id}/move`, { target_id: plan.body.id, position: 'before' });
  t.deepEqual(names(before.body.notes, null), ['读书笔记', '研究计划']);
  const inside = await user.request('POST', `/backend/api/notes/${untitled.body.id}/move`, { target_id: plan.body.id, position: 'inside' });
  t.deepEqual(names(inside.body.notes, plan.body.id), ['文献', '读书笔记']);
  const cycle = await user.request('POST', `/backend/api/notes/${plan.body.id}/move`, { target_id: child.body.id, position: 'inside' });
  t.is(cycle.status, 422);
  t.like(cycle.body.detail[0], { loc: ['body', 'target_id'], msg: '不能把笔记移动到它自己或它的子笔记下' });

  const deleted = await user.request('DELETE', `/backend/api/notes/${plan.body.id}`);
  t.deepEqual([...deleted.body.deleted].sort(), [plan.body.id, child.body.id, untitled.body.id].sort());
  t.deepEqual((await user.request('GET', '/backend/api/notes')).body.notes, []);
  t.is((await user.request('GET', `/backend/api/notes/${child.body.id}`)).status, 404);
});

test.serial('saving text from an older revision is refused, so another tab’s text is not lost', async (t) => {
  const user = await signUp(app.url, 'twotabs');
  const note = (await user.request('POST', '/backend/api/notes', { name: '草稿' })).body;
  const first = await user.request('PUT', `/backend/api/notes/${note.id}/content`, { content: '第一版', revision: 0 });
  t.like(first.body, { revision: 1 });
  const stale = await user.request('PUT', `/backend/api/notes/${note.id}/content`, { content: '另一个标签页', revision: 0 });
  t.is(stale.status, 409);
  t.is(stale.body.detail, '笔记已在别处修改，请刷新后再编辑');
  t.like((await user.request('GET', `/backend/api/notes/${note.id}`)).body, { content: '第一版', revision: 1 });
  const huge = await user.request('PUT', `/backend/api/notes/${note.id}/content`, { content: 'x'.repeat(300_001), revision: 1 });
  t.is(huge.status, 422);
});

test.serial('nobody else reads, changes, moves or shares a user’s notes; anonymous calls are 401', async (t) => {
  const owner = await signUp(app.url, 'noteowner');
  const other = await signUp(app.url, 'notesnoop');
  const note = (await owner.request('POST', '/backend/api/notes', { name: '私人', content: '秘密' })).body;
  const before = await app.services.events.headPosition();
  for (const [method, path, body] of [
    ['GET', `/backend/api/notes/${note.id}`, undefined],
    ['PATCH', `/backend/api/notes/${note.id}`, { name: '偷改' }],
    ['PUT', `/backend/api/notes/${note.id}/content`, { content: '偷改', revision: 1 }],
    ['POST', `/backend/api/notes/${note.id}/move`, { target_id: null, position: 'inside' }],
    ['DELETE', `/backend/api/notes/${note.id}`, undefined],
    ['POST', `/backend/api/notes/${note.id}/share`, {}],
    ['POST', '/backend/api/notes', { name: '借位', parent_id: note.id }],
  ] as const) {
    const response = await other.request(method, path, body);
    t.is(response.status, 404, `${method} ${path}`);
    t.is(response.body.detail, '笔记不存在');
  }
  t.deepEqual((await other.request('GET', '/backend/api/notes')).body.notes, []);
  t.is((await client(app.url).request('GET', '/backend/api/notes')).status, 401);
  t.is((await client(app.url).request('POST', '/backend/api/notes', { name: 'x' })).status, 401);
  t.is(await app.services.events.headPosition(), before, 'nothing was written');
  t.is((await owner.request('GET', '/backend/api/notes/not-a-uuid')).status, 422);
  t.is((await owner.request('PATCH', `/backend/api/notes/${note.id}`, { name: '   ' })).status, 422);
  t.is((await owner.request('POST', `/backend/api/notes/${note.id}/move`, { target_id: null, position: 'sideways' })).status, 422);
});

test.serial('a shared note opens for anyone until it is revoked or expires; sharing again replaces the link', async (t) => {
  const user = await signUp(app.url, 'notesharer');
  const note = (await user.request('POST', '/backend/api/notes', { name: '公开笔记', content: '## 结论\n\n钠电池适合储能。' })).body;
  const first = await user.request('POST', `/backend/api/notes/${note.id}/share`, { expires_days: 7 });
  t.is(first.body.path, `/share/${first.body.token}`);
  const opened = await client(app.url).request('GET', `/backend/api/notes/shared/${first.body.token}`);
  t.like(opened.body, { name: '公开笔记', content: '## 结论\n\n钠电池适合储能。', owner: 'notesharer' });
  t.like((await user.request('GET', `/backend/api/notes/${note.id}`)).body.share, { token: first.body.token });
  t.deepEqual(opened.body.children, [], 'a note with nothing below it is a single note');
  const child = (await user.request('POST', '/backend/api/notes', { name: '附录', parent_id: note.id, content: '数据来源' })).body;
  await user.request('POST', '/backend/api/notes', { name: '别处', content: '不应出现' });
  const folder = await client(app.url).request('GET', `/backend/api/notes/shared/${first.body.token}`);
  t.deepEqual(
    folder.body.children.map((item: { id: string; name: string; parent_id: string; content: string }) => [item.id, item.name, item.parent_id, item.content]),
    [[child.id, '附录', note.id, '数据来源']],
    'the notes below it come along, and nothing else',
  );
  const sharedIn = async () => Object.fromEntries((await user.request('GET', '/backend/api/notes')).body.notes.map((item: { name: string; shared: boolean }) => [item.name, item.shared]));
  t.deepEqual(await sharedIn(), { 公开笔记: true, 附录: false, 别处: false }, 'the tree marks the note whose own link opens it');

  const realClock = app.services.clock;
  app.services.clock = () => new Date(Date.now() + 8 * 86_400_000);
  try {
    t.is((await client(app.url).request('GET', `/backend/api/notes/shared/${first.body.token}`)).status, 404);
    t.false((await sharedIn())['公开笔记'], 'an expired link opens nothing, so the note is not marked');
  } finally {
    app.services.clock = realClock;
  }

  const second = await user.request('POST', `/backend/api/notes/${note.id}/share`, { expires_days: null });
  t.is((await client(app.url).request('GET', `/backend/api/notes/shared/${first.body.token}`)).status, 404, 'the old link is gone');
  t.is((await client(app.url).request('GET', `/backend/api/notes/shared/${second.body.token}`)).status, 200);
  t.is((await user.request('DELETE', `/backend/api/notes/${note.id}/share`)).status, 200);
  t.false((await sharedIn())['公开笔记']);
  const revoked = await client(app.url).request('GET', `/backend/api/notes/shared/${second.body.token}`);
  t.is(revoked.status, 404);
  t.is(revoked.body.detail, '分享不存在或已过期');
  t.is((await client(app.url).request('GET', '/backend/api/notes/shared/..%2F..')).status, 422);
});

test.serial('notes are the user’s research material: searchable offline, selectable as context, and a new note counts for the daily task', async (t) => {
  const user = await signUp(app.url, 'researcher');
  const note = (await user.request('POST', '/backend/api/notes', { name: '钠电池调研', content: '钠离子电池的低温性能优于磷酸铁锂电池。' })).body;
  await app.settle();
  t.true(await app.research.indexed(await app.services.events.headPosition()));
  const hits = app.research.corpus.search(user.userId, '钠离子电池 低温', 5);
  t.like(hits[0], { id: note.id, kind: 'note', title: '钠电池调研' });

  await user.request('PATCH', `/backend/api/notes/${note.id}`, { name: '储能笔记' });
  await user.request('PUT', `/backend/api/notes/${note.id}/content`, { content: '固态电解质的界面阻抗仍是难题。', revision: 1 });
  t.true(await app.research.indexed(await app.services.events.headPosition()));
  t.like(app.research.corpus.search(user.userId, '界面阻抗', 5)[0], { id: note.id, title: '储能笔记' });
  t.is(app.research.corpus.search(user.userId, '低温性能', 5).length, 0, 'the old text is no longer found');

  const sessionId = (await user.request('POST', '/backend/conversation/sessions', { client_id: 'notes' })).body.session_id;
  const selected = await user.request('POST', `/backend/conversation/api/research/select_note/${note.id}`, { conversation_id: sessionId });
  t.like(selected.body, { success: true, data: { note_id: note.id, title: '储能笔记' } });
  const context = await checkedFetch(`${app.url}/backend/conversation/api/research/request_context/${selected.body.data.context_id}?conversation_id=${sessionId}`, { headers: { authorization: `Bearer ${user.token}` } });
  t.is(await context.text(), '固态电解质的界面阻抗仍是难题。', 'the note’s current text is the context');

  const summary = (await user.request('GET', '/backend/api/tasks/summary')).body;
  t.like(summary.tasks.find((task: { name: string }) => task.name === '记录笔记'), { current_progress: 1, is_completed: true });

  await user.request('DELETE', `/backend/api/notes/${note.id}`);
  t.true(await app.research.indexed(await app.services.events.headPosition()));
  t.is(app.research.corpus.search(user.userId, '界面阻抗', 5).length, 0, 'a deleted note leaves the index');
});

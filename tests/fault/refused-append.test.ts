/**
 * One request, one atomic append: a store that refuses writes (here every other append to the notes'
 * streams, as a disk that fills and frees does) must leave each request either done whole or not at all.
 */
import test from 'ava';
import { signUp, startTestApp } from '../support/app.ts';

test('a note created with its text is there whole or not at all when the store refuses appends', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'writer');
  const append = app.services.events.appendToStream.bind(app.services.events);
  let appends = 0;
  // Only the notes' own streams: the process managers append to others, at times of their own.
  app.services.events.appendToStream = async (...args) => {
    if (/^note(book)?-/.test(args[0]) && ++appends % 2 === 0) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    return append(...args);
  };
  const created: string[] = [];
  let refused = 0;
  for (let index = 0; index < 10; index++) {
    const answer = await user.request('POST', '/backend/api/notes', { name: `笔记${index}`, content: `第${index}篇的正文` });
    if (answer.status === 201) {
      t.is(answer.body.content, `第${index}篇的正文`);
      created.push(answer.body.id);
    } else {
      t.is(answer.status, 507);
      t.is(answer.body.code, 'storage.full');
      refused++;
    }
  }
  app.services.events.appendToStream = append;
  t.true(refused > 0 && created.length > 0, `${refused} refused, ${created.length} created`);
  await app.settle();
  const notes = (await user.request('GET', '/backend/api/notes')).body.notes as Array<{ id: string }>;
  t.deepEqual(notes.map((note) => note.id).sort(), [...created].sort());
  for (const id of created) t.regex((await user.request('GET', `/backend/api/notes/${id}`)).body.content, /^第\d篇的正文$/);
});

test('a note created with its text is edited from revision 1, and clearing it is a save', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'editor');
  const note = (await user.request('POST', '/backend/api/notes', { name: '草稿', content: '第一稿' })).body;
  t.is(note.revision, 1);
  t.is((await user.request('PUT', `/backend/api/notes/${note.id}/content`, { content: '第一稿', revision: 1 })).body.revision, 1);
  t.is((await user.request('PUT', `/backend/api/notes/${note.id}/content`, { content: '', revision: 0 })).body.code, 'notes.edited_elsewhere');
  t.is((await user.request('PUT', `/backend/api/notes/${note.id}/content`, { content: '', revision: 1 })).body.revision, 2);
  t.like((await user.request('GET', `/backend/api/notes/${note.id}`)).body, { content: '', revision: 2 });
});

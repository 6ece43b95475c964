import test from 'ava';
import { signUp, startTestApp } from '../support/app.ts';

test('a JSON route refuses a body of another type and changes nothing', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'typechecker');
  const json = JSON.stringify({ name: '偷渡的笔记' });
  for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
    const refused = await user.request('POST', '/backend/api/notes', undefined, { raw: type.includes('form') ? 'name=x' : json, headers: { 'content-type': type } });
    t.is(refused.status, 415, type);
    t.like(refused.body, { detail: '不支持的请求内容类型', code: 'http.unsupported_media_type' });
  }
  const untyped = await fetch(`${app.url}/backend/api/notes`, { method: 'POST', headers: { authorization: `Bearer ${user.token}` }, body: new Blob([json]) });
  t.is(untyped.status, 415, 'a body without a type');
  t.deepEqual((await user.request('GET', '/backend/api/notes')).body.notes, []);
  t.is((await user.request('POST', '/backend/api/notes', { name: '正常的笔记' })).status, 201);
  t.is((await user.request('POST', '/backend/api/notes', undefined, { raw: json, headers: { 'content-type': 'application/json; charset=utf-8' } })).status, 201);
});

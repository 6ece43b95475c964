import test from 'ava';
import { canClose, closeTarget, readOpenIds, renamed, sessionLabel, startupPlan } from './sessions.ts';

test('the last session cannot be closed', (t) => {
  t.false(canClose(['a']));
  t.true(canClose(['a', 'b']));
});

test('closing the active session moves to the next, else the previous, else a new one', (t) => {
  t.deepEqual(closeTarget(['a', 'b', 'c'], 'b', 'b'), { kind: 'switch', id: 'c' });
  t.deepEqual(closeTarget(['a', 'b', 'c'], 'c', 'c'), { kind: 'switch', id: 'b' });
  t.deepEqual(closeTarget(['a'], 'a', 'a'), { kind: 'create' });
  t.deepEqual(closeTarget(['a', 'b'], 'a', 'b'), { kind: 'stay' });
});

const none = async () => null;

test('startup reopens every session that was open, showing the URL one, else the stored one', async (t) => {
  t.deepEqual(await startupPlan({ urlId: 'u', localId: 'l', openIds: ['a', 'u', 'b'], newestChat: none }), { ids: ['a', 'u', 'b', 'l'], active: 'u' });
  t.deepEqual(await startupPlan({ urlId: null, localId: 'b', openIds: ['a', 'b'], newestChat: none }), { ids: ['a', 'b'], active: 'b' });
  t.deepEqual(await startupPlan({ urlId: null, localId: null, openIds: ['a', 'b'], newestChat: none }), { ids: ['a', 'b'], active: 'b' });
});

test('with nothing remembered the newest cloud chat opens, even an empty one, so empty sessions do not pile up', async (t) => {
  let asked = 0;
  const newest = async () => (asked++, { id: 'c', message_count: 0 });
  t.deepEqual(await startupPlan({ urlId: 'u', localId: null, openIds: [], newestChat: newest }), { ids: ['u'], active: 'u' });
  t.is(asked, 0, 'the cloud is not asked when something is remembered');
  t.deepEqual(await startupPlan({ urlId: null, localId: null, openIds: [], newestChat: newest }), { ids: ['c'], active: 'c' });
  t.deepEqual(await startupPlan({ urlId: null, localId: null, openIds: [], newestChat: () => Promise.reject(new Error('down')) }), { ids: [], active: null });
});

test('an unreadable list of open sessions counts as none', (t) => {
  t.deepEqual(readOpenIds('["a",2,"b"]'), ['a', 'b']);
  t.deepEqual(readOpenIds('{'), []);
  t.deepEqual(readOpenIds(null), []);
});

test('a blank rename cancels', (t) => {
  t.is(renamed('旧名', '   '), null);
  t.is(renamed('旧名', '旧名'), null);
  t.is(renamed('旧名', ' 新名 '), '新名');
});

test('a session still under the default name reads in the reader’s language; a chosen name stays', (t) => {
  const words = { defaultNames: ['默认会话', 'Default session'], defaultName: 'Default session', unnamed: 'Untitled' };
  t.is(sessionLabel({ title: null, name: '默认会话' }, words), 'Default session');
  t.is(sessionLabel({ title: '电池研究', name: '默认会话' }, words), '电池研究');
  t.is(sessionLabel({ title: null, name: '我的会话' }, words), '我的会话');
  t.is(sessionLabel({ title: null, name: '' }, words), 'Untitled');
});

import test from 'ava';
import { canClose, closeTarget, readOpenIds, renamed, startupPlan } from './sessions.ts';

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

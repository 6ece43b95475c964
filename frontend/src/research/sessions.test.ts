import test from 'ava';
import { canClose, closeTarget, renamed, startupCandidates } from './sessions.ts';

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

test('startup prefers the URL, then the stored id, then the newest cloud chat with messages', async (t) => {
  const none = async () => null;
  t.deepEqual(await startupCandidates({ urlId: 'u', localId: 'l', newestChat: none }), [
    { source: 'url', id: 'u' },
    { source: 'local', id: 'l' },
  ]);
  t.deepEqual(await startupCandidates({ urlId: null, localId: 'l', newestChat: none }), [{ source: 'local', id: 'l' }]);
  t.deepEqual(await startupCandidates({ urlId: null, localId: null, newestChat: async () => ({ id: 'c', message_count: 3 }) }), [{ source: 'cloud', id: 'c' }]);
  t.deepEqual(await startupCandidates({ urlId: null, localId: null, newestChat: async () => ({ id: 'c', message_count: 0 }) }), [], 'an empty chat means a new session');
  t.deepEqual(await startupCandidates({ urlId: null, localId: null, newestChat: async () => Promise.reject(new Error('down')) }), []);
});

test('a blank rename cancels', (t) => {
  t.is(renamed('旧名', '   '), null);
  t.is(renamed('旧名', '旧名'), null);
  t.is(renamed('旧名', ' 新名 '), '新名');
});

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

const now = new Date('2025-06-01T12:00:00Z');
const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();
const all = async (deps: Parameters<typeof startupCandidates>[0]) => {
  const found = [];
  for await (const candidate of startupCandidates(deps)) found.push(candidate);
  return found;
};

test('startup tries the URL, then the stored id, then the newest cloud chat with messages', async (t) => {
  const none = async () => null;
  t.deepEqual(await all({ urlId: 'u', localId: 'l', newestChat: none, now }), [
    { source: 'url', id: 'u' },
    { source: 'local', id: 'l' },
  ]);
  t.deepEqual(await all({ urlId: null, localId: 'l', newestChat: none, now }), [{ source: 'local', id: 'l' }]);
  t.deepEqual(await all({ urlId: null, localId: null, newestChat: async () => ({ id: 'c', message_count: 3, created_at: ago(60 * 24) }), now }), [{ source: 'cloud', id: 'c' }]);
  t.deepEqual(await all({ urlId: 'u', localId: null, newestChat: async () => ({ id: 'c', message_count: 3, created_at: ago(5) }), now }), [
    { source: 'url', id: 'u' },
    { source: 'cloud', id: 'c' },
  ], 'a URL session that cannot be loaded falls through to the cloud');
  t.deepEqual(await all({ urlId: null, localId: null, newestChat: async () => Promise.reject(new Error('down')), now }), []);
});

test('the cloud is asked only once the URL and stored ids have been tried', async (t) => {
  let asked = 0;
  const candidates = startupCandidates({ urlId: 'u', localId: null, newestChat: async () => (asked++, null), now });
  await candidates.next();
  t.is(asked, 0);
  await candidates.next();
  t.is(asked, 1);
});

test('an empty newest chat made moments ago is reused; an older empty one is not', async (t) => {
  t.deepEqual(await all({ urlId: null, localId: null, newestChat: async () => ({ id: 'fresh', message_count: 0, created_at: ago(2) }), now }), [{ source: 'cloud', id: 'fresh' }]);
  t.deepEqual(await all({ urlId: null, localId: null, newestChat: async () => ({ id: 'old', message_count: 0, created_at: ago(60) }), now }), [], 'a new default session');
});

test('a blank rename cancels', (t) => {
  t.is(renamed('旧名', '   '), null);
  t.is(renamed('旧名', '旧名'), null);
  t.is(renamed('旧名', ' 新名 '), '新名');
});

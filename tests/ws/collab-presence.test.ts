/**
 * Presence across api processes: two apis on one event store and one Redis, as the scale-out
 * deployment runs them. Members on different processes see each other's carets and names, not only
 * each other's text, and stop seeing a member whose socket closed or whose process went silent.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { createApi, type Api } from '@scriptorium/backend/http/server';
import { RedisPresenceChannel } from '@scriptorium/infra/presence/redis';
import { COLLAB_PRESENCE_TIMEOUT_MS } from '@scriptorium/domain/protocol/collab';
import { redisAnswers, redisUrl } from '../contract/redis.ts';
import { signUp, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { CollabPeer } from '../support/collabPeer.ts';

const base = '/backend/api/collab';
const haveRedis = await redisAnswers(redisUrl);

interface ApiProcess {
  url: string;
  presence: RedisPresenceChannel;
  stop(): Promise<void>;
}

let app: TestApp;
let processes: ApiProcess[] = [];

/** One more api on the test app's event store and read store, with its own presence channel on the shared Redis channel. */
async function startApi(channel: string): Promise<ApiProcess> {
  const presence = new RedisPresenceChannel(redisUrl, app.services.log, channel);
  const api: Api = await createApi({ ...app.services, presence }, app.runner);
  const server = api.app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    presence,
    async stop() {
      await api.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await presence.close();
    },
  };
}

async function sharedDoc(owner: Client, guest: Client) {
  const id = (await owner.request('POST', `${base}/docs`, { title: '跨进程在线' })).body.id as string;
  const { token } = (await owner.request('POST', `${base}/docs/${id}/invites`, { role: 'edit' })).body;
  if ((await guest.request('POST', `${base}/invites/accept`, { token })).status !== 200) throw new Error('accept failed');
  return id;
}

async function peer(client: Client, apiUrl: string, id: string, clientId: string) {
  const opened = (await client.request('GET', `${base}/docs/${id}`)).body;
  const created = new CollabPeer(apiUrl, id, client.token!, opened.doc, opened.version, clientId);
  await created.connect();
  return created;
}

/** The first presence list matching, among those received from `from` on (a socket's earlier lists, from before the other member joined, do not count). */
const presenceOf = (socketPeer: CollabPeer, predicate: (peers: any[]) => boolean, options: { from?: number; timeoutMs?: number } = {}) => {
  const { received } = socketPeer.socket!;
  return socketPeer.socket!.next((message) => message.type === 'collab.presence' && received.indexOf(message) >= (options.from ?? 0) && predicate(message.peers), options.timeoutMs);
};
const mark = (socketPeer: CollabPeer) => socketPeer.socket!.received.length;

if (!haveRedis) {
  console.log(`collab presence across processes skipped: no Redis at ${redisUrl} (REDIS_URL)`);
  test.skip(`collab presence across api processes (no Redis at ${redisUrl})`, () => {});
} else {
  test.before(async () => {
    app = await startTestApp();
  });
  test.afterEach.always(async () => {
    await Promise.all(processes.map((process) => process.stop()));
    processes = [];
  });
  test.after.always(async () => {
    await app?.stop();
  });

  test.serial('a member on api A sees a member on api B: name, colour, selection as B shows them; and sees them leave when their socket closes', async (t) => {
    const channel = `scriptorium-test-presence-${randomUUID()}`;
    const [apiA, apiB] = (processes = await Promise.all([startApi(channel), startApi(channel)]));
    const alice = await signUp(app.url, 'xp_alice1');
    const bob = await signUp(app.url, 'xp_bob1');
    const id = await sharedDoc(alice, bob);
    const a = await peer(alice, apiA!.url, id, 'alice-xp1');
    const b = await peer(bob, apiB!.url, id, 'bob-xp1');

    a.type('hello');
    await a.settle(async () => (await alice.request('GET', `${base}/docs/${id}/history`)).body.version);
    b.socket!.send({ type: 'collab.presence', version: 5, selection: { anchor: 2, head: 4 } });
    const seenByA = await presenceOf(a, (peers) => peers.some((p) => p.user_id === bob.userId && p.selection?.head === 4));
    const seenByB = await presenceOf(b, (peers) => peers.some((p) => p.user_id === alice.userId) && peers.some((p) => p.user_id === bob.userId && p.selection?.head === 4));
    t.is(seenByA.peers.length, 2);
    const bobOnA = seenByA.peers.find((p: any) => p.user_id === bob.userId);
    const bobOnB = seenByB.peers.find((p: any) => p.user_id === bob.userId);
    t.deepEqual(bobOnA, bobOnB, 'alice sees bob as his own process shows him');
    t.like(bobOnA, { name: 'xp_bob1', access: 'edit', version: 5, selection: { anchor: 2, head: 4 } });
    t.like(seenByB.peers.find((p: any) => p.user_id === alice.userId), { name: 'xp_alice1', access: 'owner' });
    await b.settle(async () => a.version);
    t.is(b.text, 'hello', 'the text crosses through the log, as before');

    const beforeLeaving = mark(a);
    b.close();
    const left = await presenceOf(a, (peers) => peers.length === 1, { from: beforeLeaving });
    t.is(left.peers[0].user_id, alice.userId);
    a.close();
  });

  test.serial('a process that stops publishing (its channel gone, as when it dies) drops out of the others’ lists after the presence timeout', async (t) => {
    const channel = `scriptorium-test-presence-${randomUUID()}`;
    const [apiA, apiB] = (processes = await Promise.all([startApi(channel), startApi(channel)]));
    const alice = await signUp(app.url, 'xp_alice2');
    const bob = await signUp(app.url, 'xp_bob2');
    const id = await sharedDoc(alice, bob);
    const a = await peer(alice, apiA!.url, id, 'alice-xp2');
    const b = await peer(bob, apiB!.url, id, 'bob-xp2');
    await presenceOf(a, (peers) => peers.some((p) => p.user_id === bob.userId));

    // Alice's editor keeps saying it is here, as the browser's does; bob's process says nothing more.
    const ping = setInterval(() => a.socket?.send({ type: 'ping' }), 2_000);
    t.teardown(() => clearInterval(ping));
    await apiB!.presence.close();
    const silentFrom = mark(a);
    b.close();
    // Bob's leaving never reaches api A: right after, A still lists him from what his process last said.
    a.socket!.send({ type: 'collab.presence', version: 0, selection: { anchor: 1, head: 1 } });
    const stillThere = await presenceOf(a, (peers) => peers.some((p) => p.user_id === alice.userId && p.selection?.head === 1), { from: silentFrom });
    t.true(stillThere.peers.some((p: any) => p.user_id === bob.userId));
    const dropped = await presenceOf(a, (peers) => peers.length === 1, { from: silentFrom, timeoutMs: COLLAB_PRESENCE_TIMEOUT_MS * 2 });
    t.is(dropped.peers[0].user_id, alice.userId);
    a.close();
  });
}

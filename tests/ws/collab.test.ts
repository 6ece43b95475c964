import test from 'ava';
import { signUp, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { CollabPeer } from '../support/collabPeer.ts';
import { openSocketAt } from '../support/socket.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.stop();
});

const base = '/backend/api/collab';

async function sharedDoc(owner: Client, title: string, guest?: { client: Client; role: 'edit' | 'read' }) {
  const id = (await owner.request('POST', `${base}/docs`, { title })).body.id as string;
  if (guest) {
    const { token } = (await owner.request('POST', `${base}/docs/${id}/invites`, { role: guest.role })).body;
    const accepted = await guest.client.request('POST', `${base}/invites/accept`, { token });
    if (accepted.status !== 200) throw new Error(`accept: ${accepted.status}`);
  }
  return id;
}

async function peer(client: Client, id: string, clientId: string) {
  const opened = (await client.request('GET', `${base}/docs/${id}`)).body;
  const created = new CollabPeer(app.url, id, client.token!, opened.doc, opened.version, clientId);
  await created.connect();
  return created;
}

const serverVersion = (client: Client, id: string) => async () => (await client.request('GET', `${base}/docs/${id}/history`)).body.version as number;
const count = (text: string, part: string) => text.split(part).length - 1;

test.serial('two editors typing at once: one batch is refused as behind, rebased and resent; both end with the same document, and the log is its history', async (t) => {
  const alice = await signUp(app.url, 'collab_a1');
  const bob = await signUp(app.url, 'collab_b1');
  const id = await sharedDoc(alice, '同时编辑', { client: bob, role: 'edit' });
  const a = await peer(alice, id, 'alice-1');
  const b = await peer(bob, id, 'bob-1');

  for (let round = 0; round < 5; round++) {
    a.type(`A${round} `);
    b.type(`B${round} `, 1);
    // Both send on the same version before either hears of the other.
    a.pump();
    b.pump();
  }
  const version = serverVersion(alice, id);
  await Promise.all([a.settle(version), b.settle(version)]);
  await Promise.all([a.settle(version), b.settle(version)]);

  t.true([...a.rejections, ...b.rejections].some((rejected) => rejected.code === 'collab.version_behind'), 'the batch on the older version was refused');
  t.is(a.text, b.text);
  t.true(a.state.doc.eq(b.state.doc));
  for (let round = 0; round < 5; round++) {
    t.is(count(a.text, `A${round} `), 1);
    t.is(count(a.text, `B${round} `), 1);
  }
  const opened = (await alice.request('GET', `${base}/docs/${id}`)).body;
  t.is(opened.version, a.version);
  t.deepEqual(opened.doc, a.state.doc.toJSON(), 'the document the server rebuilds from the log is what both editors show');
  const history = (await alice.request('GET', `${base}/docs/${id}/history`)).body;
  t.is(history.entries.reduce((sum: number, entry: { steps: number }) => sum + entry.steps, 0), a.version, 'every step is in one accepted batch');
  t.deepEqual(new Set(history.entries.map((entry: { user_id: string }) => entry.user_id)), new Set([alice.userId, bob.userId]), 'each batch names who typed it');
  let next = 0;
  for (const entry of history.entries) {
    t.is(entry.version, next, 'batches follow each other with no gap and no overlap');
    next += entry.steps;
  }
  const middle = (await alice.request('GET', `${base}/docs/${id}/versions/${history.entries[1].version}`)).body;
  t.is(middle.version, history.entries[1].version);
  a.close();
  b.close();
});

test.serial('an editor dropped mid-edit rejoins from its version: its batch the server accepted is not doubled, what it typed offline is not lost', async (t) => {
  const alice = await signUp(app.url, 'collab_a2');
  const bob = await signUp(app.url, 'collab_b2');
  const id = await sharedDoc(alice, '断线重连', { client: bob, role: 'edit' });
  const a = await peer(alice, id, 'alice-2');
  const b = await peer(bob, id, 'bob-2');
  const version = serverVersion(alice, id);

  a.type('first ');
  a.pump();
  // The server accepts the batch, but the answer and the steps never reach alice: her connection drops.
  a.paused = true;
  while ((await version()) < 1) await new Promise((resolve) => setTimeout(resolve, 20));
  a.close();
  a.paused = false;
  t.is(a.version, 0, 'alice never heard that her batch was accepted');
  a.type('offline ');
  b.type('bob ', 1);
  await b.settle(version);

  await a.connect();
  await a.settle(version);
  await b.settle(version);
  t.is(a.text, b.text);
  t.is(count(a.text, 'first '), 1, 'the accepted batch came back as her own and was confirmed, not applied twice');
  t.is(count(a.text, 'offline '), 1);
  t.is(count(a.text, 'bob '), 1);
  t.deepEqual((await alice.request('GET', `${base}/docs/${id}`)).body.doc, a.state.doc.toJSON());
  a.close();
  b.close();
});

test.serial('a reader sees steps but has its own refused with a coded error, and nothing is appended', async (t) => {
  const alice = await signUp(app.url, 'collab_a3');
  const carol = await signUp(app.url, 'collab_c3');
  const id = await sharedDoc(alice, '只读', { client: carol, role: 'read' });
  const a = await peer(alice, id, 'alice-3');
  const c = await peer(carol, id, 'carol-3');
  const version = serverVersion(alice, id);
  a.type('hello');
  await a.settle(version);
  await c.settle(version);
  t.is(c.text, 'hello');
  c.type(' carol');
  c.pump();
  const rejected = await c.socket!.next((message) => message.type === 'collab.rejected');
  t.like(rejected, { code: 'collab.read_only', version: 1 });
  t.is(await version(), 1);
  t.is((await alice.request('GET', `${base}/docs/${id}`)).body.doc.content[0].content[0].text, 'hello');
  a.close();
  c.close();
});

test.serial('presence lists who is here with their selection, and drops who leaves', async (t) => {
  const alice = await signUp(app.url, 'collab_a4');
  const bob = await signUp(app.url, 'collab_b4');
  const id = await sharedDoc(alice, '在线', { client: bob, role: 'edit' });
  const a = await peer(alice, id, 'alice-4');
  const b = await peer(bob, id, 'bob-4');
  b.socket!.send({ type: 'collab.presence', version: 0, selection: { anchor: 1, head: 1 } });
  const seen = await a.socket!.next((message) => message.type === 'collab.presence' && message.peers.some((p: any) => p.user_id === bob.userId && p.selection?.head === 1));
  t.is(seen.peers.length, 2);
  t.true(seen.peers.every((p: any) => Number.isInteger(p.colour)));
  // Alice's own first list, from before bob joined, had one member too: only a later one counts.
  const { received } = a.socket!;
  const beforeLeaving = received.length;
  b.close();
  const left = await a.socket!.next((message) => message.type === 'collab.presence' && message.peers.length === 1 && received.indexOf(message) >= beforeLeaving);
  t.is(left.peers[0].user_id, alice.userId);
  a.close();
});

test.serial('a stranger, a forged link and no token are refused', async (t) => {
  const alice = await signUp(app.url, 'collab_a5');
  const eve = await signUp(app.url, 'collab_e5');
  const id = await sharedDoc(alice, '私有');
  t.is((await eve.request('GET', `${base}/docs/${id}`)).status, 404);
  t.is((await (await openSocketAt(app.url, `${base}/ws/${id}`, eve.token)).closed).code, 4404);
  t.is((await (await openSocketAt(app.url, `${base}/ws/${id}`)).closed).code, 4401);
  const forged = await eve.request('POST', `${base}/invites/accept`, { token: `${id}.${'A'.repeat(43)}` });
  t.like(forged, { status: 404, body: { code: 'collab.invite_invalid' } });
  const invite = await eve.request('POST', `${base}/docs/${id}/invites`, { role: 'edit' });
  t.is(invite.status, 404);
  t.deepEqual((await eve.request('GET', `${base}/docs`)).body.docs, []);
});

test.serial('past a snapshot, opening, catching up from an old version and replaying all start from it and agree with the log', async (t) => {
  const alice = await signUp(app.url, 'collab_a6');
  const id = await sharedDoc(alice, '长文档');
  const a = await peer(alice, id, 'alice-6');
  const version = serverVersion(alice, id);
  for (let index = 0; index < 130; index++) {
    a.type(String(index % 10));
    await a.settle(version);
  }
  t.is(a.version, 130);
  const opened = (await alice.request('GET', `${base}/docs/${id}`)).body;
  t.deepEqual([opened.version, opened.doc], [130, a.state.doc.toJSON()]);
  const at110 = (await alice.request('GET', `${base}/docs/${id}/versions/110`)).body;
  t.is(at110.doc.content[0].content[0].text, a.text.slice(0, 110));
  t.is((await alice.request('GET', `${base}/docs/${id}/versions/131`)).status, 422);

  // An editor left at version 110 catches up from the snapshot at 100: exactly the 20 steps after it.
  const late = new CollabPeer(app.url, id, alice.token!, at110.doc, 110, 'alice-late');
  await late.connect();
  await late.settle(version);
  t.is(late.text, a.text);
  t.is(late.socket!.received.filter((message) => message.type === 'collab.steps').reduce((sum, message) => sum + message.steps.length, 0), 20);
  const history = (await alice.request('GET', `${base}/docs/${id}/history?after=120`)).body;
  t.deepEqual(history.entries.map((entry: { version: number }) => entry.version), [120, 121, 122, 123, 124, 125, 126, 127, 128, 129]);
  a.close();
  late.close();
});

test.serial("co-editing a report: only the session's owner may start it, with the report's content, which opens at version 0", async (t) => {
  const alice = await signUp(app.url, 'collab_a7');
  const eve = await signUp(app.url, 'collab_e7');
  const sessionId = (await alice.request('POST', '/backend/conversation/api/v2/research/create_session', { client_id: 'collab-7', name: '报告' })).body.session_id as string;
  const doc = { type: 'doc', content: [{ type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: '固态电池' }] }, { type: 'paragraph', content: [{ type: 'text', text: '安全性更好 [1]' }] }] };
  const report = { session_id: sessionId, version: 1 };
  t.like(await eve.request('POST', `${base}/docs`, { title: '偷看', report, doc }), { status: 404 });
  t.is((await alice.request('POST', `${base}/docs`, { title: '报告', report })).status, 422);
  t.like(await alice.request('POST', `${base}/docs`, { title: '报告', report, doc: { type: 'doc', content: [{ type: 'text', text: 'x' }] } }), { status: 422, body: { code: 'collab.doc_invalid' } });
  const created = await alice.request('POST', `${base}/docs`, { title: '报告', report, doc });
  t.like(created, { status: 201, body: { report, version: 0 } });
  const opened = (await alice.request('GET', `${base}/docs/${created.body.id}`)).body;
  t.is(opened.version, 0);
  t.is(opened.doc.content[1].content[0].text, '安全性更好 [1]');
  const a = await peer(alice, created.body.id, 'alice-7');
  a.type(' 补充', a.state.doc.content.size - 1);
  await a.settle(serverVersion(alice, created.body.id));
  t.is((await alice.request('GET', `${base}/docs/${created.body.id}/versions/0`)).body.doc.content[1].content[0].text, '安全性更好 [1]');
  t.is((await alice.request('GET', `${base}/docs/${created.body.id}`)).body.doc.content[1].content[0].text, '安全性更好 [1] 补充');
  a.close();
});

test.serial("the owner's rename reaches every member's socket; a removed member's socket closes at once with the removal code, and opening again is refused", async (t) => {
  const alice = await signUp(app.url, 'collab_a8');
  const bob = await signUp(app.url, 'collab_b8');
  const carol = await signUp(app.url, 'collab_c8');
  const id = await sharedDoc(alice, '管理', { client: bob, role: 'edit' });
  const { token } = (await alice.request('POST', `${base}/docs/${id}/invites`, { role: 'edit' })).body;
  await carol.request('POST', `${base}/invites/accept`, { token });
  const a = await peer(alice, id, 'alice-8');
  const b = await peer(bob, id, 'bob-8');
  const c = await peer(carol, id, 'carol-8');

  await alice.request('PATCH', `${base}/docs/${id}`, { title: '管理（新）' });
  for (const one of [a, b, c]) t.like(await one.socket!.next((message) => message.type === 'collab.renamed'), { doc_id: id, title: '管理（新）' });

  await alice.request('PUT', `${base}/docs/${id}/members/${carol.userId}`, { role: 'read' });
  t.like(await c.socket!.next((message) => message.type === 'collab.access'), { doc_id: id, access: 'read' });

  const { received } = a.socket!;
  const after = received.length;
  t.is((await alice.request('DELETE', `${base}/docs/${id}/members/${bob.userId}`)).status, 204);
  t.deepEqual(await b.socket!.closed, { code: 4403, reason: 'removed from the document' });
  t.is((await (await openSocketAt(app.url, `${base}/ws/${id}`, bob.token)).closed).code, 4404);
  // The others stay, and the presence list drops bob.
  await a.socket!.next((message) => message.type === 'collab.presence' && received.indexOf(message) >= after && message.peers.every((p: any) => p.user_id !== bob.userId));
  a.type('still here');
  await a.settle(serverVersion(alice, id));
  t.is(a.rejections.length, 0);

  t.is((await carol.request('DELETE', `${base}/docs/${id}/members/${carol.userId}`)).status, 204);
  t.is((await c.socket!.closed).code, 4403);
  a.close();
});

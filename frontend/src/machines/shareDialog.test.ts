import test from 'ava';
import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate';
import { shareDialogMachine, type OpenShare, type ShareRequest } from './shareDialog.ts';

function start(create: (request: ShareRequest) => Promise<{ share_id: string }>, copy: () => Promise<void> = async () => undefined, find: () => Promise<OpenShare | null> = async () => null) {
  const requests: ShareRequest[] = [];
  const machine = shareDialogMachine.provide({
    actors: {
      findShare: fromPromise<OpenShare | null, { sessionId: string }>(() => find()),
      createShare: fromPromise<{ share_id: string }, ShareRequest>(({ input }) => {
        requests.push(input);
        return create(input);
      }),
      copyLink: fromPromise<void, { link: string }>(() => copy()),
    },
  });
  return { actor: createActor(machine, { clock: new SimulatedClock() }).start(), requests };
}

const open = { type: 'dialog.open', sessionId: 's-1', sessionName: '固态电池调研', sessionKnown: true } as const;

/** Opens the dialog and waits while it looks for a link made earlier. */
async function opened(actor: ReturnType<typeof start>['actor']) {
  actor.send(open);
  await waitFor(actor, (snapshot) => !snapshot.matches({ open: 'checking' }));
}

test('opens without a link, titled after the session', async (t) => {
  const { actor } = start(async () => ({ share_id: 'x' }));
  t.true(actor.getSnapshot().matches('closed'));
  await opened(actor);
  t.true(actor.getSnapshot().matches({ open: 'editing' }));
  t.is(actor.getSnapshot().context.title, '固态电池调研');
  t.is(actor.getSnapshot().context.link, '');
});

test('creating a link sends the fields and shows the link; copy reports its outcome', async (t) => {
  let copies = 0;
  const { actor, requests } = start(
    async () => ({ share_id: 'abc123' }),
    async () => {
      copies += 1;
      if (copies > 1) throw new Error('denied');
    },
  );
  await opened(actor);
  actor.send({ type: 'field.title', value: ' 报告 ' });
  actor.send({ type: 'field.description', value: '给团队看' });
  actor.send({ type: 'field.expiry', value: 7 });
  actor.send({ type: 'link.create' });
  t.true(actor.getSnapshot().matches({ open: 'creating' }));
  await waitFor(actor, (snapshot) => snapshot.matches({ open: 'created' }));
  t.deepEqual(requests, [{ session_id: 's-1', title: '报告', description: '给团队看', expires_days: 7, include_private: false }]);
  t.true(actor.getSnapshot().context.link.endsWith('/share/conversation/abc123'));
  t.deepEqual(actor.getSnapshot().context.message, { key: 'created' });
  actor.send({ type: 'link.copy' });
  await waitFor(actor, (snapshot) => snapshot.matches({ open: { created: 'idle' } }));
  t.deepEqual(actor.getSnapshot().context.message, { key: 'copied' });
  actor.send({ type: 'link.copy' });
  await waitFor(actor, (snapshot) => snapshot.context.message?.key === 'copyFailed');
  t.pass();
});

test('private notes and cognitions stay out unless the owner includes them, and closing forgets the choice', async (t) => {
  const { actor, requests } = start(async () => ({ share_id: 'p' }));
  await opened(actor);
  t.false(actor.getSnapshot().context.includePrivate);
  actor.send({ type: 'field.includePrivate', value: true });
  actor.send({ type: 'link.create' });
  await waitFor(actor, (snapshot) => snapshot.matches({ open: 'created' }));
  t.true(requests[0]?.include_private);
  actor.send({ type: 'dialog.close' });
  await opened(actor);
  t.false(actor.getSnapshot().context.includePrivate);
});

test('expiry defaults to null (never)', async (t) => {
  const { actor, requests } = start(async () => ({ share_id: 'y' }));
  await opened(actor);
  actor.send({ type: 'link.create' });
  await waitFor(actor, (snapshot) => snapshot.matches({ open: 'created' }));
  t.is(requests[0]?.expires_days, null);
});

test('a failure shows the server detail, else the generic message, and allows retrying', async (t) => {
  let calls = 0;
  const { actor } = start(async () => {
    calls += 1;
    throw calls === 1 ? Object.assign(new Error('x'), { detail: '会话不存在' }) : new Error('network');
  });
  await opened(actor);
  actor.send({ type: 'link.create' });
  await waitFor(actor, (snapshot) => snapshot.context.message !== null);
  t.true(actor.getSnapshot().matches({ open: 'editing' }));
  t.deepEqual(actor.getSnapshot().context.message, { key: 'createFailed', detail: '会话不存在' });
  actor.send({ type: 'link.create' });
  await waitFor(actor, (snapshot) => snapshot.matches({ open: 'editing' }) && snapshot.context.message !== null);
  t.deepEqual(actor.getSnapshot().context.message, { key: 'createFailed' });
});

test('without an active session, or with an unknown one, nothing is sent', (t) => {
  const { actor, requests } = start(async () => ({ share_id: 'z' }));
  actor.send({ type: 'dialog.open', sessionId: null, sessionName: '', sessionKnown: false });
  actor.send({ type: 'link.create' });
  t.deepEqual(actor.getSnapshot().context.message, { key: 'noActiveSession' });
  actor.send({ type: 'dialog.close' });
  actor.send({ type: 'dialog.open', sessionId: 'gone', sessionName: 'x', sessionKnown: false });
  actor.send({ type: 'link.create' });
  t.deepEqual(actor.getSnapshot().context.message, { key: 'sessionMissing' });
  t.is(requests.length, 0);
});

test('closing resets title to the session name, description, message and link', async (t) => {
  const { actor } = start(async () => ({ share_id: 'q' }));
  await opened(actor);
  actor.send({ type: 'field.title', value: '别的标题' });
  actor.send({ type: 'field.description', value: '说明' });
  actor.send({ type: 'link.create' });
  await waitFor(actor, (snapshot) => snapshot.matches({ open: 'created' }));
  actor.send({ type: 'dialog.close' });
  const { context } = actor.getSnapshot();
  t.true(actor.getSnapshot().matches('closed'));
  t.is(context.title, '固态电池调研');
  t.is(context.description, '');
  t.is(context.message, null);
  t.is(context.link, '');
});

test('a link made earlier and still open is shown again, with the way to make another', async (t) => {
  const { actor, requests } = start(
    async () => ({ share_id: 'fresh' }),
    undefined,
    async () => ({ share_id: 'earlier', title: '给团队', description: '周会用' }),
  );
  await opened(actor);
  t.true(actor.getSnapshot().matches({ open: 'created' }));
  t.like(actor.getSnapshot().context, { title: '给团队', description: '周会用', message: { key: 'existing' } });
  t.true(actor.getSnapshot().context.link.endsWith('/share/conversation/earlier'));
  actor.send({ type: 'link.another' });
  t.true(actor.getSnapshot().matches({ open: 'editing' }));
  t.like(actor.getSnapshot().context, { title: '固态电池调研', link: '', message: null });
  actor.send({ type: 'link.create' });
  await waitFor(actor, (snapshot) => snapshot.matches({ open: 'created' }));
  t.true(actor.getSnapshot().context.link.endsWith('/share/conversation/fresh'));
  t.is(requests.length, 1);
});

test('when the links cannot be read the form opens as for a first link', async (t) => {
  const { actor } = start(async () => ({ share_id: 'x' }), undefined, () => Promise.reject(new Error('offline')));
  await opened(actor);
  t.true(actor.getSnapshot().matches({ open: 'editing' }));
});

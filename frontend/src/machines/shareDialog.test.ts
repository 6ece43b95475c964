import test from 'ava';
import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate';
import { shareDialogMachine, type ShareCreated, type ShareRequest } from './shareDialog.ts';

function start(create: (request: ShareRequest) => Promise<ShareCreated>, copy: (link: string) => Promise<void> = async () => undefined) {
  const requests: ShareRequest[] = [];
  const machine = shareDialogMachine.provide({
    actors: {
      createShare: fromPromise<ShareCreated, ShareRequest>(({ input }) => {
        requests.push(input);
        return create(input);
      }),
      copyLink: fromPromise<void, { link: string }>(({ input }) => copy(input.link)),
    },
  });
  return { actor: createActor(machine, { clock: new SimulatedClock() }).start(), requests };
}

const open = { type: 'dialog.open', sessionId: 's-1', sessionName: '固态电池调研', sessionKnown: true } as const;

function opened(actor: ReturnType<typeof start>['actor']) {
  actor.send(open);
}

/** Creates a link and waits until its answer is in. */
async function created(actor: ReturnType<typeof start>['actor']) {
  actor.send({ type: 'link.create' });
  await waitFor(actor, (snapshot) => snapshot.matches({ open: 'editing' }));
}

test('opens on the form, titled after the session', (t) => {
  const { actor } = start(async () => ({ share_id: 'x' }));
  t.true(actor.getSnapshot().matches('closed'));
  opened(actor);
  t.true(actor.getSnapshot().matches({ open: 'editing' }));
  t.is(actor.getSnapshot().context.title, '固态电池调研');
  t.is(actor.getSnapshot().context.createdId, null);
});

test('creating a link sends the fields and names the link made; copy copies the link given and reports its outcome', async (t) => {
  const copied: string[] = [];
  const { actor, requests } = start(
    async () => ({ share_id: 'abc123' }),
    async (link) => {
      copied.push(link);
      if (copied.length > 1) throw new Error('denied');
    },
  );
  opened(actor);
  actor.send({ type: 'field.title', value: ' 报告 ' });
  actor.send({ type: 'field.description', value: '给团队看' });
  actor.send({ type: 'field.expiry', value: 7 });
  actor.send({ type: 'link.create' });
  t.true(actor.getSnapshot().matches({ open: 'creating' }));
  await waitFor(actor, (snapshot) => snapshot.matches({ open: 'editing' }));
  t.deepEqual(requests, [{ session_id: 's-1', title: '报告', description: '给团队看', expires_days: 7, include_private: false }]);
  t.is(actor.getSnapshot().context.createdId, 'abc123');
  t.deepEqual(actor.getSnapshot().context.message, { key: 'created' });
  actor.send({ type: 'link.copy', link: 'https://x/share/conversation/abc123' });
  await waitFor(actor, (snapshot) => snapshot.context.message?.key === 'copied');
  actor.send({ type: 'link.copy', link: 'https://x/share/artifact/f1' });
  await waitFor(actor, (snapshot) => snapshot.context.message?.key === 'copyFailed');
  t.deepEqual(copied, ['https://x/share/conversation/abc123', 'https://x/share/artifact/f1']);
});

test('private notes and cognitions stay out unless the owner includes them, and closing forgets the choice', async (t) => {
  const { actor, requests } = start(async () => ({ share_id: 'p' }));
  opened(actor);
  t.false(actor.getSnapshot().context.includePrivate);
  actor.send({ type: 'field.includePrivate', value: true });
  await created(actor);
  t.true(requests[0]?.include_private);
  actor.send({ type: 'dialog.close' });
  opened(actor);
  t.false(actor.getSnapshot().context.includePrivate);
});

test('expiry defaults to null (never), as the spec has it', async (t) => {
  const { actor, requests } = start(async () => ({ share_id: 'y' }));
  opened(actor);
  await created(actor);
  t.is(requests[0]?.expires_days, null);
});

test('a failure shows the server detail, else the generic message, and allows retrying', async (t) => {
  let calls = 0;
  const { actor } = start(async () => {
    calls += 1;
    throw calls === 1 ? Object.assign(new Error('x'), { detail: '会话不存在' }) : new Error('network');
  });
  opened(actor);
  await created(actor);
  t.deepEqual(actor.getSnapshot().context.message, { key: 'createFailed', detail: '会话不存在' });
  await created(actor);
  t.deepEqual(actor.getSnapshot().context.message, { key: 'createFailed' });
  t.is(actor.getSnapshot().context.createdId, null);
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

test('a revoked link says so and is no longer the one to focus; a refused revoke keeps the server words', async (t) => {
  const { actor } = start(async () => ({ share_id: 'r' }));
  opened(actor);
  await created(actor);
  actor.send({ type: 'link.revoked' });
  t.like(actor.getSnapshot().context, { message: { key: 'revoked' }, createdId: null });
  actor.send({ type: 'link.revokeFailed', detail: '分享不存在或已过期' });
  t.deepEqual(actor.getSnapshot().context.message, { key: 'revokeFailed', detail: '分享不存在或已过期' });
});

test('closing resets title to the session name, description, message and the link made', async (t) => {
  const { actor } = start(async () => ({ share_id: 'q' }));
  opened(actor);
  actor.send({ type: 'field.title', value: '别的标题' });
  actor.send({ type: 'field.description', value: '说明' });
  await created(actor);
  actor.send({ type: 'dialog.close' });
  const { context } = actor.getSnapshot();
  t.true(actor.getSnapshot().matches('closed'));
  t.like(context, { title: '固态电池调研', description: '', message: null, createdId: null });
});

import test from 'ava';
import { createActor, fromCallback, SimulatedClock } from 'xstate';
import { COLLAB_PING_MS, COLLAB_PRESENCE_THROTTLE_MS } from '@scriptorium/domain/protocol/collab';
import { CLOSE_NOT_FOUND, CLOSE_REMOVED } from '@scriptorium/domain/protocol/ws';
import { collabConnection, collabMachine, type CollabSend } from './collab.ts';
import { HEARTBEAT_WATCHDOG_MS, reconnectDelay } from './connection.ts';

/** A fake socket and editor: counts opens, records what was sent and submitted, answers rechecks with the editor's state. */
function harness(editor = { version: 0, sendable: false }) {
  const log = { opened: 0, closed: 0, sent: [] as any[], applied: [] as Array<{ version: number; clientId: string }> };
  /** The versions batches were submitted at. */
  const submitted = () => log.sent.filter((message) => message.type === 'collab.steps').map((message) => message.version as number);
  const changed = (version = editor.version) => ({ type: 'collab.changed' as const, version, steps: [{ stepType: 'replace' }], clientId: 'me' });
  const clock = new SimulatedClock();
  const machine = collabMachine.provide({
    actors: {
      socket: fromCallback<CollabSend>(({ receive }) => {
        log.opened += 1;
        receive((event) => log.sent.push(event.data));
        return () => {
          log.closed += 1;
        };
      }),
    },
    actions: {
      applySteps: (_, params) => {
        log.applied.push({ version: params.version, clientId: params.clientId });
        editor.version = params.version + params.steps.length;
      },
      recheck: () => {
        if (editor.sendable) queueMicrotask(() => actor.send(changed()));
      },
    },
  });
  const actor = createActor(machine, { clock }).start();
  const ready = (access: 'owner' | 'edit' | 'read' = 'edit') => actor.send({ type: 'collab.ready', version: editor.version, access, session: 's1' });
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { actor, clock, log, editor, ready, tick, submitted, changed, snapshot: () => actor.getSnapshot() };
}

test('connecting applies what the socket missed, then goes live; a change is submitted and nothing more until it is answered', (t) => {
  const { actor, log, ready, snapshot, submitted, changed } = harness();
  t.true(snapshot().matches({ open: 'connecting' }));
  actor.send({ type: 'collab.steps', version: 0, steps: [{}, {}], clientId: 'other' });
  ready();
  t.true(snapshot().matches({ open: { live: { flow: 'idle' } } }));
  actor.send(changed(2));
  t.true(snapshot().matches({ open: { live: { flow: 'sending' } } }));
  actor.send(changed(2));
  t.deepEqual(submitted(), [2], 'one batch in flight at a time');
  t.deepEqual(log.applied, [{ version: 0, clientId: 'other' }]);
  actor.send({ type: 'collab.accepted', version: 3 });
  t.true(snapshot().matches({ open: { live: { flow: 'idle' } } }));
  t.is(snapshot().context.waitFor, 3);
});

test('a batch refused as behind is resent only once the editor has caught up with the version named', (t) => {
  const { actor, editor, ready, snapshot, submitted, changed } = harness();
  ready();
  actor.send(changed(0));
  actor.send({ type: 'collab.rejected', version: 2, code: 'collab.version_behind', params: { version: 2 } });
  t.true(snapshot().matches({ open: { live: { flow: 'idle' } } }));
  actor.send(changed(0));
  t.deepEqual(submitted(), [0], 'not resent on the old version');
  actor.send({ type: 'collab.steps', version: 0, steps: [{}, {}], clientId: 'other' });
  actor.send(changed(editor.version));
  t.deepEqual(submitted(), [0, 2], 'resent once rebased');
  t.is(snapshot().context.refusal, null, 'being behind is routine, not shown');
});

test('a read-only refusal makes the editor a reader and submits nothing more', (t) => {
  const { actor, ready, snapshot, submitted, changed } = harness();
  ready('edit');
  actor.send(changed(0));
  actor.send({ type: 'collab.rejected', version: 0, code: 'collab.read_only' });
  t.is(snapshot().context.access, 'read');
  t.deepEqual(snapshot().context.refusal, { code: 'collab.read_only' });
  actor.send(changed(0));
  t.deepEqual(submitted(), [0]);
});

test('a reader never submits', (t) => {
  const { actor, ready, submitted, changed } = harness();
  ready('read');
  actor.send(changed(0));
  t.deepEqual(submitted(), []);
});

test('pings while idle; a silent socket is presumed dead and reconnects after the delay', (t) => {
  const { clock, log, ready, snapshot } = harness();
  ready();
  clock.increment(COLLAB_PING_MS);
  t.deepEqual(log.sent, [{ type: 'collab.presence', version: 0, selection: null }, { type: 'ping' }]);
  clock.increment(HEARTBEAT_WATCHDOG_MS - COLLAB_PING_MS);
  t.is(collabConnection(snapshot()), 'offline');
  t.is(log.closed, 1, 'leaving live closes the socket');
  clock.increment(reconnectDelay(1));
  t.is(collabConnection(snapshot()), 'connecting');
  t.is(log.opened, 2);
});

test('heartbeats keep the socket alive', (t) => {
  const { actor, clock, ready } = harness();
  ready();
  for (let index = 0; index < 5; index++) {
    clock.increment(HEARTBEAT_WATCHDOG_MS - 1);
    actor.send({ type: 'collab.heartbeat' });
  }
  t.true(actor.getSnapshot().matches({ open: 'live' }));
});

test('going offline drops the socket; coming back online reconnects at once and resubmits what is pending', async (t) => {
  const { actor, log, editor, ready, tick, snapshot, submitted } = harness({ version: 0, sendable: true });
  ready();
  await tick();
  t.deepEqual(submitted(), [0], 'pending steps go out as soon as it is live');
  actor.send({ type: 'collab.offline' });
  t.is(collabConnection(snapshot()), 'offline');
  actor.send({ type: 'collab.online' });
  t.is(collabConnection(snapshot()), 'connecting');
  // The batch in flight when the connection dropped was accepted: it comes back as ours.
  actor.send({ type: 'collab.steps', version: 0, steps: [{}], clientId: 'me' });
  editor.sendable = false;
  ready();
  await tick();
  t.deepEqual(submitted(), [0]);
  t.is(log.opened, 2);
});

test('a document that is gone closes for good; presence is cleared when the socket drops', (t) => {
  const { actor, ready, snapshot } = harness();
  ready();
  actor.send({ type: 'collab.presence', peers: [{ session: 's2', user_id: 'u2', name: 'B', colour: 1, access: 'edit', version: 0, selection: null }] });
  t.is(snapshot().context.peers.length, 1);
  actor.send({ type: 'collab.closed', code: 1006 });
  t.deepEqual(snapshot().context.peers, []);
  actor.send({ type: 'collab.retry' });
  actor.send({ type: 'collab.closed', code: CLOSE_NOT_FOUND });
  t.is(collabConnection(snapshot()), 'closed');
  t.is(snapshot().context.closedBy, 'not_found');
});

test('selections are sent at most every throttle interval, the latest one', (t) => {
  const { actor, clock, log, ready } = harness();
  ready();
  log.sent.length = 0;
  actor.send({ type: 'collab.select', version: 0, selection: { anchor: 1, head: 1 } });
  actor.send({ type: 'collab.select', version: 0, selection: { anchor: 1, head: 2 } });
  t.deepEqual(log.sent, []);
  clock.increment(COLLAB_PRESENCE_THROTTLE_MS);
  t.deepEqual(log.sent, [{ type: 'collab.presence', version: 0, selection: { anchor: 1, head: 2 } }]);
});

test('a batch the server failed on is resent after reconnecting, with the backoff', (t) => {
  const { actor, clock, log, ready, snapshot, submitted, changed } = harness();
  ready();
  actor.send(changed(0));
  actor.send({ type: 'collab.rejected', version: 0, code: 'socket.failed' });
  t.is(collabConnection(snapshot()), 'offline');
  clock.increment(reconnectDelay(1));
  t.is(log.opened, 2);
  ready();
  actor.send(changed(0));
  t.deepEqual(submitted(), [0, 0]);
});

test('a rename and a role change arrive while live; a socket closed as removed stays closed and says why', (t) => {
  const { actor, clock, log, ready, snapshot, submitted, changed } = harness();
  ready('edit');
  actor.send({ type: 'collab.renamed', title: '月报' });
  t.is(snapshot().context.title, '月报');
  actor.send({ type: 'collab.access', access: 'read' });
  actor.send(changed(0));
  t.deepEqual(submitted(), [], 'a reader submits nothing');
  actor.send({ type: 'collab.access', access: 'edit' });
  actor.send(changed(0));
  t.deepEqual(submitted(), [0]);
  actor.send({ type: 'collab.closed', code: CLOSE_REMOVED });
  t.is(collabConnection(snapshot()), 'closed');
  t.is(snapshot().context.closedBy, 'removed');
  clock.increment(60_000);
  t.is(log.opened, 1, 'no reconnect after a removal');
});

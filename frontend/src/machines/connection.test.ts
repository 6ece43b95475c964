import test from 'ava';
import { createActor, fromCallback, SimulatedClock } from 'xstate';
import { CLOSE_ACCOUNT_INACTIVE, CLOSE_UNAUTHORIZED } from '@scriptorium/domain/protocol/socketCodes';
import { connectionMachine, connectionStatus, HEARTBEAT_WATCHDOG_MS, MAX_RECONNECT_ATTEMPTS, RECONNECT_BASE_MS, reconnectDelay } from './connection.ts';

/** A fake socket: counts opens, records what was sent, and lets the test answer for the server. */
function harness() {
  const log = { opened: 0, closedByMachine: 0, sent: [] as unknown[], resubscribed: 0, delivered: [] as unknown[], lost: 0, signedOut: 0, inactive: 0 };
  const clock = new SimulatedClock();
  const machine = connectionMachine.provide({
    actors: {
      socket: fromCallback<{ type: 'socket.send'; data: unknown }>(({ receive }) => {
        log.opened += 1;
        receive((event) => log.sent.push(event.data));
        return () => {
          log.closedByMachine += 1;
        };
      }),
    },
    actions: {
      resubscribe: () => {
        log.resubscribed += 1;
      },
      deliver: (_, params) => {
        log.delivered.push(params.data);
      },
      connectionLost: () => {
        log.lost += 1;
      },
      accountInactive: () => {
        log.inactive += 1;
      },
      signedOut: () => {
        log.signedOut += 1;
      },
    },
  });
  const actor = createActor(machine, { clock }).start();
  return { actor, clock, log, status: () => connectionStatus(actor.getSnapshot()) };
}

test('reconnect delay is 2 s × 1.5ⁿ capped at 30 s', (t) => {
  t.is(reconnectDelay(0), 2_000);
  t.is(reconnectDelay(1), 3_000);
  t.is(reconnectDelay(2), 4_500);
  t.is(reconnectDelay(9), 30_000);
});

test('a fresh connection stays disconnected until asked', (t) => {
  const { clock, log, status } = harness();
  clock.increment(60_000);
  t.is(status(), 'disconnected');
  t.is(log.opened, 0);
});

test('connecting becomes connected on open and resubscribes every session', (t) => {
  const { actor, log, status } = harness();
  actor.send({ type: 'connection.connect' });
  t.is(status(), 'connecting');
  actor.send({ type: 'socket.opened' });
  t.true(actor.getSnapshot().matches({ live: 'connected' }));
  t.is(log.resubscribed, 1);
});

test('a connect not finished in 5 s is forced to disconnected and rescheduled', (t) => {
  const { actor, clock, log, status } = harness();
  actor.send({ type: 'connection.connect' });
  clock.increment(4_999);
  t.is(status(), 'connecting');
  clock.increment(1);
  t.is(status(), 'disconnected');
  t.is(log.closedByMachine, 1);
  clock.increment(reconnectDelay(0));
  t.is(status(), 'connecting');
  t.is(log.opened, 2);
});

test('a dropped connection reconnects with growing delays and fails after 10 attempts', (t) => {
  const { actor, clock, status } = harness();
  actor.send({ type: 'connection.connect' });
  actor.send({ type: 'socket.opened' });
  actor.send({ type: 'socket.closed', code: 1006 });
  t.is(status(), 'disconnected');
  for (let attempt = 0; attempt < MAX_RECONNECT_ATTEMPTS; attempt += 1) {
    clock.increment(reconnectDelay(attempt) - 1);
    t.is(status(), 'disconnected', `still waiting before attempt ${attempt + 1}`);
    clock.increment(1);
    t.is(status(), 'connecting', `attempt ${attempt + 1} dials`);
    actor.send({ type: 'socket.error' });
  }
  t.is(status(), 'failed');
  t.is(actor.getSnapshot().context.attempts, MAX_RECONNECT_ATTEMPTS);
  clock.increment(120_000);
  t.is(status(), 'failed');
  actor.send({ type: 'connection.connect' });
  t.is(status(), 'connecting');
  t.is(actor.getSnapshot().context.attempts, 0);
});

test('a successful open resets the attempt count', (t) => {
  const { actor, clock } = harness();
  actor.send({ type: 'connection.connect' });
  actor.send({ type: 'socket.error' });
  clock.increment(reconnectDelay(0));
  actor.send({ type: 'socket.error' });
  clock.increment(reconnectDelay(1));
  t.is(actor.getSnapshot().context.attempts, 2);
  actor.send({ type: 'socket.opened' });
  t.is(actor.getSnapshot().context.attempts, 0);
});

for (const code of [1000, 1001]) {
  test(`close code ${code} does not reconnect`, (t) => {
    const { actor, clock, status, log } = harness();
    actor.send({ type: 'connection.connect' });
    actor.send({ type: 'socket.opened' });
    actor.send({ type: 'socket.closed', code });
    clock.increment(60_000);
    t.is(status(), 'disconnected');
    t.is(log.opened, 1);
  });
}

for (const closing of ['while connected', 'on connect'] as const) {
  test(`close code 4401 (sign in again) ${closing} stops reconnecting and signs the user out`, (t) => {
    const { actor, clock, status, log } = harness();
    actor.send({ type: 'connection.connect' });
    if (closing === 'while connected') actor.send({ type: 'socket.opened' });
    actor.send({ type: 'socket.closed', code: CLOSE_UNAUTHORIZED });
    clock.increment(600_000);
    t.is(status(), 'disconnected');
    t.is(log.opened, 1);
    t.is(log.signedOut, 1);
  });
}

test('close code 4401 for a token this browser has already replaced (a password change) reconnects with the new one, not signing out', (t) => {
  const { actor, clock, status, log } = harness();
  actor.send({ type: 'connection.connect' });
  actor.send({ type: 'socket.opened' });
  actor.send({ type: 'socket.closed', code: CLOSE_UNAUTHORIZED, tokenReplaced: true });
  clock.increment(RECONNECT_BASE_MS);
  t.is(log.opened, 2);
  actor.send({ type: 'socket.opened' });
  t.is(status(), 'connected');
  t.is(log.signedOut, 0);
});

test('close code 4423 (account deactivated) stops reconnecting and reports the inactive account without signing out', (t) => {
  const { actor, clock, status, log } = harness();
  actor.send({ type: 'connection.connect' });
  actor.send({ type: 'socket.opened' });
  actor.send({ type: 'socket.closed', code: CLOSE_ACCOUNT_INACTIVE });
  clock.increment(600_000);
  t.true(actor.getSnapshot().matches({ disconnected: 'idle' }));
  t.is(status(), 'disconnected');
  t.is(log.opened, 1);
  t.is(log.inactive, 1);
  t.is(log.signedOut, 0);
});

test('a manual disconnect prevents reconnecting, also while a reconnect is waiting', (t) => {
  const { actor, clock, status, log } = harness();
  actor.send({ type: 'connection.connect' });
  actor.send({ type: 'socket.opened' });
  actor.send({ type: 'connection.disconnect' });
  clock.increment(60_000);
  t.is(status(), 'disconnected');
  actor.send({ type: 'connection.connect' });
  actor.send({ type: 'socket.closed', code: 1006 });
  actor.send({ type: 'connection.disconnect' });
  clock.increment(60_000);
  t.is(status(), 'disconnected');
  t.is(log.opened, 2);
});

test('each message rearms the heartbeat watchdog; 11 s of silence closes the socket', (t) => {
  const { actor, clock, status, log } = harness();
  actor.send({ type: 'connection.connect' });
  actor.send({ type: 'socket.opened' });
  for (let beat = 0; beat < 5; beat += 1) {
    clock.increment(HEARTBEAT_WATCHDOG_MS - 1);
    actor.send({ type: 'socket.message', data: { type: 'heartbeat' } });
  }
  t.is(status(), 'connected');
  t.is(log.delivered.length, 5);
  clock.increment(HEARTBEAT_WATCHDOG_MS);
  t.is(status(), 'disconnected');
  t.is(log.closedByMachine, 1);
  clock.increment(reconnectDelay(0));
  actor.send({ type: 'socket.opened' });
  t.is(log.resubscribed, 2, 'every reconnect resubscribes');
});

test('sending goes to the open socket', (t) => {
  const { actor, log } = harness();
  actor.send({ type: 'connection.connect' });
  actor.send({ type: 'socket.opened' });
  actor.send({ type: 'socket.send', data: '{"x":1}' });
  t.deepEqual(log.sent, ['{"x":1}']);
});

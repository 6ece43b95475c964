import test from 'ava';
import { createActor, fromCallback, fromPromise, SimulatedClock, type EventObject } from 'xstate';
import type { Session } from '@scriptorium/domain/protocol/http/conversation';
import { NEW_SESSION_WAIT_MS, researchMachine, type StartupPlan } from './research.ts';
import { sessionDto } from './fixtures.ts';
import { researchSessionMachine, type LoadedSession } from './researchSession.ts';

const dto = (id: string) => sessionDto(id, { message_count: 1 });

/** A workspace whose sessions load unless their id is in `missing`; what it remembers is recorded. */
function workspace(plan: StartupPlan, missing: string[] = []) {
  const clock = new SimulatedClock();
  const remembered: Array<{ ids: string[]; active: string | null }> = [];
  let created = 0;
  const session = researchSessionMachine.provide({
    actors: {
      loadSession: fromPromise<LoadedSession, { id: string }>(async ({ input }) => {
        if (missing.includes(input.id)) throw new Error('会话不存在');
        return { dto: dto(input.id), history: { position: 0, messages: [] }, canvas: null };
      }),
      subscription: fromCallback<EventObject, { id: string; position: () => number }>(() => undefined),
    },
  });
  const machine = researchMachine.provide({
    actors: {
      session,
      startup: fromPromise<StartupPlan, { urlId: string | null }>(async () => plan),
      createSession: fromPromise<Session, void>(async () => dto(`new-${++created}`)),
    },
    actions: {
      remember: ({ context }) => void remembered.push({ ids: context.sessions.map((ref) => ref.getSnapshot().context.id), active: context.activeId }),
    },
  });
  const actor = createActor(machine, { clock }).start();
  const ids = () => actor.getSnapshot().context.sessions.map((ref) => ref.getSnapshot().context.id);
  return { actor, clock, remembered, ids, created: () => created };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

test('after a reload every session that was open is open again, the remembered one shown', async (t) => {
  const { actor, ids, remembered } = workspace({ ids: ['a', 'b', 'c'], active: 'b' });
  actor.send({ type: 'research.start', urlId: null });
  await tick();
  t.true(actor.getSnapshot().matches('running'));
  t.deepEqual(ids(), ['a', 'b', 'c']);
  t.is(actor.getSnapshot().context.activeId, 'b');
  t.deepEqual(remembered.at(-1), { ids: ['a', 'b', 'c'], active: 'b' });
});

test('a session that cannot be restored is dropped; the shown one falls to the next', async (t) => {
  const { actor, ids, created } = workspace({ ids: ['a', 'gone'], active: 'gone' }, ['gone']);
  actor.send({ type: 'research.start', urlId: 'gone' });
  await tick();
  await tick();
  t.deepEqual(ids(), ['a']);
  t.is(actor.getSnapshot().context.activeId, 'a');
  t.is(created(), 0, 'no new empty session while another is open');
  t.is(actor.getSnapshot().context.error, '会话不存在');
});

test('with nothing to restore one default session is made, shown after the new-session wait', async (t) => {
  const { actor, clock, ids, created } = workspace({ ids: [], active: null });
  actor.send({ type: 'research.start', urlId: null });
  await tick();
  t.true(actor.getSnapshot().matches('settling'));
  t.deepEqual(ids(), []);
  clock.increment(NEW_SESSION_WAIT_MS);
  t.true(actor.getSnapshot().matches('running'));
  t.deepEqual(ids(), ['new-1']);
  t.is(actor.getSnapshot().context.activeId, 'new-1');
  t.is(created(), 1);
});

test('closing the active session moves to the next; the last one cannot be closed', async (t) => {
  const { actor, ids } = workspace({ ids: ['a', 'b'], active: 'a' });
  actor.send({ type: 'research.start', urlId: null });
  await tick();
  actor.send({ type: 'session.close', id: 'a' });
  t.deepEqual(ids(), ['b']);
  t.is(actor.getSnapshot().context.activeId, 'b');
  actor.send({ type: 'session.close', id: 'b' });
  t.deepEqual(ids(), ['b']);
});

test('a restoring session cannot be selected; opening a cloud chat restores and shows it', async (t) => {
  const { actor, ids } = workspace({ ids: ['a'], active: 'a' });
  actor.send({ type: 'research.start', urlId: null });
  await tick();
  actor.send({ type: 'session.open', id: 'cloud' });
  t.deepEqual(ids(), ['a', 'cloud']);
  t.is(actor.getSnapshot().context.activeId, 'cloud');
  actor.send({ type: 'session.switch', id: 'a' });
  actor.send({ type: 'session.switch', id: 'cloud' });
  t.true(actor.getSnapshot().context.sessions[1]!.getSnapshot().matches('loading'));
  t.is(actor.getSnapshot().context.activeId, 'a', 'not selectable while restoring');
  await tick();
  actor.send({ type: 'session.switch', id: 'cloud' });
  t.is(actor.getSnapshot().context.activeId, 'cloud');
});

test('signing out forgets every session', async (t) => {
  const { actor, ids } = workspace({ ids: ['a', 'b'], active: 'a' });
  actor.send({ type: 'research.start', urlId: null });
  await tick();
  actor.send({ type: 'research.reset' });
  t.true(actor.getSnapshot().matches('idle'));
  t.deepEqual(ids(), []);
});

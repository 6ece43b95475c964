import test from 'ava';
import { createActor, SimulatedClock } from 'xstate';
import type { PlanStep } from '@scriptorium/domain/protocol/research';
import { holdPlanPlayer, PLAN_STEP_HOLD_MS, planPlayer, planProgressMachine } from './planProgress.ts';

const plan = (current: number): PlanStep[] =>
  [1, 2, 3].map((step) => ({ step, description: `第 ${step} 步`, status: step - 1 < current ? 'completed' : step - 1 === current ? 'in_progress' : 'not_started' }) as PlanStep);
const statuses = (steps: PlanStep[]) => steps.map((step) => step.status);

test('a plan loaded from history shows its last state at once', (t) => {
  const actor = createActor(planProgressMachine, { input: { states: [plan(-1), plan(0), plan(3)] }, clock: new SimulatedClock() }).start();
  t.true(actor.getSnapshot().matches('idle'));
  t.deepEqual(statuses(actor.getSnapshot().context.shown), ['completed', 'completed', 'completed']);
});

test('steps that finish at once are still shown one after another, each held a while', (t) => {
  const clock = new SimulatedClock();
  const actor = createActor(planProgressMachine, { input: { states: [plan(-1)] }, clock }).start();
  // Three changes arrive in one render.
  actor.send({ type: 'plan.updated', states: [plan(-1), plan(0), plan(1), plan(2)] });
  t.true(actor.getSnapshot().matches('showing'));
  t.deepEqual(statuses(actor.getSnapshot().context.shown), ['in_progress', 'not_started', 'not_started']);
  clock.increment(PLAN_STEP_HOLD_MS - 1);
  t.deepEqual(statuses(actor.getSnapshot().context.shown), ['in_progress', 'not_started', 'not_started'], 'held');
  clock.increment(1);
  t.deepEqual(statuses(actor.getSnapshot().context.shown), ['completed', 'in_progress', 'not_started']);
  actor.send({ type: 'plan.updated', states: [plan(-1), plan(0), plan(1), plan(2), plan(3)] });
  clock.increment(PLAN_STEP_HOLD_MS);
  t.deepEqual(statuses(actor.getSnapshot().context.shown), ['completed', 'completed', 'in_progress']);
  clock.increment(PLAN_STEP_HOLD_MS);
  t.deepEqual(statuses(actor.getSnapshot().context.shown), ['completed', 'completed', 'completed']);
  clock.increment(PLAN_STEP_HOLD_MS);
  t.true(actor.getSnapshot().matches('idle'));
  actor.send({ type: 'plan.updated', states: [plan(-1), plan(0), plan(1), plan(2), plan(3)] });
  t.true(actor.getSnapshot().matches('idle'), 'nothing new, nothing to play');
});

test('a card mounted again while its plan plays goes on from where it was, not from the last state', (t) => {
  const clock = new SimulatedClock();
  const first = planPlayer('reply-1:4', [plan(-1)], clock);
  const letGo = holdPlanPlayer('reply-1:4', first);
  first.send({ type: 'plan.updated', states: [plan(-1), plan(0), plan(1), plan(2)] });
  // The layout changes: the card unmounts and mounts again with every state at hand.
  letGo();
  const again = planPlayer('reply-1:4', [plan(-1), plan(0), plan(1), plan(2)], clock);
  t.is(again, first);
  holdPlanPlayer('reply-1:4', again);
  t.deepEqual(statuses(again.getSnapshot().context.shown), ['in_progress', 'not_started', 'not_started']);
  clock.increment(PLAN_STEP_HOLD_MS);
  t.deepEqual(statuses(again.getSnapshot().context.shown), ['completed', 'in_progress', 'not_started']);
});

test('a plan nobody shows is forgotten once it has played what was queued', (t) => {
  const clock = new SimulatedClock();
  const player = planPlayer('reply-2:4', [plan(-1)], clock);
  const letGo = holdPlanPlayer('reply-2:4', player);
  player.send({ type: 'plan.updated', states: [plan(-1), plan(0)] });
  letGo();
  t.is(planPlayer('reply-2:4', [plan(-1), plan(0)], clock), player, 'still playing: kept');
  clock.increment(PLAN_STEP_HOLD_MS);
  const later = planPlayer('reply-2:4', [plan(-1), plan(0), plan(3)], clock);
  t.not(later, player, 'played out: a card mounted later starts from the plan as it stands');
  t.deepEqual(statuses(later.getSnapshot().context.shown), ['completed', 'completed', 'completed']);
});

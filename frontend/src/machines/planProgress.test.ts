import test from 'ava';
import { createActor, SimulatedClock } from 'xstate';
import type { PlanStep } from '@scriptorium/domain/protocol/research';
import { PLAN_STEP_HOLD_MS, planProgressMachine } from './planProgress.ts';

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

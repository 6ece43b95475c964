import { assign, setup } from 'xstate';
import type { PlanStep } from '@scriptorium/domain/protocol/research';

/** Each state of the plan stays on screen at least this long, so fast steps are still seen to move. */
export const PLAN_STEP_HOLD_MS = 700;

export interface PlanProgressContext {
  /** The plan as shown now. */
  shown: PlanStep[];
  /** States that arrived and are still to be shown, in order. */
  queue: PlanStep[][];
  /** How many of the plan's states have been taken in (shown or queued). */
  seen: number;
}

/** `states`: every state the plan went through so far (the plan, then each step marked), oldest first. */
export type PlanProgressEvent = { type: 'plan.updated'; states: PlanStep[][] };

/**
 * Plays a plan's step changes one at a time. A conversation loaded from history shows its last state
 * at once; live changes are queued and each is held PLAN_STEP_HOLD_MS before the next.
 */
export const planProgressMachine = setup({
  types: {
    context: {} as PlanProgressContext,
    events: {} as PlanProgressEvent,
    input: {} as { states: PlanStep[][] },
  },
  delays: {
    hold: PLAN_STEP_HOLD_MS,
  },
  guards: {
    queued: ({ context }) => context.queue.length > 0,
    news: ({ context, event }) => event.states.length > context.seen,
  },
  actions: {
    take: assign(({ context, event }) => ({ queue: [...context.queue, ...event.states.slice(context.seen)], seen: Math.max(context.seen, event.states.length) })),
    showNext: assign(({ context }) => ({ shown: context.queue[0] ?? context.shown, queue: context.queue.slice(1) })),
  },
}).createMachine({
  id: 'planProgress',
  context: ({ input }) => ({ shown: input.states.at(-1) ?? [], queue: [], seen: input.states.length }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'plan.updated': { guard: 'news', target: 'showing', actions: 'take' } },
    },
    showing: {
      entry: 'showNext',
      on: { 'plan.updated': { actions: 'take' } },
      after: { hold: [{ guard: 'queued', target: 'showing', reenter: true }, { target: 'idle' }] },
    },
  },
});

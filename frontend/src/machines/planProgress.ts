import { assign, createActor, setup, type ActorOptions, type ActorRefFrom } from 'xstate';
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

export type PlanPlayer = ActorRefFrom<typeof planProgressMachine>;

/**
 * The players of the plan cards on screen, by plan (`key`: its reply and its place there).
 * golden-layout gives a panel a new frame whenever the layout changes — the canvas opening as the
 * report starts, a pop-out, a drag — and everything in it mounts afresh: a player kept in the card
 * would start again from the last state and never show the changes still queued. Kept here, a card
 * mounted again goes on from where its plan was.
 */
const players = new Map<string, { player: PlanPlayer; holders: number }>();

/** The plan's player, made (showing `states`' last at once) if its plan has none yet. */
export function planPlayer(key: string, states: PlanStep[][], clock?: ActorOptions<typeof planProgressMachine>['clock']): PlanPlayer {
  let entry = players.get(key);
  if (!entry) {
    entry = { player: createActor(planProgressMachine, { input: { states }, ...(clock && { clock }) }).start(), holders: 0 };
    players.set(key, entry);
  }
  return entry.player;
}

/**
 * A card holds its plan's player while mounted; the returned function lets go. A player nobody
 * holds is forgotten once it has shown everything queued (at once if it has), so a card mounted
 * again in the meantime still finds it; holding a forgotten one keeps it again.
 */
export function holdPlanPlayer(key: string, player: PlanPlayer): () => void {
  let entry = players.get(key);
  if (entry?.player !== player) {
    entry = { player, holders: 0 };
    players.set(key, entry);
  }
  const held = entry;
  held.holders++;
  return () => {
    held.holders--;
    const forget = () => {
      if (held.holders === 0 && players.get(key) === held) players.delete(key);
    };
    if (player.getSnapshot().matches('idle')) return forget();
    const watching = player.subscribe((snapshot) => {
      if (!snapshot.matches('idle')) return;
      watching.unsubscribe();
      forget();
    });
  };
}

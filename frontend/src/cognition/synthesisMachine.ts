import { assign, setup, type SnapshotFrom } from 'xstate';
import type { CognitionSummary } from './api.ts';
import { toggleSelection } from './synthesis.ts';

export interface SynthesisContext {
  /** Kept as summaries, not ids, so the bar can name picks from another page or scope. */
  selected: readonly CognitionSummary[];
}

export type SynthesisEvent =
  | { type: 'synthesis.toggle' }
  | { type: 'synthesis.stop' }
  | { type: 'synthesis.pick'; item: CognitionSummary }
  | { type: 'synthesis.clear' };

/**
 * Synthesis mode: switched in the side panel, used by the cards on the page beside it and by the
 * bar below them. Picks exist only while the mode is on; leaving it forgets them, because "cancel
 * synthesis" should cancel.
 */
export const synthesisMachine = setup({
  types: {
    context: {} as SynthesisContext,
    events: {} as SynthesisEvent,
  },
  guards: {
    // A sixth pick is refused (the 2..5 rule in synthesis.ts): nothing changes.
    accepted: ({ context, event }) => event.type === 'synthesis.pick' && !toggleSelection(context.selected, event.item).refused,
  },
  actions: {
    forget: assign({ selected: [] }),
    pick: assign({ selected: ({ context, event }) => (event.type === 'synthesis.pick' ? toggleSelection(context.selected, event.item).selected : context.selected) }),
  },
}).createMachine({
  id: 'synthesis',
  context: { selected: [] },
  initial: 'off',
  states: {
    off: {
      on: { 'synthesis.toggle': { target: 'on', actions: 'forget' } },
    },
    on: {
      on: {
        'synthesis.toggle': { target: 'off', actions: 'forget' },
        'synthesis.stop': { target: 'off', actions: 'forget' },
        'synthesis.pick': { guard: 'accepted', actions: 'pick' },
        'synthesis.clear': { actions: 'forget' },
      },
    },
  },
});

export type SynthesisSnapshot = SnapshotFrom<typeof synthesisMachine>;

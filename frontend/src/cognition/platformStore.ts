import { useSyncExternalStore } from 'react';
import type { CognitionSummary } from '../api/cognition.ts';
import { toggleSelection } from './synthesis.ts';

export interface SynthesisState {
  on: boolean;
  /** Kept as summaries, not ids, so the bar can name picks from another page or scope. */
  selected: readonly CognitionSummary[];
}

/**
 * Synthesis mode is switched in the side panel and used by the cards on the page beside it; a small
 * external store lets both read it without lifting state through the shell.
 */
class SynthesisStore {
  private state: SynthesisState = { on: false, selected: [] };
  private readonly listeners = new Set<() => void>();

  getSnapshot = (): SynthesisState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  toggleMode(): void {
    // Leaving synthesis forgets the picks: "cancel synthesis" should cancel.
    this.set(this.state.on ? { on: false, selected: [] } : { on: true, selected: [] });
  }

  stop(): void {
    this.set({ on: false, selected: [] });
  }

  toggle(item: CognitionSummary): void {
    this.set({ ...this.state, selected: toggleSelection(this.state.selected, item).selected });
  }

  clear(): void {
    this.set({ ...this.state, selected: [] });
  }

  private set(next: SynthesisState): void {
    this.state = next;
    for (const listener of this.listeners) listener();
  }
}

export const synthesis = new SynthesisStore();

export const useSynthesis = (): SynthesisState => useSyncExternalStore(synthesis.subscribe, synthesis.getSnapshot);

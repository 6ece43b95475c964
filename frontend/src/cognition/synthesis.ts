/** The server takes 2 to 5 cognitions per synthesis (contract); the client keeps the same bounds. */
export const MIN_SYNTHESIS = 2;
export const MAX_SYNTHESIS = 5;

export interface Selectable {
  id: string;
}

export type ToggleOutcome<T extends Selectable> = { selected: readonly T[]; refused: boolean };

/**
 * Adds or removes one cognition. A sixth one is refused rather than silently replacing an earlier
 * pick, so what the user chose is never changed behind their back.
 */
export function toggleSelection<T extends Selectable>(selected: readonly T[], item: T): ToggleOutcome<T> {
  if (selected.some((entry) => entry.id === item.id)) return { selected: selected.filter((entry) => entry.id !== item.id), refused: false };
  if (selected.length >= MAX_SYNTHESIS) return { selected, refused: true };
  return { selected: [...selected, item], refused: false };
}

export type SynthesisReadiness = { kind: 'empty' } | { kind: 'tooFew'; missing: number } | { kind: 'ready'; count: number } | { kind: 'tooMany'; extra: number };

export function synthesisReadiness(count: number): SynthesisReadiness {
  if (count <= 0) return { kind: 'empty' };
  if (count < MIN_SYNTHESIS) return { kind: 'tooFew', missing: MIN_SYNTHESIS - count };
  if (count > MAX_SYNTHESIS) return { kind: 'tooMany', extra: count - MAX_SYNTHESIS };
  return { kind: 'ready', count };
}

/** Whether a card can still be ticked: chosen ones always can (to untick), others while there is room. */
export const canTick = (selected: readonly Selectable[], id: string): boolean => selected.some((entry) => entry.id === id) || selected.length < MAX_SYNTHESIS;

import type { CollabHistoryEntryDto } from '@scriptorium/domain/protocol/collab';

/** Batches by one person this close together read as one edit: typing sends a batch every few keys. */
export const EDIT_GAP_MS = 60_000;

export interface HistoryGroup {
  /** The versions before and after the edit. */
  from: number;
  to: number;
  user_id: string;
  name: string;
  steps: number;
  /** When the edit ended. */
  at: string;
}

/** Consecutive batches of the same member within `EDIT_GAP_MS` of each other become one entry of the history list. */
export function groupHistory(entries: readonly CollabHistoryEntryDto[], gapMs = EDIT_GAP_MS): HistoryGroup[] {
  const groups: HistoryGroup[] = [];
  for (const entry of entries) {
    const last = groups.at(-1);
    if (last && last.user_id === entry.user_id && last.to === entry.version && Date.parse(entry.at) - Date.parse(last.at) <= gapMs) {
      last.to = entry.version + entry.steps;
      last.steps += entry.steps;
      last.at = entry.at;
    } else {
      groups.push({ from: entry.version, to: entry.version + entry.steps, user_id: entry.user_id, name: entry.name, steps: entry.steps, at: entry.at });
    }
  }
  return groups;
}

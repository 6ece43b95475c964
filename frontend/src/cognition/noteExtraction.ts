/** Extraction from notes takes 1 to 5 documents (spec §5, §9). */
export const MIN_EXTRACT_NOTES = 1;
export const MAX_EXTRACT_NOTES = 5;

/**
 * The note sidebar's "extract cognition" button for a selection of `count` notes: whether it is
 * enabled, its tooltip and, when pressed anyway, the alert. Keys are under `cognition:notes.`; the
 * tooltip takes `{ count }`.
 */
export interface NoteExtractionCheck {
  enabled: boolean;
  tooltip: 'tooltipNone' | 'tooltipTooMany' | 'tooltipReady';
  alert: 'selectFirst' | 'tooMany' | null;
}

export function noteExtractionCheck(count: number): NoteExtractionCheck {
  if (count < MIN_EXTRACT_NOTES) return { enabled: false, tooltip: 'tooltipNone', alert: 'selectFirst' };
  if (count > MAX_EXTRACT_NOTES) return { enabled: false, tooltip: 'tooltipTooMany', alert: 'tooMany' };
  return { enabled: true, tooltip: 'tooltipReady', alert: null };
}

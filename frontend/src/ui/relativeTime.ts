/** A date as a screen reads it: "unknown" when missing, "invalid date" when unreadable (spec's date messages). */
export type DateText = { kind: 'unknown' } | { kind: 'invalid' } | { kind: 'date'; date: Date };

export function readDate(value: string | null | undefined): DateText {
  if (value === null || value === undefined || value.trim() === '') return { kind: 'unknown' };
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? { kind: 'invalid' } : { kind: 'date', date };
}

export type RelativeTime =
  | { kind: 'unknown' }
  | { kind: 'invalid' }
  | { kind: 'justNow' }
  | { kind: 'minutes'; count: number }
  | { kind: 'hours'; count: number }
  | { kind: 'date'; date: Date };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Spec §4's relative time: under a minute "just now", then minutes, then hours, then the date;
 * missing and unreadable dates are told apart. A time slightly in the future (another machine's
 * clock) reads as just now rather than as a negative age.
 */
export function relativeTime(value: string | null | undefined, now: Date): RelativeTime {
  const read = readDate(value);
  if (read.kind !== 'date') return read;
  const age = now.getTime() - read.date.getTime();
  if (age < MINUTE) return { kind: 'justNow' };
  if (age < HOUR) return { kind: 'minutes', count: Math.floor(age / MINUTE) };
  if (age < DAY) return { kind: 'hours', count: Math.floor(age / HOUR) };
  return { kind: 'date', date: read.date };
}

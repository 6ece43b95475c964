/** Pure helpers of the admin console: paging, the bar chart's geometry, and form values. */

export interface PageInfo {
  page: number;
  pages: number;
  hasPrev: boolean;
  hasNext: boolean;
}

export function pageInfo(total: number, skip: number, limit: number): PageInfo {
  const pages = Math.max(1, Math.ceil(total / limit));
  const page = Math.min(pages, Math.floor(skip / limit) + 1);
  return { page, pages, hasPrev: skip > 0, hasNext: skip + limit < total };
}

/** The smallest 1, 2 or 5 × 10ⁿ at or above the value, so the axis ends on a round number. */
export function niceCeiling(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

export interface Bar {
  label: string;
  value: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ChartLayout {
  bars: Bar[];
  max: number;
  ticks: number[];
}

/** Bars across a plot of `width` × `height`, the gap a fraction of each slot. */
export function barLayout(points: ReadonlyArray<{ label: string; value: number }>, width: number, height: number, gap = 0.3): ChartLayout {
  const max = niceCeiling(Math.max(0, ...points.map((point) => point.value)));
  const slot = points.length > 0 ? width / points.length : width;
  const barWidth = slot * (1 - gap);
  const bars = points.map((point, index) => {
    const barHeight = Math.max(0, (point.value / max) * height);
    return { label: point.label, value: point.value, x: index * slot + (slot - barWidth) / 2, y: height - barHeight, width: barWidth, height: barHeight };
  });
  return { bars, max, ticks: [0, max / 4, max / 2, (3 * max) / 4, max] };
}

/** An ISO instant as a `datetime-local` input value in the browser's zone; blank when absent. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value back to an ISO instant; blank means no expiry (null). */
export function fromLocalInput(value: string): string | null {
  if (value.trim() === '') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** A number typed into an amount field, or null when it is not one (the server checks the bounds). */
export function parseNumber(text: string): number | null {
  if (text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** Toggling one id in a selection; toggling a page selects it all unless all of it is already selected. */
export function toggle(selection: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(selection);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

export function togglePage(selection: ReadonlySet<string>, pageIds: readonly string[]): Set<string> {
  const next = new Set(selection);
  const all = pageIds.length > 0 && pageIds.every((id) => next.has(id));
  for (const id of pageIds) {
    if (all) next.delete(id);
    else next.add(id);
  }
  return next;
}

export interface ReadModelList {
  head: number;
  projections: readonly { name: string; checkpoint: number }[];
}

/** A rebuild is over when its read model's checkpoint has reached the head of the log. */
export function caughtUp(list: ReadModelList | undefined, name: string): boolean {
  const model = list?.projections.find((candidate) => candidate.name === name);
  return model !== undefined && list !== undefined && model.checkpoint >= list.head;
}

/** The list as the server answered a rebuild: that read model starts again from its new checkpoint. */
export function restarted<T extends ReadModelList>(list: T, name: string, checkpoint: number, head: number): T {
  return { ...list, head: Math.max(list.head, head), projections: list.projections.map((model) => (model.name === name ? { ...model, checkpoint } : model)) };
}

/**
 * A user's daily totals as one bar per day for the `count` days up to `today` (or the newest day
 * with usage, if later: the server's day may run ahead of this browser's), days without usage at 0.
 */
export function dailyBars(days: ReadonlyArray<{ day: string; total_tokens: number }>, today: string, count: number): Array<{ label: string; value: number }> {
  const byDay = new Map(days.map((day) => [day.day, day.total_tokens]));
  const newest = days.reduce((latest, day) => (day.day > latest ? day.day : latest), today);
  const end = Date.parse(`${newest}T00:00:00Z`);
  return Array.from({ length: count }, (_, index) => {
    const day = new Date(end - (count - 1 - index) * 86_400_000).toISOString().slice(0, 10);
    return { label: day.slice(5), value: byDay.get(day) ?? 0 };
  });
}

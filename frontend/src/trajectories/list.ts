import type { TrajectoryEvent, TrajectoryFile } from './api.ts';

/** Spec §9: a title is shown at most 200 characters long. */
export const TITLE_CHARS = 200;
/** The sidebar panel shows the three most recent. */
export const RECENT_COUNT = 3;

export const shortTitle = (title: string): string => (Array.from(title).length > TITLE_CHARS ? `${Array.from(title).slice(0, TITLE_CHARS - 1).join('')}…` : title);

/** Favourites only when asked; a search matches title, file name, project and the first queries. */
export function filterFiles(files: readonly TrajectoryFile[], options: { favoritesOnly: boolean; query: string }): TrajectoryFile[] {
  const words = options.query.toLowerCase().split(/\s+/).filter(Boolean);
  return files.filter((file) => {
    if (options.favoritesOnly && !file.favorite) return false;
    const text = [file.title, file.filename, file.metadata.project_name, ...file.preview_data.map((item) => item.query)].join('\n').toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

export const recentFiles = (files: readonly TrajectoryFile[]): TrajectoryFile[] => [...files].sort((a, b) => Date.parse(b.updated_at) - Date.parse(a.updated_at)).slice(0, RECENT_COUNT);

export type TimelineItem =
  | { kind: 'boundary'; event: TrajectoryEvent }
  | { kind: 'query'; event: TrajectoryEvent }
  | { kind: 'answer'; event: TrajectoryEvent }
  | { kind: 'command'; command: TrajectoryEvent; output: TrajectoryEvent | null }
  | { kind: 'tool'; call: TrajectoryEvent; result: TrajectoryEvent | null }
  | { kind: 'error'; event: TrajectoryEvent };

/** Events as the timeline shows them: a command with its output, a tool call with its result. */
export function timeline(events: readonly TrajectoryEvent[]): TimelineItem[] {
  const items: TimelineItem[] = [];
  for (let index = 0; index < events.length; index++) {
    const event = events[index]!;
    const next = events[index + 1];
    switch (event.event_type) {
      case 'session_start':
      case 'session_end':
        items.push({ kind: 'boundary', event });
        break;
      case 'user_query':
        items.push({ kind: 'query', event });
        break;
      case 'assistant_response':
        items.push({ kind: 'answer', event });
        break;
      case 'command':
        items.push({ kind: 'command', command: event, output: next?.event_type === 'command_output' ? next : null });
        if (next?.event_type === 'command_output') index++;
        break;
      case 'command_output':
        items.push({ kind: 'command', command: { ...event, event_type: 'command', command: '' }, output: event });
        break;
      case 'tool_call':
        items.push({ kind: 'tool', call: event, result: next?.event_type === 'tool_result' ? next : null });
        if (next?.event_type === 'tool_result') index++;
        break;
      case 'tool_result':
        items.push({ kind: 'tool', call: { ...event, event_type: 'tool_call' }, result: event });
        break;
      case 'error':
        items.push({ kind: 'error', event });
        break;
    }
  }
  return items;
}

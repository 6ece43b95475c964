import type { Command, Decider, DomainEvent } from '@scriptorium/infra/eventsourcing/decider';

/**
 * What a user looked at, as the spec's guard records it (page views of notes, cognition and
 * research): stream `activity-<userId>-<day>`, one per user and day so no stream grows for ever.
 */
export type PageViewed = DomainEvent<'PageViewed', { userId: string; page: string; path: string; day: string; at: string }>;
export type ActivityEvent = PageViewed;

/** When each path was last recorded today. */
export type Activity = { status: 'day'; lastSeen: Record<string, string> };

export type RecordPageView = Command<'RecordPageView', { userId: string; page: string; path: string; day: string }>;

/** A reload or a quick back-and-forth within this is the same visit. */
export const REVISIT_MS = 60_000;

export const activityStream = (userId: string, day: string): string => `activity-${userId}-${day}`;

export const initialState = (): Activity => ({ status: 'day', lastSeen: {} });

/** Every event of this stream is a page view. */
export const evolve = (state: Activity, event: ActivityEvent): Activity => ({ ...state, lastSeen: { ...state.lastSeen, [event.data.path]: event.data.at } });

export const recordPageView = (command: RecordPageView, state: Activity): ActivityEvent[] => {
  const now = command.metadata.now;
  const last = state.lastSeen[command.data.path];
  if (last && now.getTime() - Date.parse(last) < REVISIT_MS) return [];
  return [{ type: 'PageViewed', data: { ...command.data, at: now.toISOString() } }];
};

export const activityDecider: Decider<Activity, RecordPageView, ActivityEvent> = { initialState, evolve, decide: recordPageView };

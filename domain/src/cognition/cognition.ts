import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';

/** A piece of structured knowledge drawn from notes, a web page or other cognitions (stream `cognition-<id>`). */

export const SOURCE_KINDS = ['notes', 'url', 'synthesis'] as const;
export type CognitionSourceKind = (typeof SOURCE_KINDS)[number];

export interface CognitionSource {
  n: number;
  title: string;
  url: string | null;
  kind: 'note' | 'url' | 'cognition';
  refId: string | null;
}

export interface CognitionBody {
  title: string;
  summary: string;
  insights: string[];
  content: string;
  tags: string[];
}

export type CognitionCreated = DomainEvent<
  'CognitionCreated',
  CognitionBody & { cognitionId: string; ownerId: string; ownerName: string; extractionId: string; sourceKind: CognitionSourceKind; sources: CognitionSource[]; at: string }
>;
export type CognitionEdited = DomainEvent<'CognitionEdited', { cognitionId: string; ownerId: string; changes: Partial<Pick<CognitionBody, 'title' | 'summary' | 'tags'>>; at: string }>;
export type CognitionVisibilitySet = DomainEvent<'CognitionVisibilitySet', { cognitionId: string; ownerId: string; public: boolean; at: string }>;
export type CognitionDeleted = DomainEvent<'CognitionDeleted', { cognitionId: string; ownerId: string; at: string }>;
/** The first view by each signed-in reader; later views by the same reader are not events. */
export type CognitionViewed = DomainEvent<'CognitionViewed', { cognitionId: string; viewerId: string; at: string }>;
export type CognitionEvent = CognitionCreated | CognitionEdited | CognitionVisibilitySet | CognitionDeleted | CognitionViewed;

export type Cognition =
  | { status: 'none' }
  | { status: 'active'; ownerId: string; public: boolean; body: CognitionBody; viewers: string[] }
  | { status: 'deleted' };

export const initialState = (): Cognition => ({ status: 'none' });

export const cognitionStream = (cognitionId: string): string => `cognition-${cognitionId}`;

export function evolve(state: Cognition, event: CognitionEvent): Cognition {
  switch (event.type) {
    case 'CognitionCreated': {
      const { ownerId, title, summary, insights, content, tags } = event.data;
      return { status: 'active', ownerId, public: false, body: { title, summary, insights, content, tags }, viewers: [] };
    }
    case 'CognitionEdited':
      return state.status === 'active' ? { ...state, body: { ...state.body, ...event.data.changes } } : state;
    case 'CognitionVisibilitySet':
      return state.status === 'active' ? { ...state, public: event.data.public } : state;
    case 'CognitionDeleted':
      return { status: 'deleted' };
    case 'CognitionViewed':
      return state.status === 'active' ? { ...state, viewers: [...state.viewers, event.data.viewerId] } : state;
    default:
      return assertNever(event);
  }
}

/** Who may read it: its owner always, anyone once it is public. */
export const readableBy = (state: Cognition, userId: string | null): boolean => state.status === 'active' && (state.public || state.ownerId === userId);

import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';

/** A named set of cognitions in a user's library (stream `cognition-collection-<id>`). */

export type CollectionCreated = DomainEvent<'CollectionCreated', { collectionId: string; ownerId: string; name: string; description: string; at: string }>;
export type CollectionEdited = DomainEvent<'CollectionEdited', { collectionId: string; ownerId: string; name: string; description: string; at: string }>;
export type CollectionDeleted = DomainEvent<'CollectionDeleted', { collectionId: string; ownerId: string; at: string }>;
export type CollectionItemAdded = DomainEvent<'CollectionItemAdded', { collectionId: string; ownerId: string; cognitionId: string; at: string }>;
export type CollectionItemRemoved = DomainEvent<'CollectionItemRemoved', { collectionId: string; ownerId: string; cognitionId: string; at: string }>;
export type CollectionEvent = CollectionCreated | CollectionEdited | CollectionDeleted | CollectionItemAdded | CollectionItemRemoved;

export type Collection =
  | { status: 'none' }
  | { status: 'active'; ownerId: string; name: string; description: string; items: string[] }
  | { status: 'deleted'; ownerId: string };

export const initialState = (): Collection => ({ status: 'none' });

export const collectionStream = (collectionId: string): string => `cognition-collection-${collectionId}`;

export function evolve(state: Collection, event: CollectionEvent): Collection {
  switch (event.type) {
    case 'CollectionCreated':
      return { status: 'active', ownerId: event.data.ownerId, name: event.data.name, description: event.data.description, items: [] };
    case 'CollectionEdited':
      return state.status === 'active' ? { ...state, name: event.data.name, description: event.data.description } : state;
    case 'CollectionDeleted':
      return { status: 'deleted', ownerId: event.data.ownerId };
    case 'CollectionItemAdded':
      return state.status === 'active' ? { ...state, items: [...state.items, event.data.cognitionId] } : state;
    case 'CollectionItemRemoved':
      return state.status === 'active' ? { ...state, items: state.items.filter((id) => id !== event.data.cognitionId) } : state;
    default:
      return assertNever(event);
  }
}

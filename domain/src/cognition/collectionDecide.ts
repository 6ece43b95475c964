import { refuse } from '../refuse.ts';
import { MAX_COLLECTION_DESCRIPTION, MAX_COLLECTION_NAME } from '../protocol/limits.ts';
import { assertNever, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { evolve, initialState, type Collection, type CollectionEvent } from './collection.ts';

export const MAX_COLLECTION_ITEMS = 1000;

type Actor = { collectionId: string; actorId: string };
export type CreateCollection = Command<'CreateCollection', Actor & { name: string; description: string }>;
export type EditCollection = Command<'EditCollection', Actor & { name?: string; description?: string }>;
export type DeleteCollection = Command<'DeleteCollection', Actor>;
export type AddToCollection = Command<'AddToCollection', Actor & { cognitionId: string }>;
export type RemoveFromCollection = Command<'RemoveFromCollection', Actor & { cognitionId: string }>;
export type CollectionCommand = CreateCollection | EditCollection | DeleteCollection | AddToCollection | RemoveFromCollection;

function owned(state: Collection, actorId: string): Extract<Collection, { status: 'active' }> {
  if (state.status !== 'active' || state.ownerId !== actorId) throw refuse('not_found', 'collection.not_found');
  return state;
}

function validName(raw: string): string {
  const name = raw.trim();
  if (!name) throw refuse('invalid', 'collection.name_empty', {}, 'name');
  if (name.length > MAX_COLLECTION_NAME) throw refuse('invalid', 'collection.name_too_long', { max: MAX_COLLECTION_NAME }, 'name');
  return name;
}

function validDescription(raw: string): string {
  const description = raw.trim();
  if (description.length > MAX_COLLECTION_DESCRIPTION) throw refuse('invalid', 'collection.description_too_long', { max: MAX_COLLECTION_DESCRIPTION }, 'description');
  return description;
}

export const createCollection = (command: CreateCollection, state: Collection): CollectionEvent[] => {
  if (state.status !== 'none') return [];
  const { collectionId, actorId } = command.data;
  return [{ type: 'CollectionCreated', data: { collectionId, ownerId: actorId, name: validName(command.data.name), description: validDescription(command.data.description), at: command.metadata.now.toISOString() } }];
};

export const editCollection = (command: EditCollection, state: Collection): CollectionEvent[] => {
  const { collectionId, actorId } = command.data;
  const current = owned(state, actorId);
  const name = command.data.name === undefined ? current.name : validName(command.data.name);
  const description = command.data.description === undefined ? current.description : validDescription(command.data.description);
  if (name === current.name && description === current.description) return [];
  return [{ type: 'CollectionEdited', data: { collectionId, ownerId: actorId, name, description, at: command.metadata.now.toISOString() } }];
};

export const deleteCollection = (command: DeleteCollection, state: Collection): CollectionEvent[] => {
  const { collectionId, actorId } = command.data;
  owned(state, actorId);
  return [{ type: 'CollectionDeleted', data: { collectionId, ownerId: actorId, at: command.metadata.now.toISOString() } }];
};

/** Whether the cognition may be added (the caller can read it) is checked by the caller against its stream. */
export const addToCollection = (command: AddToCollection, state: Collection): CollectionEvent[] => {
  const { collectionId, actorId, cognitionId } = command.data;
  const current = owned(state, actorId);
  if (current.items.includes(cognitionId)) return [];
  if (current.items.length >= MAX_COLLECTION_ITEMS) throw refuse('conflict', 'collection.full', { max: MAX_COLLECTION_ITEMS });
  return [{ type: 'CollectionItemAdded', data: { collectionId, ownerId: actorId, cognitionId, at: command.metadata.now.toISOString() } }];
};

export const removeFromCollection = (command: RemoveFromCollection, state: Collection): CollectionEvent[] => {
  const { collectionId, actorId, cognitionId } = command.data;
  const current = owned(state, actorId);
  if (!current.items.includes(cognitionId)) return [];
  return [{ type: 'CollectionItemRemoved', data: { collectionId, ownerId: actorId, cognitionId, at: command.metadata.now.toISOString() } }];
};

export function decide(command: CollectionCommand, state: Collection): CollectionEvent[] {
  switch (command.type) {
    case 'CreateCollection':
      return createCollection(command, state);
    case 'EditCollection':
      return editCollection(command, state);
    case 'DeleteCollection':
      return deleteCollection(command, state);
    case 'AddToCollection':
      return addToCollection(command, state);
    case 'RemoveFromCollection':
      return removeFromCollection(command, state);
    default:
      return assertNever(command);
  }
}

export const collectionDecider: Decider<Collection, CollectionCommand, CollectionEvent> = { initialState, evolve, decide };

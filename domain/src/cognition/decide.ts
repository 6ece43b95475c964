import { refuse } from '../refuse.ts';
import { MAX_SUMMARY, MAX_TAG, MAX_TAGS, MAX_TITLE } from '../protocol/limits.ts';
import { assertNever, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { evolve, initialState, readableBy, type Cognition, type CognitionBody, type CognitionCreated, type CognitionEvent } from './cognition.ts';


export type CreateCognition = Command<'CreateCognition', Omit<CognitionCreated['data'], 'at'>>;
export type EditCognition = Command<'EditCognition', { cognitionId: string; actorId: string; changes: Partial<Pick<CognitionBody, 'title' | 'summary' | 'tags'>> }>;
export type SetCognitionVisibility = Command<'SetCognitionVisibility', { cognitionId: string; actorId: string; public: boolean }>;
export type DeleteCognition = Command<'DeleteCognition', { cognitionId: string; actorId: string }>;
export type ViewCognition = Command<'ViewCognition', { cognitionId: string; viewerId: string }>;
export type CognitionCommand = CreateCognition | EditCognition | SetCognitionVisibility | DeleteCognition | ViewCognition;

/** Someone else's private cognition reads as missing, as everywhere else. */
function owned(state: Cognition, actorId: string): Extract<Cognition, { status: 'active' }> {
  if (state.status !== 'active' || state.ownerId !== actorId) throw refuse('not_found', 'cognition.not_found');
  return state;
}

function cleanChanges(changes: EditCognition['data']['changes']): EditCognition['data']['changes'] {
  const clean: EditCognition['data']['changes'] = {};
  if (changes.title !== undefined) {
    const title = changes.title.trim();
    if (!title) throw refuse('invalid', 'cognition.title_empty', {}, 'title');
    if (title.length > MAX_TITLE) throw refuse('invalid', 'cognition.title_too_long', { max: MAX_TITLE }, 'title');
    clean.title = title;
  }
  if (changes.summary !== undefined) {
    const summary = changes.summary.trim();
    if (summary.length > MAX_SUMMARY) throw refuse('invalid', 'cognition.summary_too_long', { max: MAX_SUMMARY }, 'summary');
    clean.summary = summary;
  }
  if (changes.tags !== undefined) {
    const tags = [...new Set(changes.tags.map((tag) => tag.trim()).filter(Boolean))];
    if (tags.length > MAX_TAGS) throw refuse('invalid', 'cognition.too_many_tags', { max: MAX_TAGS }, 'tags');
    if (tags.some((tag) => tag.length > MAX_TAG)) throw refuse('invalid', 'cognition.tag_too_long', { max: MAX_TAG }, 'tags');
    clean.tags = tags;
  }
  return clean;
}

/** Created once per extraction: a retried job finds it there and adds nothing. */
export const createCognition = (command: CreateCognition, state: Cognition): CognitionEvent[] =>
  state.status === 'none' ? [{ type: 'CognitionCreated', data: { ...command.data, at: command.metadata.now.toISOString() } }] : [];

export const editCognition = (command: EditCognition, state: Cognition): CognitionEvent[] => {
  const { cognitionId, actorId } = command.data;
  const current = owned(state, actorId);
  const changes = cleanChanges(command.data.changes);
  const changed = Object.fromEntries(Object.entries(changes).filter(([key, value]) => JSON.stringify(current.body[key as keyof typeof changes]) !== JSON.stringify(value)));
  if (Object.keys(changed).length === 0) return [];
  return [{ type: 'CognitionEdited', data: { cognitionId, ownerId: actorId, changes: changed, at: command.metadata.now.toISOString() } }];
};

export const setCognitionVisibility = (command: SetCognitionVisibility, state: Cognition): CognitionEvent[] => {
  const { cognitionId, actorId } = command.data;
  const current = owned(state, actorId);
  if (current.public === command.data.public) return [];
  return [{ type: 'CognitionVisibilitySet', data: { cognitionId, ownerId: actorId, public: command.data.public, at: command.metadata.now.toISOString() } }];
};

export const deleteCognition = (command: DeleteCognition, state: Cognition): CognitionEvent[] => {
  const { cognitionId, actorId } = command.data;
  owned(state, actorId);
  return [{ type: 'CognitionDeleted', data: { cognitionId, ownerId: actorId, at: command.metadata.now.toISOString() } }];
};

export const viewCognition = (command: ViewCognition, state: Cognition): CognitionEvent[] => {
  const { cognitionId, viewerId } = command.data;
  if (!readableBy(state, viewerId)) throw refuse('not_found', 'cognition.not_found');
  // A reader's view, once: the owner reading their own is neither a view to count nor the "browse cognition" task.
  if (state.status === 'active' && (state.viewers.includes(viewerId) || state.ownerId === viewerId)) return [];
  return [{ type: 'CognitionViewed', data: { cognitionId, viewerId, at: command.metadata.now.toISOString() } }];
};

export function decide(command: CognitionCommand, state: Cognition): CognitionEvent[] {
  switch (command.type) {
    case 'CreateCognition':
      return createCognition(command, state);
    case 'EditCognition':
      return editCognition(command, state);
    case 'SetCognitionVisibility':
      return setCognitionVisibility(command, state);
    case 'DeleteCognition':
      return deleteCognition(command, state);
    case 'ViewCognition':
      return viewCognition(command, state);
    default:
      return assertNever(command);
  }
}

export const cognitionDecider: Decider<Cognition, CognitionCommand, CognitionEvent> = { initialState, evolve, decide };

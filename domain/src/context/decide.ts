import { refuse } from '../refuse.ts';
import { MAX_INSTRUCTIONS } from '../protocol/http/contexts.ts';
import { assertNever, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { evolve, initialState, type ContentPreference, type ContextEvent, type ContextFileType, type Contexts } from './context.ts';

/** Enough material for one report; more would not fit the writing agent's context anyway. */
export const MAX_CONTEXTS = 20;

interface Actor {
  sessionId: string;
  userId: string;
}

export type AddContextFile = Command<
  'AddContextFile',
  Actor & {
    contextId: string;
    filename: string;
    fileType: ContextFileType;
    size: number;
    sha256: string;
    blobKey: string;
    textKey: string;
    chars: number;
    truncated: boolean;
    round?: number;
  }
>;
export type SelectNote = Command<'SelectNote', Actor & { contextId: string; noteId: string; title: string }>;
export type RemoveContext = Command<'RemoveContext', Actor & { contextId: string }>;
export type SetContentPreference = Command<'SetContentPreference', Actor & { changes: Partial<ContentPreference> }>;
export type ContextCommand = AddContextFile | SelectNote | RemoveContext | SetContentPreference;

/** Another user's session reads as missing, as everywhere else. */
const assertOwner = (state: Contexts, userId: string) => {
  if (state.ownerId !== null && state.ownerId !== userId) throw refuse('not_found', 'conversation.not_found');
};

const assertRoom = (state: Contexts) => {
  if (state.entries.length >= MAX_CONTEXTS) throw refuse('conflict', 'context.too_many', { max: MAX_CONTEXTS });
};

/** The same file uploaded again is the context already there: nothing is added. */
export const addContextFile = (command: AddContextFile, state: Contexts): ContextEvent[] => {
  const { data } = command;
  assertOwner(state, data.userId);
  if (state.entries.some((entry) => entry.contextId === data.contextId)) throw refuse('conflict', 'context.exists');
  if (state.entries.some((entry) => entry.kind === 'file' && entry.sha256 === data.sha256 && entry.filename === data.filename)) return [];
  assertRoom(state);
  const { round, ...rest } = data;
  return [{ type: 'ContextFileAdded', data: { ...rest, ...(round !== undefined && { round }), at: command.metadata.now.toISOString() } }];
};

export const selectNote = (command: SelectNote, state: Contexts): ContextEvent[] => {
  const { data } = command;
  assertOwner(state, data.userId);
  if (state.entries.some((entry) => entry.kind === 'note' && entry.noteId === data.noteId)) return [];
  if (state.entries.some((entry) => entry.contextId === data.contextId)) throw refuse('conflict', 'context.exists');
  assertRoom(state);
  return [{ type: 'ContextNoteSelected', data: { ...data, at: command.metadata.now.toISOString() } }];
};

export const removeContext = (command: RemoveContext, state: Contexts): ContextEvent[] => {
  const { data } = command;
  assertOwner(state, data.userId);
  if (!state.entries.some((entry) => entry.contextId === data.contextId)) throw refuse('not_found', 'context.not_found');
  return [{ type: 'ContextRemoved', data: { ...data, at: command.metadata.now.toISOString() } }];
};

export const setContentPreference = (command: SetContentPreference, state: Contexts): ContextEvent[] => {
  const { sessionId, userId, changes } = command.data;
  assertOwner(state, userId);
  const current = state.preference;
  const preference: ContentPreference = {
    length: changes.length ?? current.length,
    style: changes.style ?? current.style,
    language: changes.language ?? current.language,
    instructions: (changes.instructions ?? current.instructions).trim(),
  };
  if (preference.instructions.length > MAX_INSTRUCTIONS) throw refuse('invalid', 'context.instructions_too_long', { max: MAX_INSTRUCTIONS }, 'instructions');
  if (preference.length === current.length && preference.style === current.style && preference.language === current.language && preference.instructions === current.instructions) return [];
  return [{ type: 'ContentPreferenceSet', data: { sessionId, userId, preference, at: command.metadata.now.toISOString() } }];
};

export function decide(command: ContextCommand, state: Contexts): ContextEvent[] {
  switch (command.type) {
    case 'AddContextFile':
      return addContextFile(command, state);
    case 'SelectNote':
      return selectNote(command, state);
    case 'RemoveContext':
      return removeContext(command, state);
    case 'SetContentPreference':
      return setContentPreference(command, state);
    default:
      return assertNever(command);
  }
}

export const contextDecider: Decider<Contexts, ContextCommand, ContextEvent> = { initialState, evolve, decide };

import { refuse } from '../refuse.ts';
import { assertNever, type Command, type Decider, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';

/** A user's choice among the models the deployment offers. */
export type ModelPreferenceSet = DomainEvent<'ModelPreferenceSet', { userId: string; model: string; at: string }>;
export type PreferencesEvent = ModelPreferenceSet;

export type Preferences = { status: 'default' } | { status: 'chosen'; model: string };

export type SetModelPreference = Command<'SetModelPreference', { userId: string; model: string; available: string[] }>;
export type PreferencesCommand = SetModelPreference;

export const initialState = (): Preferences => ({ status: 'default' });

export function evolve(_state: Preferences, event: PreferencesEvent): Preferences {
  switch (event.type) {
    case 'ModelPreferenceSet':
      return { status: 'chosen', model: event.data.model };
    default:
      return assertNever(event.type);
  }
}

export function decide(command: PreferencesCommand, state: Preferences): PreferencesEvent[] {
  switch (command.type) {
    case 'SetModelPreference': {
      const { userId, model, available } = command.data;
      if (!available.includes(model)) throw refuse('invalid', 'preferences.model_unavailable', { model }, 'model');
      if (state.status === 'chosen' && state.model === model) return [];
      return [{ type: 'ModelPreferenceSet', data: { userId, model, at: command.metadata.now.toISOString() } }];
    }
    default:
      return assertNever(command.type);
  }
}

export const preferencesDecider: Decider<Preferences, PreferencesCommand, PreferencesEvent> = { initialState, evolve, decide };
export const preferencesStream = (userId: string): string => `preferences-${userId}`;
